"""Statistics over stored matches: the statistics screen's figures (`overview`), statistics by player and period
(`players`), and game nights (`game_nights`). Pure functions of match summaries.

May import: `scorekeeper.model`, `scorekeeper.games`, and the store's record types (`scorekeeper.store.records`).
No Flet."""
