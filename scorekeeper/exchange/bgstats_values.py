"""The values of a BG Stats play as real files hold them, each read by one rule (docs/BGSTATS.md):

- a score: a whole number as text or number ("12", 12, "12.0"), or a sum of them as people type round scores
  ("75+50+100", "-5 + 10"), summed; null or "" is no score (a play known by its winners); anything else (a word,
  NaN, a fraction, a number too large) is refused with a message that quotes it;
- a date: "YYYY-MM-DD HH:MM:SS" or "YYYY-MM-DD", UTC, between `FIRST_YEAR` and `LAST_YEAR` (a far date such as
  9999-12-31 is refused with a message, never an overflow);
- a duration: whole minutes, 0 unknown; over `LONGEST_MINUTES` (a day) it is no game's length, so it is taken
  as unknown and said so (BG Stats' field is free: 99999 is a typo, not a 69-day game);
- a game: by its BoardGameGeek id first (`BGG_IDS`), then its `bggName`, then its name (`game_key`);
- `metaData`: free JSON text; this app keeps under `META_KEY` what BG Stats has no field for.
No Flet here."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from scorekeeper.exchange.bgstats import META_KEY, TIME_FORMAT
from scorekeeper.games.base import Message
from scorekeeper.games.spec import GAMES

FIRST_YEAR, LAST_YEAR = 1900, 2200
"""The years a play's date may have: before, a typo; after, a placeholder ("9999-12-31")."""
LONGEST_MINUTES = 24 * 60
"""The longest duration believed: a game of these three is played in an evening."""
SCORE_LIMIT = 10**9

BGG_IDS: Mapping[int, str] = {number: game.key for game in GAMES for number in game.bgg_ids}
"""BoardGameGeek ids of the three games and their editions (`GameSpec.bgg_ids`) -> this app's key. Empty on
purpose for now: no source available to this project's search tools (public code, documentation and web pages,
searched for "Rack-O", "Ruck Zuck", "Rage" with "bggId" and boardgamegeek.com/boardgame/ links, 2026-12-07)
names these ids, and an id guessed would recognise another game as one of these. Fill the specs' `bgg_ids`
from BoardGameGeek itself (the game's page address holds the id); until then a game is recognised by `bggName`
and by its name, which BG Stats takes from BoardGameGeek when it links a game."""

OTHER_NAMES: Mapping[str, str] = {name: game.key for game in GAMES for name in game.other_names}
"""The names the games are sold and listed under (`GameSpec.other_names`: BoardGameGeek primary and alternate
names as BG Stats copies them into `bggName`, and as players type them) -> this app's key."""


def _folded(name: str) -> str:
    return "".join(re.findall(r"[a-z0-9]+", name.casefold()))


def _names() -> dict[str, str]:
    names = {_folded(text): key for text, key in OTHER_NAMES.items()}
    for game in GAMES:
        names[_folded(game.key)] = game.key
        names[_folded(str(game.title))] = game.key
    return names


NAMES = _names()
"""Folded names (lower case, letters and digits only) -> key: the English titles, the keys and `OTHER_NAMES`.
The titles are the same in every language the app speaks (a test checks the catalogs)."""


def game_key(name: Any) -> str | None:
    """This app's key for a BG Stats game name ("Rack-O", "RuckZuck", "Rage Card Game"), or None."""
    return NAMES.get(_folded(name)) if isinstance(name, str) else None


def game_of(entry: Mapping[str, Any]) -> str | None:
    """This app's key for a BG Stats game entry: by `bggId`, else `bggName`, else `name`; None: another game.
    An id that names another game decides (a user's "Rage" linked to another BoardGameGeek game is that game)
    only when the id is known here; an unknown id leaves the names to decide."""
    bgg = entry.get("bggId")
    if isinstance(bgg, int) and not isinstance(bgg, bool) and bgg in BGG_IDS:
        return BGG_IDS[bgg]
    return game_key(entry.get("bggName")) or game_key(entry.get("name"))


class Refused(ValueError):
    """A value of a play that cannot be read: `message` says which and why."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.template)
        self.message = message


_TERM = re.compile(r"\s*([+-]?)\s*(\d+(?:\.0+)?)\s*")


def score_of(value: Any) -> int | None:
    """A seat's score: a whole number, or a sum of whole numbers typed as text ("75+50+100"); None for no score
    (null, "", blanks). `Refused` for anything else, naming the value."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise Refused(Message("the score “{score}” is not a number", score=str(value)))
    if isinstance(value, int | float):
        if isinstance(value, float) and (math.isnan(value) or math.isinf(value) or not value.is_integer()):
            raise Refused(Message("the score “{score}” is not a whole number", score=str(value)))
        number = int(value)
    elif isinstance(value, str):
        number = _sum(value)
    else:
        raise Refused(Message("the score “{score}” is not a number", score=str(value)[:40]))
    if abs(number) >= SCORE_LIMIT:
        raise Refused(Message("the score “{score}” is too large", score=str(value)[:40]))
    return number


def _sum(text: str) -> int:
    """A number or sum of numbers typed as text ("12", "12.0", "75+50+100", "100-5"); `Refused` otherwise."""
    shown = " ".join(text.split())[:40]
    if len(text) > 400:
        raise Refused(Message("the score “{score}” is not a number or a sum of numbers", score=shown))
    position, total, terms = 0, 0, 0
    stripped = text.strip()
    while position < len(stripped):
        found = _TERM.match(stripped, position)
        if found is None or (terms and not found.group(1)):
            raise Refused(Message("the score “{score}” is not a number or a sum of numbers", score=shown))
        number = int(float(found.group(2)))
        total += -number if found.group(1) == "-" else number
        position, terms = found.end(), terms + 1
    if not terms:
        raise Refused(Message("the score “{score}” is not a number or a sum of numbers", score=shown))
    return total


def moment_of(text: Any) -> datetime | None:
    """A date as BG Stats writes it, UTC; None when there is none or it is not a date. `Refused` for a date
    outside `FIRST_YEAR`..`LAST_YEAR` (a placeholder such as 9999-12-31: no evening is that far)."""
    if not isinstance(text, str):
        return None
    cleaned = text.strip()
    moment = None
    for pattern, width in ((TIME_FORMAT, 19), ("%Y-%m-%d", 10)):
        try:
            moment = datetime.strptime(cleaned[:width], pattern)
            break
        except ValueError:
            continue
    if moment is None:
        return None
    if not FIRST_YEAR <= moment.year <= LAST_YEAR:
        raise Refused(Message("its date {date} is not a date an evening was played on", date=cleaned[:10]))
    return moment.replace(tzinfo=UTC)


def minutes_of(value: Any) -> tuple[int, bool]:
    """The minutes played (0: not known) and whether a value given was not believed (negative, not a number,
    NaN, or longer than `LONGEST_MINUTES`): such a duration is taken as unknown, and the import says so."""
    if value is None or value == "" or value == 0:
        return 0, False
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0, True
    if isinstance(value, float) and not math.isfinite(value):
        return 0, True
    if not 0 < value <= LONGEST_MINUTES:
        return 0, True
    return round(value), False


def meta_of(text: Any) -> dict[str, Any]:
    """This app's part of a play's `metaData` ({} when there is none, or the text is not JSON)."""
    if not isinstance(text, str) or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    mine = data.get(META_KEY) if isinstance(data, dict) else None
    return mine if isinstance(mine, dict) else {}
