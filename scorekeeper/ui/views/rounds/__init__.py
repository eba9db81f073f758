"""Entering a round of a tracked game: the shared screen (`entry`) and each game's form."""
