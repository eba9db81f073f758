"""Statistics over stored matches: the statistics screen's figures (`overview`), statistics by player and period
(`players`), and game nights (`game_nights`). Pure functions of match summaries.

May import: `scorekeeper.model` (the row of a match they count, `model.player_row`) and `scorekeeper.games`. No
Flet, no store: the screens hand them what the store read."""
