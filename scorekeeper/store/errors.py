"""What can go wrong with stored data, each as a message for the player (never a Python repr)."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.games.base import TranslatableError


class StoreError(TranslatableError):
    """Base of every store error; `str(error)` is a sentence the app can show as it is (in English), and
    `error.translated(t)` says it in the player's language (like RuleError). Deliberately *not* a RuleError:
    `except RuleError` around a rules check must not swallow a version conflict or a failed write."""


class InputError(StoreError):
    """Something the player typed cannot be stored (an empty name, a name already in use, ...)."""


class ConflictError(StoreError):
    """An edit was made on an older copy of a match: another device saved it in between."""


class ImportFileError(StoreError, ValueError):
    """An import file is not usable; nothing was changed."""


class NewerVersionError(StoreError):
    """The data was written by a newer version of the app; it is left exactly as it is."""


class WriteError(StoreError):
    """The operating system refused a write (disk full, read-only folder); the stored data is unchanged."""


class CorruptFileError(Exception):
    """Internal: a file that cannot be read as what it should be. `reason` says why, in plain words (a
    Message, so that the recovery message built from it can be translated)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path.name}: {reason}")
        self.path = path
        self.reason = reason


class NewerFileError(Exception):
    """Internal: a single file written by a newer schema than this app knows."""

    def __init__(self, path: Path, schema: int) -> None:
        super().__init__(f"{path.name}: schema {schema}")
        self.path = path
        self.schema = schema
