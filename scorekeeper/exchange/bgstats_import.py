"""Reading a BG Stats file (docs/BGSTATS.md) into matches known by their final totals, and writing them.

Only the plays of Racko, Ruck Zuck and Rage come in (by BoardGameGeek id, `bggName` or name:
`bgstats_values.game_of`); the others are counted. Each becomes a finished match with `final_totals` and no
rounds (BG Stats knows none); its id is the play's uuid, so a second import of the same file adds nothing. What
BG Stats recorded beyond the totals is kept in the match's options (`scorekeeper.model.recorded`): its winners where
they are the record (no scores, `manualWinner`, or flags the scores disagree with: told in the report),
`ignored`, the number of rounds; a team play is Racko's partners game; what this app kept in `metaData` (its
options, the clock's spans) comes back. Players are found by name or added. A file that is not a BG Stats export
is refused whole with a sentence, and nothing changes; the writing is the ordinary import's, all or nothing.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.exchange.bgstats_play import Play, about, read_play, ref
from scorekeeper.exchange.bgstats_values import Refused, game_of
from scorekeeper.exchange.bgstats_values import game_key as game_key  # kept importable from here
from scorekeeper.exchange.import_check import FORMAT, MAX_IMPORT_BYTES, Bundle
from scorekeeper.exchange.transfer import Progress, apply_import
from scorekeeper.games.base import Message, RuleError
from scorekeeper.games.spec import spec
from scorekeeper.model.match import Match
from scorekeeper.model.stamps import now_iso
from scorekeeper.store.errors import ImportFileError
from scorekeeper.store.matches import Matches
from scorekeeper.store.people import Players, Settings, name_key
from scorekeeper.store.records import Player
from scorekeeper.store.repo import Store
from scorekeeper.store.saved import SavedGames

__all__ = ["Play", "Plays", "Report", "apply_plays", "game_key", "import_bgstats_text", "read_plays"]


@dataclass
class Plays:
    """What a BG Stats file holds for this app."""

    plays: list[Play]
    other_games: int = 0
    unreadable: int = 0
    problems: list[Message] = field(default_factory=list)
    """Per play skipped, or read with a value not believed, a sentence saying which play and why."""


def _not_bgstats(reason: Message) -> ImportFileError:
    return ImportFileError(
        "This file is not a BG Stats export ({reason}). Nothing was changed.", reason=reason
    )


def load_document(content: str | bytes) -> dict[str, Any]:
    """The file as a BG Stats export: an object with lists of games, players and plays (locations optional);
    ImportFileError otherwise, before anything is changed."""
    if len(content) > MAX_IMPORT_BYTES:
        raise ImportFileError("The file is too large to import. Nothing was changed.")
    try:
        text = content.decode("utf-8-sig") if isinstance(content, bytes) else content.lstrip("\ufeff")
        document = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _not_bgstats(Message("it is not JSON")) from None
    if not isinstance(document, dict):
        raise _not_bgstats(Message("it is not a JSON object"))
    if document.get("format") == FORMAT:
        raise _not_bgstats(Message("it is an export of this app"))
    for section in ("games", "players", "plays"):
        if not isinstance(document.get(section), list):
            raise _not_bgstats(Message("it has no list of “{section}”", section=section))
    if not isinstance(document.get("locations", []), list):
        raise _not_bgstats(Message("its locations are not a list"))
    if not all(isinstance(item, dict) for s in ("games", "players", "plays") for item in document[s]):
        raise _not_bgstats(Message("its games, players and plays must be objects"))
    return document


def looks_like_bgstats(content: str | bytes) -> bool:
    """Whether content is a BG Stats file rather than this app's export (which names its format at the start):
    the import screen takes both through one button."""
    head = content[:400]
    marker: str | bytes = (
        f'"format": "{FORMAT}"' if isinstance(head, str) else f'"format": "{FORMAT}"'.encode()
    )
    if marker in head:  # type: ignore[operator]
        return False
    try:
        load_document(content)
    except ImportFileError:
        return False
    return True


def read_plays(
    content: str | bytes, recognise: Callable[[Mapping[str, Any]], str | None] | None = None
) -> Plays:
    """The plays of this app's games in a BG Stats file, each checked; ImportFileError for a file that is not
    one. A play's players are named, in seat order; the matches are made once the players are known.
    `recognise` tells a game entry's key (by BoardGameGeek id, `bggName`, then name: `game_of`)."""
    document = load_document(content)
    recognise = recognise or game_of
    games = {ref(g.get("id")): g for g in document["games"]}
    people = {ref(p.get("id")): p for p in document["players"]}
    locations = {ref(loc.get("id")): loc for loc in document.get("locations", []) if isinstance(loc, dict)}
    found = Plays([])
    for raw in document["plays"]:
        game = recognise(games.get(ref(raw.get("gameRefId")), {}))
        if game is None:
            found.other_games += 1
            continue
        try:
            found.plays.append(read_play(raw, game, people, locations, found.problems))
        except Refused as refusal:
            found.unreadable += 1
            found.problems.append(about(raw, game, refusal.message))
    return found


def checked_matches(plays: Plays, player_ids: Callable[[list[str]], list[str]]) -> list[Match]:
    """The matches of the file's plays, each with its players' ids; a play the game does not allow (e.g. its
    number of players, two seats of one person) is counted as unreadable and left out."""
    matches = []
    for play in list(plays.plays):
        try:
            matches.append(play.match(player_ids(play.names)))
        except RuleError as error:
            plays.unreadable += 1
            plays.plays.remove(play)
            plays.problems.append(
                Message(
                    "{game} of {day}: {problem}",
                    game=spec(play.game).title,
                    day=play.moment.date().isoformat(),
                    problem=Message(str(error.template), **error.fields),
                )
            )
    return matches


@dataclass(frozen=True)
class Report:
    """What an import of a BG Stats file did (the screen words it)."""

    imported: int
    updated: int
    already: int
    other_games: int
    unreadable: int
    players_added: int
    problems: tuple[Message, ...] = ()
    """Per play skipped, or read with something dropped or not believed: which play, and why."""


def apply_plays(
    players: Players,
    settings: Settings,
    matches: Matches,
    saved: SavedGames,
    found: Plays,
    progress: Progress | None = None,
) -> Report:
    """Write the file's plays as matches, all or nothing, through the ordinary import (the caller holds the
    lock): a player is found by name (an active one first, then an archived one) or added. A play imported
    before is the same match (its id is the play's uuid): unchanged, or updated when BG Stats changed it later
    and it was not changed here."""
    known: dict[str, str] = {}
    for person in sorted(players.list_players(include_archived=True), key=lambda p: not p.archived):
        known[name_key(person.name)] = person.id  # an active player overwrites an archived one of the name
    added: list[Player] = []

    def ids(names: list[str]) -> list[str]:
        chosen = []
        for name in names:
            key = name_key(name)
            if key not in known:
                person = Player(uuid.uuid4().hex, name, "", False, now_iso())
                added.append(person)
                known[key] = person.id
            chosen.append(known[key])
        return chosen

    made = checked_matches(found, ids)
    used = {player for match in made for player in match.players}
    bundle = Bundle(players=[p for p in added if p.id in used], settings={}, matches=made, saved_games=[])
    report = apply_import(players, settings, matches, saved, bundle, progress)
    return Report(
        imported=report.matches_added,
        updated=report.matches_updated,
        already=report.matches_unchanged + report.matches_kept,
        other_games=found.other_games,
        unreadable=found.unreadable,
        players_added=report.players_added,
        problems=tuple(found.problems),
    )


def import_bgstats_text(store: Store, content: str | bytes, progress: Progress | None = None) -> Report:
    """Import a BG Stats export's plays of this app's games, all or nothing: ImportFileError for a file that
    is not one (nothing changes); each play a match known by its final totals, never twice."""
    found = read_plays(content)
    with store.importing(snapshot_first=bool(found.plays)):  # as before any import that adds games
        return apply_plays(store.players, store.settings_part, store.matches, store.saved, found, progress)
