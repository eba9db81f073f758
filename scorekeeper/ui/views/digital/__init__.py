"""Digital play's screens: setting up a game (`setup`), the game (`game`), its side panel and its result."""
