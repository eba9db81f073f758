"""Where the data lives: the data folder and the fixed layout of files inside it."""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "scorekeeper"
ENV_DATA = "SCOREKEEPER_DATA"
"""Explicit override (also what `main.py --data-dir` sets)."""
ENV_FLET_DATA = "FLET_APP_STORAGE_DATA"
"""Set by Flet when the app runs packaged (Android/iOS): the app's private, persistent folder."""

INDEX_BUCKETS = 32
"""The match index is split by match id into this many small files, so updating one match rewrites one
bucket of about 1/32 of the index instead of the whole list."""


def resolve_data_dir(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """The data folder: the explicit argument, else SCOREKEEPER_DATA, else Flet's packaged-app storage folder,
    else the platform's per-user data folder (e.g. ~/.local/share/scorekeeper)."""
    if data_dir is not None and str(data_dir) != "":
        return Path(data_dir).expanduser()
    for variable in (ENV_DATA, ENV_FLET_DATA):
        value = os.environ.get(variable)
        if value:
            base = Path(value).expanduser()
            # Flet's folder is shared with anything else the app stores: keep ours in a subfolder.
            return base if variable == ENV_DATA else base / APP_NAME
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


FOLDER_MODE = 0o700
"""The data folder is the owner's only (its files are 0600 too, see storage.py)."""


def make_private_dir(folder: Path) -> Path:
    """Create `folder` (and missing parents) if it is not there, the folder itself readable by its owner only
    (FOLDER_MODE); an existing folder is left as it is. Returns `folder`."""
    if not folder.is_dir():
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            folder.mkdir(mode=FOLDER_MODE)
        except FileExistsError:  # made meanwhile by another process
            return folder
        os.chmod(folder, FOLDER_MODE)  # whatever the umask
    return folder


@dataclass(frozen=True)
class Layout:
    """The files of one data folder."""

    root: Path

    @property
    def meta(self) -> Path:
        return self.root / "meta.json"

    @property
    def players(self) -> Path:
        return self.root / "players.json"

    @property
    def settings(self) -> Path:
        return self.root / "settings.json"

    @property
    def matches(self) -> Path:
        return self.root / "matches"

    @property
    def index(self) -> Path:
        return self.root / "index"

    @property
    def digital(self) -> Path:
        return self.root / "digital"

    @property
    def backups(self) -> Path:
        return self.root / "backups"

    @property
    def trash(self) -> Path:
        return self.root / "trash"

    @property
    def lock(self) -> Path:
        return self.root / ".lock"

    @property
    def staging(self) -> Path:
        """Files of an import being written, moved into place only once all of them are on disk."""
        return self.root / "import-staging"

    @property
    def journal(self) -> Path:
        """Present from the moment an import's staged files are complete until they are all in place."""
        return self.root / "import-journal.json"

    @property
    def legacy(self) -> Path:
        """Schema 1 kept everything in one TinyDB file."""
        return self.root / "scorekeeper.json"

    def folders(self) -> tuple[Path, ...]:
        return (self.matches, self.index, self.digital, self.backups, self.trash)

    def match(self, match_id: str) -> Path:
        return self.matches / f"{safe_id(match_id)}.json"

    def saved_game(self, game_id: str) -> Path:
        return self.digital / f"{safe_id(game_id)}.json"

    def bucket_of(self, match_id: str) -> int:
        return zlib.crc32(match_id.encode("utf-8")) % INDEX_BUCKETS

    def bucket(self, number: int) -> Path:
        return self.index / f"bucket-{number:02d}.json"


def safe_id(value: str) -> str:
    """An id usable as a file name: ids are made by the app (hex), but imported files may carry anything."""
    if not value or len(value) > 100 or not all(c.isalnum() or c in "-_" for c in value):
        raise ValueError(f"Not a usable id: {value!r}")
    return value


def is_safe_id(value: object) -> bool:
    """Whether `value` is an id usable as a file name (a string: a list of such letters is not)."""
    if not isinstance(value, str):
        return False
    try:
        safe_id(value)
    except ValueError:
        return False
    return True
