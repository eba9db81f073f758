"""The bot lab: computer players measured against each other. `selfplay` plays rounds bot against bot, `sim`
is its command line (`python -m scorekeeper.lab.sim`), `roundrobin` plays every strength against every other.

May import: `scorekeeper.games` and `scorekeeper.model`. No Flet, no store."""
