"""Digital play: a session runs one game (rounds, seats, computer players, saving) over the engine.

May import: `scorekeeper.store` (saved games), `scorekeeper.model`, `scorekeeper.games`. No Flet."""
