"""One tracked game's screens: starting it (`new_game`), its scoreboard, the board mode and its end."""
