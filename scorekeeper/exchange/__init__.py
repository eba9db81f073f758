"""Files that travel between apps: the full export (JSON, round-trips exactly) and CSV (`transfer`), the checks
an import file passes before anything is written (`import_check`), and BG Stats' plays file (`bgstats*`).

May import: `scorekeeper.store`, `scorekeeper.model`, `scorekeeper.games`. No Flet."""
