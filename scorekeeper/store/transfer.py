"""Export and import: all data as one JSON file (round-trips exactly) and as CSV for spreadsheets.

Import checks the whole file first: its marker and schema, every player, every saved game and every match
through `Match.from_dict` (the rules engine). Anything wrong raises ImportFileError naming the record and the
problem, before a single file is changed. Records are matched by id, so importing the same file twice adds
nothing; when both sides have a match, the newer one (higher edit version, then later `updated`) is kept.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.games.base import N_, Clause, Message, Plural, RuleError, joined
from scorekeeper.match import GAME_TITLES, Match, now_iso
from scorekeeper.store.errors import CorruptFileError, ImportFileError, NewerFileError
from scorekeeper.store.paths import is_safe_id
from scorekeeper.store.people import PLAYERS_KIND, PLAYERS_TABLE
from scorekeeper.store.records import MatchSummary, Player, SavedGame
from scorekeeper.store.schema import CURRENT_SCHEMA
from scorekeeper.store.storage import atomic_write_bytes, is_tmp, read_envelope

if TYPE_CHECKING:
    from scorekeeper.store.repo import Store

FORMAT = "scorekeeper-export"
Progress = Callable[[int, int], None]
SECTIONS = ("players", "settings", "matches", "digital_games")
MAX_IMPORT_BYTES = 200 * 1024 * 1024
CSV_COLUMNS = (
    "match_id", "started", "game", "mode", "status", "round", "dealer", "seat", "player_id", "player",
    "points", "total",
)  # fmt: skip


# ---------------------------------------------------------------------- export
def build_export(store: Store, *, for_snapshot: bool = False) -> dict[str, Any]:
    """Everything in the store as one JSON-safe document. Snapshots read the files as stored (no rules
    check, no recovery) so that taking one never changes anything."""
    players = [p.to_dict() for p in store.list_players(include_archived=True)]
    players.sort(key=lambda p: (p["created"], p["id"]))
    if for_snapshot:
        matches = _raw_records(store.layout.matches, "match", "match")
        games = _raw_records(store.layout.digital, "digital", "game")
    else:
        matches = [m.to_dict() for m in store.iter_matches()]
        games = [g.to_dict() for g in store.list_digital_games()]
    matches.sort(key=lambda m: (m["created"], m["id"]))
    games.sort(key=lambda g: (g["created"], g["id"]))
    return {
        "format": FORMAT,
        "schema": CURRENT_SCHEMA,
        "exported": now_iso(),
        "players": players,
        "settings": store.settings(),
        "matches": matches,
        "digital_games": games,
    }


def _raw_records(folder: Path, kind: str, table: str) -> list[dict[str, Any]]:
    records = []
    for entry in os.scandir(folder):
        if entry.name.endswith(".json") and not is_tmp(entry.name):
            try:
                tables = read_envelope(Path(entry.path), kind)
                record = tables[table]["1"] if tables else None
            except (CorruptFileError, NewerFileError, KeyError, TypeError, OSError):
                continue
            if isinstance(record, dict) and isinstance(record.get("created"), str) and "id" in record:
                records.append(record)
    return records


def csv_rows(matches: list[Match]) -> list[list[Any]]:
    """One row per player per round: the round's points and the running total after it."""
    rows: list[list[Any]] = []
    for match in matches:
        tally = match.tally()
        running = [t - sum(s[seat] for s in tally.scores) for seat, t in enumerate(tally.totals)]
        for number, (scores, dealer) in enumerate(zip(tally.scores, tally.dealers, strict=True), start=1):
            for seat, points in enumerate(scores):
                running[seat] += points
                rows.append([
                    match.id, match.created[:10], GAME_TITLES[match.game], match.mode, match.status, number,
                    _cell(match.names[dealer]), seat + 1, match.players[seat], _cell(match.names[seat]),
                    points, running[seat],
                ])  # fmt: skip
    return rows


def _cell(text: str) -> str:
    """Keep spreadsheets from reading a name such as "=1+2" or "-Bob" as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# ---------------------------------------------------------------------- import
@dataclass
class ImportReport:
    """What an import did; `summary()` says it in one sentence for the player."""

    players_added: int = 0
    players_unchanged: int = 0
    matches_added: int = 0
    matches_updated: int = 0
    matches_unchanged: int = 0
    matches_kept: int = 0
    """Matches where this device's copy is newer than the file's, so it was kept."""
    saved_games_added: int = 0
    saved_games_updated: int = 0
    saved_games_unchanged: int = 0
    settings_changed: int = 0

    @property
    def changed(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self) if not f.name.endswith(("unchanged", "kept")))

    def summary(self) -> str:
        parts = [
            f"{self.matches_added} new games",
            f"{self.matches_updated} updated",
            f"{self.matches_unchanged + self.matches_kept} already here",
            f"{self.players_added} new players",
        ]
        if self.matches_kept:
            parts.append(f"{self.matches_kept} kept as on this device because they are newer here")
        if not self.changed:
            return "Nothing new to import: everything in the file is already here."
        return "Imported: " + ", ".join(parts) + "."


@dataclass
class Bundle:
    """A checked import file."""

    players: list[Player]
    settings: dict[str, Any]
    matches: list[Match]
    saved_games: list[SavedGame]


def parse_export(content: str | bytes) -> Bundle:
    """Check an export file completely; ImportFileError says what is wrong. Nothing is written here."""
    if len(content) > MAX_IMPORT_BYTES:
        raise ImportFileError("The file is too large to be a Scorekeeper export. Nothing was changed.")
    try:
        text = content.decode("utf-8-sig") if isinstance(content, bytes) else content.lstrip("\ufeff")
        document = json.loads(text)
    except UnicodeDecodeError:
        raise ImportFileError(
            "The file is not a Scorekeeper export: it is not text. Nothing was changed."
        ) from None
    except json.JSONDecodeError as error:
        raise ImportFileError(
            "The file is not a Scorekeeper export: it is not valid JSON (line {line}, column {column}); it may "
            "be cut off or damaged. Nothing was changed.",
            line=error.lineno,
            column=error.colno,
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportFileError(
            "The file is not a Scorekeeper export (it lacks the export marker). Nothing was changed."
        )
    schema = document.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise ImportFileError("The export file has no valid data version. Nothing was changed.")
    if schema > CURRENT_SCHEMA:
        raise ImportFileError(
            "The file was exported by a newer version of Scorekeeper (data version {version}; this app reads up "
            "to {current}). Update the app to import it. Nothing was changed.",
            version=schema,
            current=CURRENT_SCHEMA,
        )
    unknown = sorted(set(document) - {"format", "schema", "exported", *SECTIONS})
    if unknown:
        raise ImportFileError(
            "The export file has unknown parts: {parts}. Nothing was changed.", parts=", ".join(unknown)
        )
    errors: list[Message] = []
    bundle = Bundle(
        players=_records(document, "players", Player.from_dict, errors),
        settings=_settings(document, errors),
        matches=_records(document, "matches", Match.from_dict, errors),
        saved_games=_records(document, "digital_games", SavedGame.from_dict, errors),
    )
    if errors:
        raise ImportFileError(
            "The file cannot be imported: {problems} ({more}). Nothing was changed."
            if len(errors) > 5
            else "The file cannot be imported: {problems}. Nothing was changed.",
            problems=joined(errors[:5], "; "),
            more=Plural("and {n} more problem", "and {n} more problems", len(errors) - 5),
        )
    return bundle


def _settings(document: dict[str, Any], errors: list[Message]) -> dict[str, Any]:
    settings = document.get("settings", {})
    if not isinstance(settings, dict):
        errors.append(Message("the settings are not a list of names and values"))
        return {}
    return settings


_SECTIONS: dict[str, tuple[str, str]] = {
    "players": (N_("the players are not a list"), N_("Player {number}")),
    "matches": (N_("the matches are not a list"), N_("Game {number}")),
    "digital_games": (N_("the digital games are not a list"), N_("Saved digital game {number}")),
}
"""Per section of an export: the message when it is not a list, and how one of its records is named."""


def _record_name(section: str, number: int, record: Any) -> Message:
    """How an import problem names a record: "Game 3 (Rage: Anna, Ben)", "Player 2 (Cleo)"."""
    name = Message(_SECTIONS[section][1], number=number)
    if isinstance(record, dict):
        if isinstance(record.get("name"), str):
            return Message("{record} ({name})", record=name, name=record["name"])
        if isinstance(record.get("game"), str) and isinstance(record.get("names"), list):
            people = ", ".join(str(n) for n in record["names"])
            game = GAME_TITLES.get(record["game"], record["game"])
            return Message("{record} ({game}: {players})", record=name, game=game, players=people)
    return name


def _records(document: dict[str, Any], section: str, build: Any, errors: list[Message]) -> list[Any]:
    raw = document.get(section, [])
    if not isinstance(raw, list):
        errors.append(Message(_SECTIONS[section][0]))
        return []
    built, seen = [], set()
    for number, record in enumerate(raw, start=1):
        name = _record_name(section, number, record)
        try:
            item = build(record)
        except (RuleError, ValueError, TypeError, KeyError) as error:
            errors.append(Clause("{record}: {problem}", record=name, problem=error))
            continue
        if not is_safe_id(item.id):
            errors.append(Message("{record}: its id is not usable", record=name))
        elif item.id in seen:
            errors.append(Message("{record}: it appears twice in the file", record=name))
        else:
            seen.add(item.id)
            built.append(item)
    return built


def _newer(incoming: dict[str, Any], local: dict[str, Any]) -> bool:
    return (incoming["version"], incoming["updated"]) > (local["version"], local["updated"])


def _merge(local: dict[str, Any] | None, incoming: dict[str, Any]) -> str:
    """What importing `incoming` does to the local record: "unchanged" (identical), "kept" (the local one is
    newer), "updated" or "added". An update gets a version past the local one, so stale devices conflict."""
    if local == incoming:
        return "unchanged"
    if local is None:
        return "added"
    if not _newer(incoming, local):
        return "kept"
    incoming["version"] = max(incoming["version"], local["version"] + 1)
    return "updated"


def apply_import(store: Store, bundle: Bundle, progress: Progress | None = None) -> ImportReport:
    """Write a checked bundle into the store (the caller holds the lock); `progress(done, total)` is called
    after each match and saved game."""
    from scorekeeper.store.repo import MATCH_KIND, _match_tables

    report = ImportReport()
    rows = store._player_rows()
    known = {doc.get("id") for doc in rows.values()}
    next_key = max((int(k) for k in rows), default=0) + 1
    for player in bundle.players:
        if player.id in known:
            report.players_unchanged += 1
            continue
        rows[str(next_key)] = player.to_dict()
        next_key += 1
        report.players_added += 1
    if report.players_added:
        store._write(store.layout.players, PLAYERS_KIND, {PLAYERS_TABLE: rows})

    total, done = len(bundle.matches) + len(bundle.saved_games), 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    for match in bundle.matches:
        step()
        incoming = match.to_dict()
        local_match = store.get_match(match.id)
        outcome = _merge(local_match.to_dict() if local_match else None, incoming)
        field = f"matches_{outcome}"
        setattr(report, field, getattr(report, field) + 1)
        if outcome in ("unchanged", "kept"):
            continue
        stat = store._write(store.layout.match(match.id), MATCH_KIND, _match_tables(incoming))
        store._index.put(MatchSummary.of(Match.from_dict(incoming)), stat)

    for saved in bundle.saved_games:
        step()
        incoming = saved.to_dict()
        local_game = store.get_digital_game(saved.id)
        outcome = _merge(local_game.to_dict() if local_game else None, incoming)
        if outcome == "kept":  # the report counts no "kept" for saved games: the local one simply stays
            continue
        field = f"saved_games_{outcome}"
        setattr(report, field, getattr(report, field) + 1)
        if outcome == "unchanged":
            continue
        store._write(store.layout.saved_game(saved.id), "digital", {"game": {"1": incoming}})

    current = store.settings()
    changed = {k: v for k, v in bundle.settings.items() if current.get(k, object()) != v}
    if changed:
        store.update_settings(changed)
        report.settings_changed = len(changed)
    return report


class TransferMixin:
    """Export / import methods of the Store."""

    def export_json_text(self) -> str:
        return json.dumps(build_export(self), ensure_ascii=False, indent=1)  # type: ignore[arg-type]

    def export_json(self, path: str | os.PathLike[str]) -> Path:
        target = Path(path)
        atomic_write_bytes(target, self.export_json_text().encode("utf-8"))
        return target

    def import_json_text(self, content: str | bytes, progress: Progress | None = None) -> ImportReport:
        """Import an export (text or bytes). ImportFileError if anything in it is wrong; then nothing changes.
        `progress(done, total)` reports each record written (about 100 a second on a phone-class disk)."""
        bundle = parse_export(content)
        store: Store = self  # type: ignore[assignment]
        with store._lock.held():
            if bundle.matches or bundle.players:
                # An import can replace games: keep a snapshot of how things were, to go back to.
                store.snapshot()
            return apply_import(store, bundle, progress)

    def import_json(self, path: str | os.PathLike[str], progress: Progress | None = None) -> ImportReport:
        try:
            content = Path(path).read_bytes()
        except OSError as error:
            raise ImportFileError(
                "The file could not be opened ({reason}). Nothing was changed.", reason=error.strerror
            ) from None
        return self.import_json_text(content, progress)

    def export_csv_text(self) -> str:
        store: Store = self  # type: ignore[assignment]
        matches = sorted(store.iter_matches(), key=lambda m: (m.created, m.id))
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(CSV_COLUMNS)
        writer.writerows(csv_rows(matches))
        return buffer.getvalue()

    def export_csv(self, path: str | os.PathLike[str]) -> Path:
        """CSV with a byte-order mark, so spreadsheet programs read names with accents correctly."""
        target = Path(path)
        atomic_write_bytes(target, ("\ufeff" + self.export_csv_text()).encode("utf-8"))
        return target
