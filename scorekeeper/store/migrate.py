"""Bringing a data folder up to the current schema (see schema.py for what each version looks like)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from scorekeeper.games.base import Message, Plural, RuleError, joined
from scorekeeper.model.match import Match
from scorekeeper.model.stamps import now_iso
from scorekeeper.store.errors import CorruptFileError, NewerFileError, NewerVersionError
from scorekeeper.store.paths import Layout, is_safe_id
from scorekeeper.store.recovery import load, set_aside
from scorekeeper.store.schema import CURRENT_SCHEMA, Tables, legacy_match, legacy_player, legacy_settings
from scorekeeper.store.storage import read_envelope, read_json, write_envelope

META_KIND = META_TABLE = "meta"
MIGRATED_SUFFIX = ".v1-migrated"


def _newer_message(version: int) -> Message:
    return Message(
        "This data was saved by a newer version of Scorekeeper (data version {version}; this version reads up "
        "to {current}). Update the app to open it. Nothing has been changed.",
        version=version,
        current=CURRENT_SCHEMA,
    )


def _validate_meta(tables: Tables) -> None:
    version = tables[META_TABLE]["1"]["layout"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError("no valid data version")


def refuse_newer(layout: Layout) -> None:
    """Raise NewerVersionError if the folder was written by a newer app. Reads only; touches nothing."""
    try:
        tables = read_envelope(layout.meta, META_KIND)
    except NewerFileError as error:
        raise NewerVersionError(_newer_message(error.schema)) from None
    except (CorruptFileError, OSError):
        return  # recovered under the lock later
    if tables:
        try:
            version = tables[META_TABLE]["1"]["layout"]
        except (KeyError, TypeError):
            return
        if isinstance(version, int) and version > CURRENT_SCHEMA:
            raise NewerVersionError(_newer_message(version))


def _write_meta(layout: Layout, version: int, created: str | None = None) -> None:
    doc = {"layout": version, "created": created or now_iso(), "updated": now_iso()}
    write_envelope(layout.meta, META_KIND, {META_TABLE: {"1": doc}})


def bring_up_to_date(layout: Layout) -> list[Message]:
    """Create, recover or migrate the folder's version record and data; messages for the player."""
    messages: list[Message] = []
    try:
        loaded = load(
            layout.meta,
            META_KIND,
            what=lambda _t: Message("the data version record"),
            validate=_validate_meta,
        )
    except NewerFileError as error:
        raise NewerVersionError(_newer_message(error.schema)) from None
    if loaded.message:
        recreated = [] if loaded.tables else [Message("It has been recreated.")]
        messages.append(joined([loaded.message, *recreated], " "))
    if loaded.tables is None:
        if layout.legacy.exists():
            messages += migrate_1_to_2(layout)
            return messages
        has_data = layout.matches.is_dir() and any(layout.matches.iterdir())
        if has_data and not loaded.message:
            messages.append(Message("The data version record was missing and has been recreated."))
        _write_meta(layout, CURRENT_SCHEMA)
        return messages
    doc = loaded.tables[META_TABLE]["1"]
    version = doc["layout"]
    if version > CURRENT_SCHEMA:
        raise NewerVersionError(_newer_message(version))
    while version < CURRENT_SCHEMA:
        messages += FOLDER_MIGRATIONS[version](layout)
        version += 1
        _write_meta(layout, version, doc.get("created"))
    if layout.legacy.exists():  # a migration cut short after its version record was written
        os.replace(layout.legacy, layout.legacy.with_name(layout.legacy.name + MIGRATED_SUFFIX))
    return messages


def migrate_1_to_2(layout: Layout) -> list[Message]:
    """Split the single schema-1 file into the sharded layout. The old file is kept (renamed), and the
    version record is written last, so a migration cut short simply runs again."""
    try:
        document = read_json(layout.legacy)
        if not isinstance(document, dict):
            raise CorruptFileError(layout.legacy, Message("the file has the wrong shape"))
    except CorruptFileError as error:
        aside = set_aside(layout.legacy)
        _write_meta(layout, CURRENT_SCHEMA)
        return [
            Message(
                "The old data file could not be read ({reason}); it was kept as {file}.",
                reason=error.reason,
                file=aside.name,
            )
        ]
    for folder in layout.folders():
        folder.mkdir(exist_ok=True)

    def table(name: str) -> dict[str, Any]:
        value = document.get(name)
        return value if isinstance(value, dict) else {}

    players = [
        legacy_player(doc)
        for doc in table("players").values()
        if isinstance(doc, dict) and is_safe_id(doc.get("id"))
    ]
    moved, failed = 0, 0
    for doc in table("matches").values():
        try:
            match = Match.from_dict(legacy_match(doc))
        except (RuleError, TypeError, AttributeError):
            failed += 1
            continue
        if not is_safe_id(match.id):
            failed += 1
            continue
        write_envelope(layout.match(match.id), "match", {"match": {"1": match.to_dict()}}, keep_backup=False)
        moved += 1
    write_envelope(
        layout.players,
        "players",
        {"players": {str(i + 1): p for i, p in enumerate(players)}},
        keep_backup=False,
    )
    write_envelope(layout.settings, "settings", {"settings": {"1": legacy_settings(table("settings"))}})
    _write_meta(layout, CURRENT_SCHEMA)
    kept = layout.legacy.with_name(layout.legacy.name + MIGRATED_SUFFIX)
    os.replace(layout.legacy, kept)
    sentences = [
        Message(
            "Your data was moved to the new storage format ({games}, {players}). The old file was kept as {file}.",
            games=Plural("{n} game", "{n} games", moved),
            players=Plural("{n} player", "{n} players", len(players)),
            file=kept.name,
        )
    ]
    if failed:
        sentences.append(
            Plural(
                "{n} game in it could not be read and stays only in that file.",
                "{n} games in it could not be read and stay only in that file.",
                failed,
            )
        )
    return [joined(sentences, " ")]


FOLDER_MIGRATIONS: dict[int, Callable[[Layout], list[Message]]] = {1: migrate_1_to_2}
"""from-version -> migration to the next version."""
