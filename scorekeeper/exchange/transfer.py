"""Export and import: all data as one JSON file (round-trips exactly) and as CSV for spreadsheets. Functions
over a Store (`export_json_text(store)`, `import_json_text(store, content)`, ...) and, below them, over the
store's parts; the store itself knows no exchange format (its snapshots are its own document,
`scorekeeper.store.document`, which the JSON export writes as it is).

Import checks the whole file first (import_check.py); anything wrong raises ImportFileError naming the record
and the problem, before a single file is changed. Of the file's settings only a player's preferences come in
(`IMPORTED_SETTINGS`), never permissions. The writes then go through one all-or-nothing batch
(batch.py). Records are matched by id, so importing the same file twice adds nothing; when both sides have a
match, the newer one (higher edit version, then later `updated`) is kept.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from scorekeeper.exchange.import_check import Bundle, NewerRecord, parse_export
from scorekeeper.games.base import Message, joined
from scorekeeper.model.match import Match
from scorekeeper.model.match_data import csv_cells, csv_headers
from scorekeeper.store.batch import Batch
from scorekeeper.store.errors import ImportFileError
from scorekeeper.store.match_file import MATCH_KIND, match_tables
from scorekeeper.store.matches import Matches
from scorekeeper.store.people import (
    PLAYERS_KIND,
    PLAYERS_TABLE,
    SETTINGS_KIND,
    SETTINGS_TABLE,
    Players,
    Settings,
    name_key,
)
from scorekeeper.store.records import MatchSummary, Player, SavedGame
from scorekeeper.store.repo import Store
from scorekeeper.store.saved import KIND as SAVED_KIND
from scorekeeper.store.saved import SavedGames
from scorekeeper.store.saved import _tables as saved_tables
from scorekeeper.store.storage import atomic_write_bytes


class ImportPhase(Enum):
    """What an import is doing while it reports progress (the UI words it; the store has no UI text)."""

    WRITING = "writing"  # preparing the records one by one: `done` of `total`
    SAVING = "saving"  # all prepared: the all-or-nothing commit and the index write (seconds on a big file)


class Progress(Protocol):
    """`progress(done, total)` after each record prepared; `progress(total, total, ImportPhase.SAVING)` once
    before the commit."""

    def __call__(self, done: int, total: int, phase: ImportPhase = ImportPhase.WRITING, /) -> None: ...


ROUND_COLUMNS = ("round", "dealer", "seat", "player_id", "player", "points", "total")
CSV_COLUMNS = (*csv_headers(), *ROUND_COLUMNS, *csv_headers(after_round=True))
"""The match's own columns (declared with its fields, `match_data.CSV_FIELDS`), one round's for one seat, then
the match's columns added later (notes, place, minutes played), so an older export's columns keep their places.
The CSV carries only what it has columns for: options, fields of a newer version and games this version
cannot score are in the JSON export only."""


# ---------------------------------------------------------------------- export
def csv_rows(matches: list[Match]) -> list[list[Any]]:
    """One row per player per round: the round's points and the running total after it."""
    rows: list[list[Any]] = []
    for match in matches:
        tally = match.tally()
        running = [t - sum(s[seat] for s in tally.scores) for seat, t in enumerate(tally.totals)]
        stored = match.record()
        own, evening = csv_cells(stored), csv_cells(stored, after_round=True)
        for number, (scores, dealer) in enumerate(zip(tally.scores, tally.dealers, strict=True), start=1):
            for seat, points in enumerate(scores):
                running[seat] += points
                rows.append([_cell(value) for value in (
                    *own, number, match.names[dealer], seat + 1, match.players[seat], match.names[seat],
                    points, running[seat], *evening,
                )])  # fmt: skip
    return rows


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""OWASP's CSV-injection list (plus the full-width forms some spreadsheets also accept)."""


def _cell(value: object) -> object:
    """Keep spreadsheets from reading a text cell such as "=1+2", "-Bob" or TAB"=..." as a formula: such a
    cell gets a leading apostrophe. Numbers are written as they are (a negative score is a number)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


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


IMPORTED_SETTINGS = frozenset({"language", "theme", "play_pace", "play_hints"})
"""The only settings an import takes: a player's preferences. Never what decides rights or reaches other
machines (`guests_allowed`, `guest_pin`, owner/member/visitor devices, sync targets): a file from anywhere must
not open this device to every visitor (issue 40). Other keys in a file are left out silently."""


def imported_settings(incoming: dict[str, Any]) -> dict[str, Any]:
    """The settings of an import file this device takes (`IMPORTED_SETTINGS`)."""
    return {key: value for key, value in incoming.items() if key in IMPORTED_SETTINGS}


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


def apply_import(
    players: Players,
    settings: Settings,
    matches: Matches,
    saved: SavedGames,
    bundle: Bundle,
    progress: Progress | None = None,
) -> ImportReport:
    """Write a checked bundle into the store, all or nothing (the caller holds the lock). `progress(done,
    total)` is called after each match and saved game is prepared, then `progress(total, total, SAVING)` once
    before the commit and the index write, which take seconds on a big file."""
    report = ImportReport()
    rows = players.rows()
    clashes = _name_clashes(rows, bundle.players)
    if clashes:
        raise ImportFileError(
            "The file cannot be imported: {problems}. Rename or archive one of them first. Nothing was changed.",
            problems=joined(clashes[:5], "; "),
        )
    batch = Batch(matches.layout)
    table = _players_table(rows, bundle.players, report)
    if table is not None:
        batch.add(players.layout.players, PLAYERS_KIND, {PLAYERS_TABLE: table})
    total = len(bundle.matches) + len(bundle.newer_matches) + len(bundle.saved_games)
    step = _progress_step(total, progress)
    written = _staged_matches(batch, matches, bundle.matches, report, step)
    newer = _staged_newer(batch, matches, bundle.newer_matches, report, step)
    _stage_saved_games(batch, saved, bundle.saved_games, report, step)
    current = settings.settings()
    changed = {k: v for k, v in imported_settings(bundle.settings).items() if current.get(k, object()) != v}
    if changed:
        batch.add(settings.layout.settings, SETTINGS_KIND, {SETTINGS_TABLE: {"1": {**current, **changed}}})
        report.settings_changed = len(changed)
    if progress is not None:
        progress(total, total, ImportPhase.SAVING)
    batch.commit()
    # One write per index bucket for the whole import: written per 1,000 games, every bucket was rewritten each
    # time with all the games before it (quadratic; most of a 250 MB import's time).
    summaries = [*(MatchSummary.of(m) for m in written), *newer]
    matches.index.put_many([(summary, os.stat(matches.path(summary.id))) for summary in summaries])
    return report


def _name_clashes(rows: dict[str, Any], incoming: list[Player]) -> list[Message]:
    """Why the file's new players cannot come in: one message per new active player whose name an active
    player of this device (another id) already has. Checked before anything is staged."""
    known = {doc.get("id") for doc in rows.values()}
    active = {
        name_key(str(doc.get("name"))): doc.get("id") for doc in rows.values() if not doc.get("archived")
    }
    return [
        Message("there is already an active player called {name} on this device", name=player.name)
        for player in incoming
        if player.id not in known
        and not player.archived
        and active.get(name_key(player.name)) not in (None, player.id)
    ]


def _players_table(
    rows: dict[str, Any], incoming: list[Player], report: ImportReport
) -> dict[str, Any] | None:
    """The players table `rows` with the file's new players added (each under the next key), or None when all
    of them are here already (by id: those stay as they are); each is counted."""
    known = {doc.get("id") for doc in rows.values()}
    next_key = max((int(k) for k in rows), default=0) + 1
    for player in incoming:
        if player.id in known:
            report.players_unchanged += 1
            continue
        rows[str(next_key)] = player.to_dict()
        next_key += 1
        report.players_added += 1
    return rows if report.players_added else None


def _progress_step(total: int, progress: Progress | None) -> Callable[[], None]:
    """What to call after each record prepared: it tells `progress` how many of `total` are done."""
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    return step


def _staged_matches(
    batch: Batch, matches: Matches, incoming: list[Match], report: ImportReport, step: Callable[[], None]
) -> list[Match]:
    """The file's matches staged in `batch` (new, or newer than this device's copy), each with its version
    after the import; the others are counted as unchanged or kept."""
    written: list[Match] = []
    for match in incoming:
        # A shallow copy is all the file needs (Match.to_dict's deep copy was a third of an import's time).
        record = match.record()
        local, history = matches.stored(match.id)
        outcome = _merge(local, record)
        field = f"matches_{outcome}"
        setattr(report, field, getattr(report, field) + 1)
        if outcome not in ("unchanged", "kept"):
            batch.add(matches.path(match.id), MATCH_KIND, match_tables(record, history))
            written.append(match.at_version(record["version"]))
        step()
    return written


def _staged_newer(
    batch: Batch,
    matches: Matches,
    incoming: list[NewerRecord],
    report: ImportReport,
    step: Callable[[], None],
) -> list[MatchSummary]:
    """The file's matches made by a newer version, staged as they are (new, or newer than this device's copy:
    the same rule as other matches); their summaries for the index."""
    written: list[MatchSummary] = []
    for item in incoming:
        record = {"version": 0, "updated": item.data.get("created", ""), **item.data}
        local, history = matches.stored(item.data["id"])
        outcome = _merge(local, record)
        setattr(report, f"matches_{outcome}", getattr(report, f"matches_{outcome}") + 1)
        if outcome not in ("unchanged", "kept"):
            batch.add(matches.path(record["id"]), MATCH_KIND, match_tables(record, history))
            written.append(MatchSummary.of_newer(record["id"], record))
        step()
    return written


def _stage_saved_games(
    batch: Batch, saved: SavedGames, incoming: list[SavedGame], report: ImportReport, step: Callable[[], None]
) -> None:
    """Stage the file's saved games that are new or newer than this device's copy; count each outcome."""
    for game in incoming:
        record = game.to_dict()
        local_game = saved.get_digital_game(game.id)
        outcome = _merge(local_game.to_dict() if local_game else None, record)
        if outcome not in ("kept", "unchanged"):  # "kept": the local one simply stays, counted nowhere
            setattr(report, f"saved_games_{outcome}", getattr(report, f"saved_games_{outcome}") + 1)
            batch.add(saved.layout.saved_game(game.id), SAVED_KIND, saved_tables(record))
        elif outcome == "unchanged":
            report.saved_games_unchanged += 1
        step()


def export_json_text(store: Store) -> str:
    """Everything in the store as the JSON export (`Store.document`): read back exactly by `import_json_text`."""
    return json.dumps(store.document(), ensure_ascii=False, indent=1)


def export_json(store: Store, path: str | os.PathLike[str]) -> Path:
    target = Path(path)
    atomic_write_bytes(target, export_json_text(store).encode("utf-8"))
    return target


def export_csv_text(store: Store) -> str:
    """The matches as CSV, one line per seat and round (`CSV_COLUMNS`), oldest start first."""
    rows = sorted(store.matches.iterate(), key=lambda m: (m.created, m.id))
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    writer.writerows(csv_rows(rows))
    return buffer.getvalue()


def export_csv(store: Store, path: str | os.PathLike[str]) -> Path:
    """CSV with a byte-order mark, so spreadsheet programs read names with accents correctly."""
    target = Path(path)
    atomic_write_bytes(target, ("\ufeff" + export_csv_text(store)).encode("utf-8"))
    return target


def import_json_text(store: Store, content: str | bytes, progress: Progress | None = None) -> ImportReport:
    """Import an export (text or bytes), all or nothing: ImportFileError if anything in it is wrong,
    WriteError if it cannot be written; either way nothing changes. `progress(done, total)` reports each
    record prepared, then `progress(total, total, ImportPhase.SAVING)` the commit (see `Progress`)."""
    bundle = parse_export(content)
    # An import can replace games: a snapshot of how things were first, to go back to.
    with store.importing(snapshot_first=bool(bundle.matches or bundle.players)):
        return apply_import(store.players, store.settings_part, store.matches, store.saved, bundle, progress)


def import_json(store: Store, path: str | os.PathLike[str], progress: Progress | None = None) -> ImportReport:
    return import_json_text(store, read_import_file(path), progress)


def read_import_file(path: str | os.PathLike[str]) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise ImportFileError(
            "The file could not be opened ({reason}). Nothing was changed.", reason=error.strerror
        ) from None
