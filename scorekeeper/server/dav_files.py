"""WsgiDAV's filesystem provider with whole-file uploads: what the hub (dav_hub.py) serves and what the sync tests
and `bench sync` run on loopback (bench/dav_server.py).

WsgiDAV's stock filesystem provider writes a PUT straight into the file (a reader could see half of it) and makes
its ETag from the modification time in whole seconds (two writes of one size in one second share a tag). The
provider here stores an upload aside (in `uploads`, on the same file system) and renames it over the file, with
the ETag in nanoseconds: what Nextcloud, Apache mod_dav and nginx do, and what the sync target relies on.
A folder target's temporary files (`.<name>.tmp-...`, sync/folder.py: the hub's own device writes the same
folder) are never listed. Everything else is WsgiDAV as shipped.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from wsgidav.dav_error import HTTP_FORBIDDEN, DAVError
from wsgidav.dav_provider import DAVNonCollection
from wsgidav.fs_dav_provider import FileResource, FilesystemProvider, FolderResource

from scorekeeper.sync.folder import TMP_MARK


class AtomicFile(FileResource):
    """A file whose PUT goes to a file in the server's upload folder first and replaces the real one at once."""

    def __init__(self, path: str, environ: dict, file_path: str) -> None:
        DAVNonCollection.__init__(self, path, environ)
        self._file_path = file_path
        self.name = os.path.basename(file_path)
        # A file being created has no stat yet (the stock provider makes an empty file first: visible to readers)
        self.file_stat = (
            os.stat(file_path) if os.path.exists(file_path) else os.stat_result((0o100644,) + (0,) * 9)
        )
        self._upload = ""
        self._reading: Any = None

    def _opened(self) -> Any:
        """The file as it is now, opened once: its length, tag and bytes all come from this one version (the
        stock resource takes the length from a stat made earlier and opens the path later, so a file replaced
        in between is sent cut to the old length)."""
        if self._reading is None:
            self._reading = open(self._file_path, "rb")  # noqa: SIM115  # WsgiDAV closes what get_content gives
            self.file_stat = os.fstat(self._reading.fileno())
        return self._reading

    def __del__(self) -> None:
        # a PROPFIND, or a PUT's If-Match, asks for the tag only: the file opened for it is never handed over
        reading = getattr(self, "_reading", None)  # (None too when __init__ did not get that far)
        if reading is not None:
            reading.close()

    def get_content_length(self) -> int:
        self._opened()
        return int(self.file_stat.st_size)

    def get_content(self) -> Any:
        reading, self._reading = self._opened(), None
        return reading

    def get_etag(self) -> str:
        stat = os.fstat(self._opened().fileno())
        return f"{stat.st_ino:x}-{stat.st_mtime_ns:x}-{stat.st_size:x}"

    def begin_write(self, *, content_type: str | None = None) -> Any:
        if self.provider.readonly:
            raise DAVError(HTTP_FORBIDDEN)
        uploads = self.provider.uploads
        self._upload = str(uploads / f"{secrets.token_hex(8)}")
        # the owner's only, as every file of the data folder (WsgiDAV closes it, then calls end_write)
        return os.fdopen(os.open(self._upload, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb")

    def end_write(self, *, with_errors: bool) -> None:
        if with_errors:
            Path(self._upload).unlink(missing_ok=True)
        else:
            os.replace(self._upload, self._file_path)
        if self._reading is not None:  # what was read before the write (its tag, for If-Match) is gone now
            self._reading.close()
            self._reading = None


class AtomicFolder(FolderResource):
    def create_empty_resource(self, name: str) -> AtomicFile:
        if self.provider.readonly:
            raise DAVError(HTTP_FORBIDDEN)
        path = f"{self.path.rstrip('/')}/{name}"
        return AtomicFile(path, self.environ, self.provider._loc_to_file_path(path, self.environ))

    def get_member_names(self) -> list[str]:
        return [
            name
            for name in super().get_member_names()
            if not (name.startswith(".") and TMP_MARK in name)  # a folder target's file on its way
        ]


class AtomicFilesystemProvider(FilesystemProvider):
    """WsgiDAV's filesystem provider with whole-file uploads (see the module's docstring)."""

    def __init__(self, root: Path, uploads: Path, readonly: bool = False) -> None:
        super().__init__(str(root), readonly=readonly, fs_opts={})
        self.uploads = uploads

    def get_resource_inst(self, path: str, environ: dict) -> Any:
        resource = super().get_resource_inst(path, environ)
        if type(resource) is FileResource:
            return AtomicFile(path, environ, resource._file_path)
        if type(resource) is FolderResource:
            resource.__class__ = AtomicFolder
        return resource
