"""Sync credentials: kept out of the data folder, in the desktop keyring or a file only the user may read."""

from __future__ import annotations

import concurrent.futures
import functools
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


# ---------------------------------------------------------------- the phone's secure store


class LoopPage:
    """A page as the vault sees it: its platform, whether it is the web app, and `run_task` onto the session's
    event loop (a real asyncio loop on a thread of its own, as in a running app)."""

    def __init__(self, platform: str, web: bool = False) -> None:
        import asyncio
        import threading

        self.platform, self.web = platform, web
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run_task(self, handler, *args):
        import asyncio

        return asyncio.run_coroutine_threadsafe(handler(*args), self.loop)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class FakeSecureStorage:
    """flet_secure_storage.SecureStorage's async get/set as the phone answers them (a dict here)."""

    def __init__(self, fail: bool = False) -> None:
        self.kept: dict[str, str] = {}
        self.fail = fail

    async def get(self, key: str) -> str | None:
        if self.fail:
            raise RuntimeError("Keystore unavailable")
        return self.kept.get(key)

    async def set(self, key: str, value: str) -> None:
        self.kept[key] = value


@pytest.fixture
def phone_page() -> LoopPage:
    page = LoopPage("android")
    yield page
    page.close()


def off_the_main_thread(test: Callable[..., None]) -> Callable[..., None]:
    """Run the test on a thread of its own. The vault waits for the secure store's first read only where no event
    loop runs (a screen's loop must never wait on itself), and a browser test earlier in the run leaves
    Playwright's event loop running on the main thread: there the vault would take the test for a screen."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(test, *args, **kwargs).result()

    return run


@off_the_main_thread
def test_a_packaged_phone_app_keeps_the_password_in_the_secure_store(
    config: Path, phone_page: LoopPage
) -> None:
    from scorekeeper.sync.phone_vault import KEY

    storage = FakeSecureStorage()
    vault = credentials.use_page(phone_page, lambda: storage)
    assert vault is not None and vault.where == "secure_storage" and credentials.vault() is vault
    vault.set("https://cloud.example/dav", "anna", "s3cret")
    assert "s3cret" in storage.kept[KEY]
    assert (
        not (config / credentials.FILE_NAME).exists()
        or "s3cret" not in (config / credentials.FILE_NAME).read_text()
    )
    credentials.reset()  # the next start reads it back from the phone's store
    again = credentials.use_page(phone_page, lambda: storage)
    assert again is not None and again.get("https://cloud.example/dav", "anna") == "s3cret"
    again.delete("https://cloud.example/dav", "anna")
    assert again.get("https://cloud.example/dav", "anna") is None and "s3cret" not in storage.kept[KEY]


@pytest.mark.parametrize(
    ("platform", "web"),
    [("android", True), ("ios", True), ("linux", False), ("windows", False), ("macos", False), (None, False)],
)
def test_the_secure_store_only_for_the_packaged_phone_app(
    config: Path, platform: str | None, web: bool
) -> None:
    """The web app opened in a phone's browser keeps the password on the host that serves it, not in the
    browser; desktops use keyring (or the file)."""
    made: list[object] = []
    page = type("Page", (), {"platform": platform, "web": web})()
    assert credentials.use_page(page, lambda: made.append(1)) is None
    assert made == [] and credentials.vault().where in ("keyring", "file")


@off_the_main_thread
def test_ios_uses_the_secure_store_too(config: Path) -> None:
    page = LoopPage("ios")
    try:
        vault = credentials.use_page(page, FakeSecureStorage)
        assert vault is not None and vault.where == "secure_storage"
        assert vault.get("https://cloud.example/dav", "anna") is None  # (its first read is done)
    finally:
        page.close()


@off_the_main_thread
def test_without_the_package_the_file_keeps_it(config: Path, phone_page: LoopPage) -> None:
    assert credentials.use_page(phone_page, lambda: None) is None
    credentials.vault().set("https://cloud.example/dav", "anna", "s3cret")
    assert credentials.vault().where == "file"
    assert stat.S_IMODE((config / credentials.FILE_NAME).stat().st_mode) == 0o600


@off_the_main_thread
def test_a_failing_secure_store_falls_back_to_the_file(config: Path, phone_page: LoopPage) -> None:
    vault = credentials.use_page(phone_page, lambda: FakeSecureStorage(fail=True))
    assert vault is not None
    vault.set("https://cloud.example/dav", "anna", "s3cret")
    assert FileVault().get("https://cloud.example/dav", "anna") == "s3cret"
    assert vault.get("https://cloud.example/dav", "anna") == "s3cret"
    assert not vault.usable


@off_the_main_thread
def test_a_password_an_older_version_kept_in_the_file_is_found_and_moved(
    config: Path, phone_page: LoopPage
) -> None:
    FileVault().set("https://cloud.example/dav", "anna", "old")
    storage = FakeSecureStorage()
    vault = credentials.use_page(phone_page, lambda: storage)
    assert vault is not None and vault.get("https://cloud.example/dav", "anna") == "old"
    vault.set("https://cloud.example/dav", "anna", "new")
    assert FileVault().get("https://cloud.example/dav", "anna") is None  # one place: the secure store
    assert vault.get("https://cloud.example/dav", "anna") == "new"


@off_the_main_thread
def test_the_screen_never_waits_on_its_own_event_loop(config: Path, phone_page: LoopPage) -> None:
    """A screen asks on the session's event loop: it gets an answer without waiting for that loop (no hang),
    and what it sets reaches the secure store."""
    import asyncio

    from scorekeeper.sync.phone_vault import KEY

    storage = FakeSecureStorage()
    vault = credentials.use_page(phone_page, lambda: storage)
    assert vault is not None
    vault.get("https://x", "y")  # the first read is done (the sync's thread waits for it like this)

    async def on_the_loop() -> str | None:
        vault.set("https://cloud.example/dav", "anna", "s3cret")
        return vault.get("https://cloud.example/dav", "anna")

    assert asyncio.run_coroutine_threadsafe(on_the_loop(), phone_page.loop).result(5) == "s3cret"
    asyncio.run_coroutine_threadsafe(asyncio.sleep(0.01), phone_page.loop).result(5)  # the write ran
    assert "s3cret" in storage.kept[KEY]


def test_flet_secure_storage_imports_and_is_a_flet_service() -> None:
    from flet.controls.services.service import Service
    from flet_secure_storage import SecureStorage

    assert issubclass(SecureStorage, Service)
    for method in ("get", "set", "remove"):
        assert callable(getattr(SecureStorage, method))
