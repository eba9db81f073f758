"""Import files sent by a browser over HTTP, not over the app's websocket.

A file picked with `with_data=True` travels to the server inside one websocket frame; a frame over the server's
limit closes the socket without a word (the player sees the app reconnect, nothing imported). So in a browser
the settings screen picks the file without its data and sends it with Flet's own upload: `FilePicker.upload`
PUTs the file to a signed URL from `page.get_upload_url`, Flet's `/upload` route streams it to disk, and the
client reports progress as `on_upload` events. Then the app imports the file from disk and deletes it.

What this module adds to Flet's upload, so that it opens no hole on a home network:
- the folder is private (mode 0700, inside the data folder), emptied when the server starts, and not served:
  Flet only writes to it, the static files come from the web client and `assets/`;
- Flet signs URLs with a secret (uploads refuse to work without one): a fresh random key per server start;
- a URL is handed out only to a session that may import (the host; see `permissions`), for one file of the
  size the browser announced, with a short expiry, and it works once (`UploadGate` refuses any other PUT);
- the size is checked before anything is sent (`too_big`), again from the request's length, and the bytes that
  actually arrive are counted: past the announced size (a chunked request announces no length) the upload stops,
  is answered 413 and nothing of it is kept.

`MAX_IMPORT_BYTES` of the store is the most the app imports by any route; SCOREKEEPER_MAX_IMPORT_MB lowers it
(tests use that to show the refusal without sending hundreds of megabytes).
"""

from __future__ import annotations

import logging
import math
import os
import secrets
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

log = logging.getLogger(__name__)

FOLDER_NAME = "import-uploads"  # inside the data folder: same disk as the data, not a RAM-backed /tmp
ENDPOINT = "/upload"  # Flet's default upload route
EXPIRES_S = 120  # the browser reads the whole file before its PUT starts: a phone needs a while for 200 MB
STALE_S = 3600  # a file left behind (a tab closed mid-upload) is removed after this long
LIMIT_ENV = "SCOREKEEPER_MAX_IMPORT_MB"
WEBSOCKET_FRAME_BYTES = 16 * 1024 * 1024  # uvicorn's default frame limit (what `flet run --web` serves with)
WEBSOCKET_IMPORT_BYTES = WEBSOCKET_FRAME_BYTES - 1024 * 1024  # a file inside a frame, with room for the rest


def max_import_bytes() -> int:
    """The largest file the app imports: the store's limit, or less when SCOREKEEPER_MAX_IMPORT_MB says so."""
    from scorekeeper.exchange.import_check import MAX_IMPORT_BYTES

    raw = os.environ.get(LIMIT_ENV, "").strip()
    try:
        lowered = int(float(raw) * 1_000_000) if raw else None
    except ValueError:
        lowered = None
    return min(MAX_IMPORT_BYTES, lowered) if lowered is not None and lowered > 0 else MAX_IMPORT_BYTES


def megabytes(size: int, *, up: bool) -> float:
    """A size in MB (10^6 bytes, as file managers show them) to one decimal; rounded up for a file's size and
    down for a limit, so that a file just over the limit never reads as equal to it."""
    tenths = size / 100_000
    return (math.ceil(tenths) if up else math.floor(tenths)) / 10


def too_big(size: int | None, limit: int | None = None) -> tuple[float, float] | None:
    """(file size, limit) in MB when a file of `size` bytes is over `limit` (default: the import limit); None
    when it fits (or the size is unknown: the store checks it again)."""
    limit = max_import_bytes() if limit is None else limit
    if size is None or size <= limit:
        return None
    return megabytes(size, up=True), megabytes(limit, up=False)


@dataclass
class Slot:
    """One announced upload: the file's name in the folder, its size, until when its URL may start."""

    name: str
    size: int
    expires: float
    claimed: bool = False


class Uploads:
    """The upload folder, the signing secret and the pending uploads of this server process."""

    def __init__(self, folder: Path, secret: str | None = None) -> None:
        self.folder = folder
        self.secret = secret or secrets.token_hex(32)
        self._slots: dict[str, Slot] = {}
        self._lock = threading.Lock()

    def prepare(self) -> None:
        """Create the folder (owner only) and drop whatever an earlier run left in it."""
        from scorekeeper.store.paths import make_private_dir

        if self.folder.exists():
            shutil.rmtree(self.folder, ignore_errors=True)
        make_private_dir(self.folder.parent)  # the data folder, when the server is the first to make it
        self.folder.mkdir(parents=True, mode=0o700, exist_ok=True)
        os.chmod(self.folder, 0o700)

    def issue(self, size: int) -> Slot:
        """A new upload of `size` bytes under a random name (never the browser's file name)."""
        self.sweep()
        slot = Slot(f"{secrets.token_urlsafe(18)}.json", size, time.monotonic() + EXPIRES_S)
        with self._lock:
            self._slots[slot.name] = slot
        return slot

    def claim(self, name: str, length: int | None) -> int:
        """May a PUT for `name` with `length` bytes start? An HTTP status: 200 yes (the URL is used up), 403 not
        issued, expired or used, 413 more bytes than announced or allowed."""
        with self._lock:
            slot = self._slots.get(name)
            if slot is None or slot.claimed or time.monotonic() > slot.expires:
                return 403
            if length is not None and (length > slot.size or length > max_import_bytes()):
                return 413
            slot.claimed = True
            return 200

    def allowance(self, name: str) -> int:
        """The most bytes the upload `name` may bring: its announced size, at most the import limit (0 when it
        is not pending)."""
        with self._lock:
            slot = self._slots.get(name)
        return min(slot.size, max_import_bytes()) if slot is not None else 0

    def drop(self, name: str) -> None:
        """Forget the upload `name` and delete whatever of it reached the folder."""
        with self._lock:
            slot = self._slots.get(name)
        if slot is not None:
            self.discard(slot)

    def path(self, slot: Slot) -> Path:
        return self.folder / slot.name

    def discard(self, slot: Slot) -> None:
        """Forget the upload and delete its file (done or failed, whole or partial)."""
        with self._lock:
            self._slots.pop(slot.name, None)
        try:
            self.path(slot).unlink(missing_ok=True)
        except OSError as error:
            log.warning("could not delete the uploaded file %s: %s", slot.name, error)

    def sweep(self) -> None:
        """Remove uploads nobody finished: unclaimed past their expiry, or files older than STALE_S."""
        now = time.monotonic()
        with self._lock:
            for name in [n for n, s in self._slots.items() if not s.claimed and now > s.expires]:
                del self._slots[name]
        try:
            entries = list(self.folder.iterdir())
        except OSError:
            return
        for entry in entries:
            try:
                if time.time() - entry.stat().st_mtime > STALE_S:
                    entry.unlink()
            except OSError:
                pass


_active: Uploads | None = None


def configure(data_dir: str | os.PathLike[str] | None) -> Uploads:
    """Set up uploads for this server process: `<data folder>/import-uploads`, emptied, with a fresh secret."""
    global _active
    from scorekeeper.store.paths import resolve_data_dir

    uploads = Uploads(resolve_data_dir(data_dir) / FOLDER_NAME)
    uploads.prepare()
    _active = uploads
    return uploads


def active() -> Uploads | None:
    """This process's uploads, or None (desktop window, `flet run`, tests without a server)."""
    return _active


def use(uploads: Uploads | None) -> None:
    """Set (or clear) this process's uploads directly (tests)."""
    global _active
    _active = uploads


class UploadGate:
    """ASGI middleware in front of Flet's upload route: a PUT must name a pending upload (see `Uploads.claim`)
    and come from the app's own origin; anything else is refused before Flet writes a byte."""

    def __init__(
        self, app: Any, uploads: Uploads, origin_allowed: Callable[[str | None, str | None], bool]
    ) -> None:
        self.app = app
        self.uploads = uploads
        self.origin_allowed = origin_allowed

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("path") != ENDPOINT:
            await self.app(scope, receive, send)
            return
        headers = {
            key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", ())
        }
        name = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("f") or [""])[0]
        try:
            length = int(headers["content-length"]) if "content-length" in headers else None
        except ValueError:
            length = None
        if scope.get("method") != "PUT":
            status = 405
        elif not self.origin_allowed(headers.get("origin"), headers.get("host")):
            status = 403
        else:
            status = self.uploads.claim(name, length)
        if status == 200:
            if await self.held_to_size(scope, receive, send, name):
                return
            status = 413
        log.warning("refused an upload (%s) for %r", status, name)
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

    async def held_to_size(self, scope: Any, receive: Any, send: Any, name: str) -> bool:
        """Pass the upload to Flet while the bytes actually received stay within the slot's allowance; False
        (Flet's call stopped, its answer dropped, the partial file deleted) once they go past it. The length a
        request announces is checked before (`claim`), but a chunked request announces none."""
        allowance = self.uploads.allowance(name)
        received = 0
        over = False

        async def counted() -> Any:
            nonlocal received, over
            message = await receive()
            if message.get("type") == "http.request":
                received += len(message.get("body", b""))
                if received > allowance:
                    over = True
                    raise _TooMuch
            return message

        async def answer(message: Any) -> None:
            if not over:
                await send(message)

        try:
            await self.app(scope, counted, answer)
        except Exception:
            if not over:
                raise
        if over:
            self.uploads.drop(name)
        return not over


class _TooMuch(Exception):
    """An upload went past its allowance (raised into Flet's upload route, which then stops writing)."""
