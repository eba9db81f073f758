"""Sync credentials: kept out of the data folder, in the desktop keyring or a file only the user may read."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from scorekeeper.sync import credentials
from scorekeeper.sync.credentials import FileVault, KeyringVault


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv(credentials.ENV_CONFIG, str(folder))
    credentials.reset()
    yield folder
    credentials.reset()


def test_file_vault_keeps_a_password_per_server_and_user(config: Path) -> None:
    vault = FileVault()
    vault.set("https://cloud.example/dav", "anna", "s3cret")
    vault.set("https://cloud.example/dav", "ben", "other")
    again = FileVault()  # a new process reads what the last one wrote
    assert again.get("https://cloud.example/dav", "anna") == "s3cret"
    assert again.get("https://cloud.example/dav", "ben") == "other"
    assert again.get("https://nas.local/dav", "anna") is None
    again.delete("https://cloud.example/dav", "anna")
    assert FileVault().get("https://cloud.example/dav", "anna") is None


def test_the_file_is_readable_by_its_owner_only(config: Path) -> None:
    FileVault().set("https://cloud.example/dav", "anna", "s3cret")
    path = config / credentials.FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(config.stat().st_mode) == 0o700


def test_a_file_made_readable_by_others_is_narrowed_before_reading(config: Path) -> None:
    FileVault().set("https://cloud.example/dav", "anna", "s3cret")
    path = config / credentials.FILE_NAME
    os.chmod(path, 0o644)
    assert FileVault().get("https://cloud.example/dav", "anna") == "s3cret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_damaged_file_asks_for_the_password_again(config: Path) -> None:
    config.mkdir(mode=0o700)
    (config / credentials.FILE_NAME).write_text("{not json")
    os.chmod(config / credentials.FILE_NAME, 0o600)
    vault = FileVault()
    assert vault.get("https://cloud.example/dav", "anna") is None
    vault.set("https://cloud.example/dav", "anna", "new")
    assert FileVault().get("https://cloud.example/dav", "anna") == "new"


def test_never_in_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without SCOREKEEPER_CONFIG: the user's config folder, or beside (not in) a packaged app's data folder."""
    from scorekeeper.store.paths import resolve_data_dir

    monkeypatch.delenv(credentials.ENV_CONFIG, raising=False)
    monkeypatch.delenv("SCOREKEEPER_DATA", raising=False)
    monkeypatch.setenv("FLET_APP_STORAGE_DATA", str(tmp_path))
    data = resolve_data_dir(None)
    assert not credentials.config_dir().is_relative_to(data)
    monkeypatch.delenv("FLET_APP_STORAGE_DATA")
    assert not credentials.config_dir().is_relative_to(resolve_data_dir(None))


class MemoryBackend:
    priority = 5

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, name: str) -> str | None:
        return self.kept.get((service, name))

    def set_password(self, service: str, name: str, password: str) -> None:
        self.kept[(service, name)] = password

    def delete_password(self, service: str, name: str) -> None:
        del self.kept[(service, name)]


def test_keyring_vault_uses_the_service_name_and_forgets_quietly() -> None:
    backend = MemoryBackend()
    vault = KeyringVault(backend)
    vault.set("https://cloud.example/dav", "anna", "s3cret")
    assert backend.kept == {(credentials.SERVICE, "anna@https://cloud.example/dav"): "s3cret"}
    assert vault.get("https://cloud.example/dav", "anna") == "s3cret"
    vault.delete("https://cloud.example/dav", "anna")
    vault.delete("https://cloud.example/dav", "anna")  # nothing left: no error
    assert vault.get("https://cloud.example/dav", "anna") is None


def test_placeholder_keyrings_are_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """keyring's "fail" backend (a headless Linux: no Secret Service) keeps nothing: the file is used there."""
    import keyring
    from keyring.backends import fail

    monkeypatch.setattr(keyring, "get_keyring", fail.Keyring)
    assert credentials.real_keyring() is None
    monkeypatch.setattr(keyring, "get_keyring", MemoryBackend)
    assert isinstance(credentials.real_keyring(), MemoryBackend)


def test_the_vault_is_the_file_where_the_config_folder_is_named(config: Path) -> None:
    assert credentials.vault().where == "file"
