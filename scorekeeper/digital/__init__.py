"""Digital play: a session runs one game (rounds, seats, computer players, saving) over the engine."""
