"""Sync between a user's devices through storage they already run: a folder that a sync tool keeps in step, or
a WebDAV server. Each device writes only its own files on the target; records merge by version, never by wall
clock. No Flet here.

May import: `scorekeeper.store`, `scorekeeper.model`, `scorekeeper.games` and the platform modules (`release`,
`capabilities`). The parts of one sync know it as `running.Running`, below `engine`, which imports them."""
