"""scorekeeper: score keeping and digital play for Racko, Ruck Zuck and Rage."""

from scorekeeper.release import VERSION

__version__ = VERSION
