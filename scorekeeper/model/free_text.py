"""One rule for the free text of a match and its players: player names, places and notes.

- Refused (a person typing is told; an import drops them and says so): control characters other than spaces,
  tabs and line breaks, text-direction characters (`BIDI_CONTROLS`: they could make a score line read
  backwards) and broken characters (lone surrogates).
- Trimmed: spaces around the text; a name and a place are one line with single spaces (so "Club" typed twice
  is one place); notes keep their line breaks.
- Limits, declared here once (`NAME_MAX`, `PLACE_MAX`, `NOTES_MAX`, by kind in `LIMITS`): a name 40 characters,
  a place 60, notes 2,000. Longer text is cut to the limit, and whoever cuts it says so (`Cleaned.cut`): never
  silently.
No Flet here; every reader of a limit imports it from here: the screens (`ui/components/evening.py`'s fields), the
players' registry (`store/people.py`'s `name_problem`), the match's pure changes (`model/evening.py`) and the
BG Stats import (`exchange/bgstats_play.py`)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

from scorekeeper.games.base import N_, Message

Kind = Literal["name", "place", "notes"]
NAME_MAX = 40
PLACE_MAX = 60
NOTES_MAX = 2_000
LIMITS: dict[str, int] = {"name": NAME_MAX, "place": PLACE_MAX, "notes": NOTES_MAX}
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them."""
REFUSED: dict[str, Message] = {
    "name": Message("A player's name cannot contain control or text-direction characters."),
    "place": Message("The place cannot contain control or text-direction characters."),
    "notes": Message("The notes cannot contain control or text-direction characters."),
}
DROPPED: dict[str, Message] = {
    "name": Message("A player's name had control or text-direction characters: they were removed."),
    "place": Message("The place had control or text-direction characters: they were removed."),
    "notes": Message("The notes had control or text-direction characters: they were removed."),
}
CUT: dict[str, str] = {
    "name": N_("A player's name was cut to {most} characters."),
    "place": N_("The place was cut to {most} characters."),
    "notes": N_("The notes were cut to {most} characters."),
}


def refused(char: str) -> bool:
    """Whether a character is refused in free text (a space, tab or line break is not)."""
    if char.isspace():
        return False
    return char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Cs")


@dataclass(frozen=True)
class Cleaned:
    """Free text after the rule: the text kept, whether refused characters were dropped and whether it was cut."""

    text: str
    dropped: bool = False
    cut: bool = False

    def problems(self, kind: Kind) -> list[Message]:
        """What a person is told of the cleaning (nothing when the text was kept as given, but trimmed)."""
        told = []
        if self.dropped:
            told.append(DROPPED[kind])
        if self.cut:
            told.append(Message(CUT[kind], most=LIMITS[kind]))
        return told


def trimmed(text: str, kind: Kind) -> str:
    """The text trimmed as `kind` is (no characters dropped, nothing cut)."""
    if kind == "notes":
        return text.strip()
    return " ".join(text.split())


def clean(text: str, kind: Kind) -> Cleaned:
    """`text` with the refused characters dropped, trimmed, and cut to the limit of `kind`."""
    kept = "".join(char for char in text if not refused(char))
    shaped = trimmed(kept, kind)
    limit = LIMITS[kind]
    cut = len(shaped) > limit
    return Cleaned(shaped[:limit].rstrip() if cut else shaped, dropped=kept != text, cut=cut)


def problem(text: str, kind: Kind) -> Message | None:
    """Why a person's typed `text` is refused as `kind` (control or text-direction characters), or None. The
    length is not refused: the text is cut, and the person told (`clean`)."""
    if any(refused(char) for char in text):
        return REFUSED[kind]
    return None
