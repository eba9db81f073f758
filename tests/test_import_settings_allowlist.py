"""An import takes only a player's preferences from a file's settings (issue 40, finding 7): a file carrying
`"settings": {"guests_allowed": true, "guest_pin": ""}` was taken ("Imported: 0 new games") and every anonymous
visitor then had export, import, backups and the data path."""

from __future__ import annotations

import json
from pathlib import Path

from scorekeeper.exchange.transfer import IMPORTED_SETTINGS, export_json_text, import_json_text
from scorekeeper.server import permissions
from scorekeeper.store import Store

HOSTILE = {
    permissions.GUESTS_ALLOWED: True,
    permissions.GUEST_PIN: "",
    "sync_target": "https://attacker.example/dav",
    "owner_devices": "x",
}


def export_with(tmp_path: Path, settings: dict[str, object]) -> str:
    source = Store.open(tmp_path / "source")
    source.add_player("Anna")
    document = json.loads(export_json_text(source))
    document["settings"] = settings
    return json.dumps(document)


def test_an_import_changes_no_permission_setting(tmp_path: Path) -> None:
    target = Store.open(tmp_path / "target")
    target.update_settings({permissions.GUESTS_ALLOWED: False, permissions.GUEST_PIN: "482913"})
    report = import_json_text(target, export_with(tmp_path, HOSTILE))
    saved = target.settings()
    assert saved[permissions.GUESTS_ALLOWED] is False
    assert saved[permissions.GUEST_PIN] == "482913"
    assert "sync_target" not in saved and "owner_devices" not in saved
    assert report.settings_changed == 0
    assert not permissions.allowed(permissions.EXPORT, guest=True, settings=saved)


def test_an_import_into_a_fresh_store_opens_nothing_to_guests(tmp_path: Path) -> None:
    target = Store.open(tmp_path / "target")
    import_json_text(target, export_with(tmp_path, HOSTILE))
    saved = target.settings()
    assert permissions.GUESTS_ALLOWED not in saved and permissions.GUEST_PIN not in saved
    assert not permissions.allowed(permissions.IMPORT, guest=True, settings=saved)


def test_language_theme_and_play_preferences_still_come_in(tmp_path: Path) -> None:
    target = Store.open(tmp_path / "target")
    preferences = {"language": "nl", "theme": "dark", "play_pace": "fast", "play_hints": False}
    report = import_json_text(target, export_with(tmp_path, {**preferences, **HOSTILE}))
    saved = target.settings()
    assert {key: saved[key] for key in preferences} == preferences
    assert report.settings_changed == len(preferences)
    assert set(preferences) <= IMPORTED_SETTINGS
