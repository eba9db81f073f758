"""Schema versions of the stored data and how older data is brought up to date.

- Schema 1: everything in one TinyDB file `scorekeeper.json` (TinyDB's default layout, tables `players`,
  `matches`, `settings`); players had only id, name and colour. Every write rewrote the whole history.
- Schema 2 (current): one envelope file per match and per saved digital game, a match index split into
  buckets, `players.json`, `settings.json`, `meta.json`; players carry `archived` and `created`.

Two kinds of steps exist: *folder* migrations (layout changes, in `migrate.py`, keyed by the version they
start from) and *envelope* upgrades (a single file of an older schema, e.g. restored from an old backup, keyed
the same way). A newer schema than CURRENT_SCHEMA is never touched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

CURRENT_SCHEMA = 2

KINDS = ("meta", "players", "settings", "match", "index", "digital")

Tables = dict[str, dict[str, Any]]

ENVELOPE_UPGRADES: dict[int, Callable[[str, Tables], Tables]] = {}
"""from-version -> step to the next version, for one file's tables. Schema 1 had no envelopes, so the first
entry will be 2 (when schema 3 comes)."""


def upgrade_envelope(kind: str, schema: int, tables: Tables) -> Tables:
    """Bring one file's tables from `schema` up to CURRENT_SCHEMA, one step at a time."""
    for version in range(schema, CURRENT_SCHEMA):
        tables = ENVELOPE_UPGRADES[version](kind, tables)
    return tables


def legacy_player(record: dict[str, Any]) -> dict[str, Any]:
    """A schema-1 player record in schema-2 shape: nobody was archived yet."""
    return {
        "id": str(record.get("id", "")),
        "name": str(record.get("name", "")),
        "colour": str(record.get("colour", "")),
        "archived": False,
        "created": str(record.get("created", "")),
    }


def legacy_match(record: dict[str, Any]) -> dict[str, Any]:
    """A schema-1 match record in schema-2 shape: schema 1 had no edit versions (every match starts at 1)."""
    data = dict(record)
    data.setdefault("version", 1)
    return data


def legacy_settings(table: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 kept settings as one document; schema 2 as key -> value too, under one document."""
    merged: dict[str, Any] = {}
    for doc in table.values():
        if isinstance(doc, dict):
            merged.update(doc)
    return merged
