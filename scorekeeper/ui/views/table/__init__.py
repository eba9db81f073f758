"""The live table's screens: the host's lobby, the board, a phone's seat, joining, and keeping score at the
table."""
