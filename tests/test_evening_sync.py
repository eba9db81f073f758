"""Sync and the evening around a game: notes, place and the clock merge as one value each (`match_data.VALUE`),
so a note written on one device and a round entered on another meet without a conflict; the same field changed
differently on two devices is a conflict that names it, in the player's language."""

from __future__ import annotations

from pathlib import Path

import pytest
from sync_support import Devices, change, game
from test_store_support import rz_round

from scorekeeper.model import evening, playtime
from scorekeeper.model.match_data import differing
from scorekeeper.model.stamps import now_iso
from scorekeeper.ui.i18n import Translator


@pytest.fixture
def devices(tmp_path: Path):
    made = Devices(tmp_path, count=2)
    yield made
    made.close()


def test_a_note_on_one_device_and_the_first_round_on_the_other_merge_without_conflict(
    devices: Devices,
) -> None:
    a, b = devices.stores
    match = game(a, rounds=0)
    devices.everyone_twice()
    change(a, match.id, lambda m: m.with_round(rz_round()))  # starts the clock on a
    change(b, match.id, evening.with_notes("Cleo's first game"))
    change(b, match.id, evening.with_place("Club"))
    devices.everyone_twice()
    for store in devices.stores:
        merged = store.get_match(match.id)
        assert merged is not None
        assert (len(merged.rounds), merged.notes, merged.place) == (1, "Cleo's first game", "Club")
        assert playtime.running(merged.clock)
        assert store.conflicts() == []
        assert store.places() == ["Club"]


def test_a_pause_on_one_device_and_a_round_on_the_other_merge_too(devices: Devices) -> None:
    a, b = devices.stores
    match = game(a, rounds=0)
    match = change(a, match.id, lambda m: m.with_round(rz_round()))
    devices.everyone_twice()
    paused = change(b, match.id, evening.paused(now_iso())).clock
    change(a, match.id, lambda m: m.with_round(rz_round()))
    devices.everyone_twice()
    for store in devices.stores:
        merged = store.get_match(match.id)
        assert merged is not None and len(merged.rounds) == 2 and merged.clock == paused
        assert store.conflicts() == []


def test_notes_written_differently_on_two_devices_are_a_conflict_that_names_them(devices: Devices) -> None:
    a, b = devices.stores
    match = game(a, rounds=1)
    devices.everyone_twice()
    change(a, match.id, evening.with_notes("Anna won"))
    change(b, match.id, evening.with_notes("Ben won"))
    devices.everyone_twice()
    (conflict,) = a.conflicts()
    here = a.get_match(match.id)
    assert here is not None
    named = differing(here.record(), conflict.other.match.record())
    assert named == ["notes"]
    assert [Translator("de")(name) for name in named] == ["Notizen"]
    assert [Translator(lang)(name) for lang in ("nl", "fr") for name in ("place", "time played")] == [
        "plaats",
        "speeltijd",
        "lieu",
        "temps de jeu",
    ]
