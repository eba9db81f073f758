"""Digital play screens: one panel per game over a seat's view, and the automation surface they share."""
