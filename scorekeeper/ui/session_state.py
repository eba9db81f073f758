"""What one app session keeps between its screens: form drafts, the services it holds, play sessions and tables.

Views are rebuilt on every redraw; whatever must outlive one drawing lives here, on `ctx.session`, under a name
and a type of its own. Nothing here is saved: a new session (a reload) starts empty.

The lowest module of the screens (`context` holds it; every view and component is above): the state kept here is
plain data declared here, or, where it is a screen's own object (a round's part draft, a digital game's screen),
kept as `object` and checked by the one screen that keeps it, so this module imports no screen.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from scorekeeper.digital.session import PlaySession
from scorekeeper.server import uploads


@dataclass
class NewGameDraft:
    """The new-game form (tracked): the game, its option values, the seats in order and who deals first."""

    game: str
    values: dict[str, Any] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)  # player ids, in seating order
    dealer: str = "random"  # a seated player's id, or "random"
    typing: bool = False  # a player was just added: the name field takes the focus back


@dataclass
class PlaySetupDraft:
    """The play-setup form (digital): the game, its option values and the seats (each a person or a computer)."""

    game: str
    values: dict[str, Any] = field(default_factory=dict)
    seats: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class PlayersDraft:
    """The players screen: the colour picked for the next new player, whose colour is being changed."""

    typing: bool = False  # a player was just added: the name field takes the focus back
    picked: str | None = None
    colour_for: str | None = None  # the player id whose colour choice is open


@dataclass
class TableSetupDraft:
    """The form that opens a table: game, number of seats, option values, play or keep score."""

    game: str
    mode: str
    players: int = 3
    values: dict[str, Any] = field(default_factory=dict)


@dataclass
class JoinDraft:
    """A phone's join form for one table: the seat it chose and the name typed."""

    seat: int | None = None
    name: str = ""


@dataclass
class Upload:
    """Settings, "Import a file" in a browser (views/settings/upload.py): one file on its way, the picked file's
    name and size, and the slot it goes into."""

    name: str
    size: int
    slot: uploads.Slot
    shown: int = -1  # the percent on screen
    importing: bool = False


@dataclass
class Pending:
    """A match's photo on its way to the server (components/photo_adding.py): the picked file's name and size,
    its upload slot, the match."""

    name: str
    size: int
    slot: uploads.Slot
    match_id: str
    keep_location: bool


@dataclass
class PhotoState:
    """What a session keeps for photos between redraws (`ctx.session.photos`, components/photo_state.py)."""

    picker: ft.FilePicker | None = None
    keep_location: bool = False
    match_id: str = ""
    pending: Pending | None = None


@dataclass
class SessionState:
    """The per-session state views keep between redraws (see the module docstring)."""

    # Form drafts, kept while a screen is drawn again (and while the person looks elsewhere).
    new_game: NewGameDraft | None = None
    play_setup: PlaySetupDraft | None = None
    players: PlayersDraft = field(default_factory=PlayersDraft)
    table_setup: TableSetupDraft | None = None
    joins: dict[str, JoinDraft] = field(default_factory=dict)  # by table code
    # The round screens' drafts, and a phone's part of a round at a live table, by the form's own key (round,
    # step); what is in them is each form's business.
    rounds: dict[str, object] = field(default_factory=dict)
    parts: dict[str, object] = field(default_factory=dict)  # part_fields.PartDraft
    # "Show more": how many entries a paged list shows now, by list.
    shown: dict[str, int] = field(default_factory=dict)
    # What the store repaired at start (already in the player's language): on home until dismissed.
    repairs: list[str] = field(default_factory=list)

    # Digital play on this device: its play sessions and their screens, by saved-game id.
    plays: dict[str, PlaySession] = field(default_factory=dict)
    play_tables: dict[str, object] = field(default_factory=dict)  # views.digital.game.PlayScreen
    # A phone at a live table: its seat token by table code, and the seat it counts as present at.
    table_tokens: dict[str, str] = field(default_factory=dict)
    connected: dict[str, int] = field(default_factory=dict)
    # The client's address when the session was made (the real one behind a trusted proxy): a resumed session's
    # registration may overwrite `page.client_ip` with whatever the client sends, so guards read this instead.
    address: str | None = None
    # The route the page was loaded at, and the codes of other instances whose join page was loaded anew: such
    # a page must not load itself again when the proxy sends it back here.
    entry_route: str = "/"
    sent_elsewhere: set[str] = field(default_factory=set)

    # Whether this device was sent the colour emoji font (see emoji_font.py): only once a name has an emoji.
    emoji_font: bool = False

    # The browser's storage service (kept referenced: Flet drops services nobody references).
    prefs: ft.SharedPreferences | None = None
    # The screen reader's announcements (ui/announcements.py), kept referenced for the same reason.
    semantics: ft.SemanticsService | None = None
    # Owner devices: a notice above the first screen, by its identifier: True until shown, then the route it
    # stays on. The owner-device token until the browser has stored it, and the pairing link shown in Settings
    # with the time it stops working.
    notices: dict[str, bool | str] = field(default_factory=dict)
    owner_device_token: str | None = None
    member_device_token: str | None = None
    # The browser's storage did not answer when the session started (owner.UNKNOWN): asked again when the page
    # connects anew (a reload resumes this session).
    unknown_device: bool = False
    pairing: tuple[str, float] | None = None
    member_pairing: tuple[str, float] | None = None

    # Import and export in Settings: the page's one file picker, the screen's place for an import's progress,
    # held while this session imports a file, the outcome of the import just done (for the redraw after it),
    # and the upload on its way to the server.
    file_picker: ft.FilePicker | None = None
    import_status: ft.Column | None = None
    importing: threading.Lock = field(default_factory=threading.Lock)
    import_result: tuple[bool, str] | None = None
    upload: Upload | None = None
    # The BG Stats export's period in Settings (views/settings/bgstats.py), kept over a redraw of the screen.
    bgstats_period: dict[str, Any] = field(default_factory=dict)
    # Photos of a match (components/photos.py): its own file picker, the photo on its way, the location switch.
    photos: PhotoState | None = None
