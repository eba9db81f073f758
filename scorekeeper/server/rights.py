"""Who may see which screen: the one table of rights, checked on the screen a route resolves to, never on how
the route was spelled.

Three roles, from least to most:

- a *visitor* (a browser with no proof) reaches the join page and the table whose seat (its seat token) or board
  it holds, and the rules; nothing of the history, the players or the statistics;
- a *member* (a browser paired by a member link or QR code from an owner device, see owner.py, or everyone while
  the owner's switch "everyone is a member" is on) sees the history and keeps score, as guests did before; what
  reaches the whole data set (settings, export, import, backups, deleting) stays with the owner unless the owner
  allows members (`permissions.allowed`);
- the *owner* (the desktop window, or a browser that proved to be an owner device) has everything, and alone
  sets up and runs a live table (its lobby and setup).

`Shell.show` asks `may_view` for the module of the resolved route before it builds anything, and again before
every event a screen's controls send (`Shell.guard_events`): a device signed out meanwhile is refused at once.
What a view shows inside (a live table's saved game, the Settings sections) is the view's own check.
"""

from __future__ import annotations

VISITOR = "visitor"
MEMBER = "member"
OWNER = "owner"
ROLES: tuple[str, ...] = (VISITOR, MEMBER, OWNER)
"""The roles in order: each may everything the one before it may."""

VIEW_RIGHTS: dict[str, str] = {
    # a visitor: the way to a table, the table it holds, the rules of the game
    "table_join": VISITOR,
    "table_seat": VISITOR,  # the seat token decides which seat (none: sent to the join page)
    "table_board": VISITOR,  # the board by its code (through the wrong-code guard) or the board's token
    "rules": VISITOR,
    "settings": VISITOR,  # a visitor sees its own language and theme only (settings.py)
    # a member: the games, players and statistics, keeping score, playing on this device
    "home": MEMBER,
    "players": MEMBER,
    "new_game": MEMBER,
    "scoreboard": MEMBER,
    "round_entry": MEMBER,
    "scoreboard_mode": MEMBER,
    "game_end": MEMBER,
    "history": MEMBER,
    "game_night": MEMBER,  # as the history: members see it and choose a game's night
    "stats": MEMBER,
    "stats_players": MEMBER,
    "play_setup": MEMBER,
    "play": MEMBER,  # a live table's saved game never opens here (views/digital/game.py: its seats play on their phones)
    # the owner: setting up and running a live table
    "table_lobby": OWNER,
}
"""The least role that may see each screen (the view modules of `routes.ROUTES`); a module not listed here is
the owner's only."""


def at_least(role: str, wanted: str) -> bool:
    """Whether `role` has every right of `wanted` (an unknown role has none)."""
    return role in ROLES and ROLES.index(role) >= ROLES.index(wanted)


def may_view(role: str, module: str) -> bool:
    """May a session of `role` see the screen of view module `module`?"""
    return at_least(role, VIEW_RIGHTS.get(module, OWNER))


def refused_route(role: str) -> str:
    """Where a session goes that asked for a screen it may not see: a visitor to the join page (its way to a
    table is a code), a member home."""
    return "/" if at_least(role, MEMBER) else "/join"
