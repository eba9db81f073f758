"""scorekeeper: score keeping and digital play for Racko, Ruck Zuck and Rage."""

__version__ = "0.1.0"
