"""`python main.py [--data-dir DIR] sync [--to FOLDER_OR_URL]`: one sync from the command line (a host
without a screen), with a progress bar; exit 0 with what it brought, else non-zero with the reason in one
line. A WebDAV user and password come from SCOREKEEPER_SYNC_USER and SCOREKEEPER_SYNC_PASSWORD (else the
password the app keeps for the target set in Settings)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, TextIO

from scorekeeper.store import Store, StoreError
from scorekeeper.sync import credentials
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.target import SyncError, Target
from scorekeeper.sync.targets import target_from

ENV_USER = "SCOREKEEPER_SYNC_USER"
ENV_PASSWORD = "SCOREKEEPER_SYNC_PASSWORD"
SETTING = "sync_target"
"""Settings key (agreed with the Settings screen): {"address": str, "user": str}."""


def make_target(address: str, user: str | None, password: str | None) -> Target:
    """A WebDAV server for an http(s) address, else a folder."""
    return target_from(address, user, password)


def close_target(target: Any) -> None:
    """Close a WebDAV target's connections (a folder has nothing to close)."""
    close = getattr(target, "close", None)
    if callable(close):
        close()


def stored_password(address: str, user: str) -> str | None:
    try:
        return credentials.vault().get(address, user)
    except Exception:  # no keyring and no readable file: the environment is the way then
        return None


def _progress(err: TextIO) -> tuple[Any, Any]:
    from tqdm import tqdm

    bar = tqdm(total=0, desc="sync", unit="file", file=err, leave=False, disable=not err.isatty())

    def tell(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    return bar, tell


def run(data_dir: Path | None, to: str | None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    try:
        store = Store.open(data_dir)
    except StoreError as error:
        print(f"sync failed: {error}", file=err)
        return 2
    with store:
        setting = store.get_setting(SETTING) or {}
        address = to or (setting.get("address") if isinstance(setting, dict) else None)
        if not address:
            print("sync failed: no target; give --to FOLDER_OR_URL or choose one in Settings", file=err)
            return 2
        user = os.environ.get(ENV_USER) or (
            str(setting.get("user") or "") if isinstance(setting, dict) else ""
        )
        password = os.environ.get(ENV_PASSWORD) or (stored_password(address, user) if user else None)
        bar, tell = _progress(err)
        target: Any = None
        try:
            target = make_target(address, user or None, password)
            report = sync_once(store, target, tell)
        except (SyncError, StoreError) as error:
            print(f"sync failed: {error}", file=err)
            return 1
        finally:
            bar.close()
            close_target(target)
    for message in report.skipped:
        print(f"skipped: {message}", file=err)
    for message in report.notes:
        print(message, file=out)
    print(f"sync finished: {report.summary}", file=out)
    return 0
