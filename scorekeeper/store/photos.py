"""Photos of a match: each a file of its own in the data folder, scaled down once when it is added.

```
photos/<id>.jpg         the photo, its longest side at most MAX_SIDE px, a JPEG of a few hundred kB
photos/<id>.thumb.jpg   a small copy for lists (made again from the photo whenever it is missing)
trash/photos/           the photos of deleted matches
```

A match refers to its photos by id (`Match.photos`, changed through `Store.change_match`, so undo and redo
work). A photo file is never changed once written: removing a photo from a match only drops its id (the file
stays, so undo brings it back), and sync sends each file once (sync/photos.py).

Rules of `add`:
- the picture is made into the photo and its thumbnail by store/photo_pixels.py: from its pixels alone (no
  comment, XMP, text chunk, ICC profile or EXIF; the GPS position only when the player keeps the location), its
  EXIF orientation applied, in bounded memory, one picture at a time; what is not an image, or is over a limit,
  is refused with a message a player understands and nothing is written;
- both files are written atomically (temporary file, fsync, rename: store/storage.py).

Deleting a match moves its photos to `trash/photos/` with it (`to_trash`, called by `Matches.delete`); a photo
asked for (`image`, `thumbnail`) that is only in the trash is moved back first, so a match that comes back (a
sync conflict kept as both, a restore) has its photos again.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import Any

import scorekeeper.store.photo_pixels as photo_pixels
from scorekeeper.store.paths import Layout, is_safe_id, make_private_dir
from scorekeeper.store.photo_pixels import (
    MAX_HELD_BYTES,
    MAX_PHOTO_BYTES,
    MAX_PIXELS,
    MAX_SIDE,
    NOT_A_PICTURE,
    QUALITIES,
    TARGET_BYTES,
    THUMB_SIDE,
    PhotoError,
    check_received,
    refuse_if_too_many_pixels,
    scale,
    thumbnail_of,
)
from scorekeeper.store.storage import atomic_write_bytes, fsync_dir

__all__ = [
    "MAX_HELD_BYTES",
    "MAX_PHOTO_BYTES",
    "MAX_PIXELS",
    "MAX_SIDE",
    "NOT_A_PICTURE",
    "QUALITIES",
    "TARGET_BYTES",
    "THUMB_SIDE",
    "PhotoError",
    "Photos",
    "check_received",
    "new_photo_id",
    "photo_ids_of",
    "refuse_if_too_big",
    "refuse_if_too_many_pixels",
    "scale",
    "thumbnail_of",
]

PHOTO_SUFFIX = ".jpg"
THUMB_SUFFIX = ".thumb.jpg"


def new_photo_id() -> str:
    return secrets.token_hex(8)


def refuse_if_too_big(content: bytes) -> None:
    """PhotoError when the file is over MAX_PHOTO_BYTES (this module's: a test lowers it here)."""
    photo_pixels.refuse_if_too_big(content, MAX_PHOTO_BYTES)


class Photos:
    """The photo files of one data folder (`Store.photos`). Writes take the folder's write lock like every
    other change; reads take none (a photo file, once written, never changes)."""

    def __init__(self, files: Any) -> None:
        self.files = files
        self.layout: Layout = files.layout

    # ------------------------------------------------------------------ paths
    def folder(self) -> Path:
        return self.layout.root / "photos"

    def trash(self) -> Path:
        return self.layout.trash / "photos"

    def path(self, photo_id: str) -> Path:
        return self.folder() / f"{_safe(photo_id)}{PHOTO_SUFFIX}"

    def thumb_path(self, photo_id: str) -> Path:
        return self.folder() / f"{_safe(photo_id)}{THUMB_SUFFIX}"

    # ------------------------------------------------------------------ adding
    def add(self, content: bytes, *, keep_location: bool = False) -> str:
        """Scale the picture in `content` and store it with its thumbnail; returns the new photo's id. Nothing
        is written when it is refused (PhotoError) or the folder cannot be written (WriteError). The caller
        puts the id on the match (`Store.change_match`)."""
        self.files.refuse_if_read_only()
        refuse_if_too_big(content)
        photo, thumb = scale(content, keep_location=keep_location)
        photo_id = new_photo_id()
        self._write(photo_id, photo, thumb)
        return photo_id

    def add_scaled(self, photo: bytes, thumb: bytes) -> str:
        """Store a photo scaled where Pillow is missing (the browser's canvas: scorekeeper/store/canvas_photos.py),
        both files written as they are; returns the new photo's id. PhotoError, nothing written, when either is
        no JPEG file or the photo is over MAX_PHOTO_BYTES."""
        self.files.refuse_if_read_only()
        photo_pixels.check_received_jpeg(photo)
        if not thumb.startswith(photo_pixels.JPEG_START):
            raise PhotoError(NOT_A_PICTURE)
        photo_id = new_photo_id()
        self._write(photo_id, photo, thumb)
        return photo_id

    def put(self, photo_id: str, photo: bytes) -> None:
        """Store a photo another device made (sync): checked to be a picture, written as it is (it was scaled
        where it was added), its thumbnail made here. PhotoError when it is none. Where no picture can be
        decoded (the static build: no Pillow), a JPEG within the limits is kept and is its own thumbnail (the
        browser scales it when it is shown): a phone gets every photo of the fleet, not only its own."""
        if not photo_pixels.pixels_here():
            photo_pixels.check_received_jpeg(photo)
            self._write(photo_id, photo, photo)
            return
        check_received(photo)
        self._write(photo_id, photo, thumbnail_of(photo))

    def _write(self, photo_id: str, photo: bytes, thumb: bytes) -> None:
        with self.files.lock.held():
            self.files.refuse_if_read_only()
            make_private_dir(self.folder())
            # The photo first: a thumbnail without its photo would be shown and then fail to open.
            atomic_write_bytes(self.path(photo_id), photo)
            atomic_write_bytes(self.thumb_path(photo_id), thumb)

    # ------------------------------------------------------------------ reading
    def has(self, photo_id: str) -> bool:
        """Is the photo here (also in the trash: it is brought back when asked for)?"""
        if not is_safe_id(photo_id):
            return False
        return self.path(photo_id).is_file() or (self.trash() / f"{photo_id}{PHOTO_SUFFIX}").is_file()

    def ids(self) -> list[str]:
        """The ids of the photos in the folder (not the trash), sorted."""
        try:
            names = os.listdir(self.folder())
        except OSError:
            return []
        return sorted(
            name[: -len(PHOTO_SUFFIX)]
            for name in names
            if name.endswith(PHOTO_SUFFIX) and not name.endswith(THUMB_SUFFIX) and not name.startswith(".")
        )

    def image(self, photo_id: str) -> bytes | None:
        """The photo's bytes, or None when this device does not have it (yet: sync brings it)."""
        if not is_safe_id(photo_id):
            return None
        self._from_trash(photo_id)
        try:
            return self.path(photo_id).read_bytes()
        except OSError:
            return None

    def thumbnail(self, photo_id: str) -> bytes | None:
        """The photo's thumbnail (made again from the photo when it is missing), or None without the photo."""
        if not is_safe_id(photo_id):
            return None
        self._from_trash(photo_id)
        try:
            return self.thumb_path(photo_id).read_bytes()
        except OSError:
            pass
        photo = self.image(photo_id)
        if photo is None:
            return None
        try:
            thumb = thumbnail_of(photo)
        except PhotoError:
            return None
        with contextlib.suppress(Exception), self.files.lock.held():  # a read-only folder still shows it
            atomic_write_bytes(self.thumb_path(photo_id), thumb)
        return thumb

    # ------------------------------------------------------------------ trash
    def to_trash(self, photo_ids: list[str]) -> None:
        """Move these photos (and thumbnails) to `trash/photos/`; the caller holds the write lock (a match
        being deleted). A photo another match still shows is brought back when that match asks for it."""
        moved = False
        for photo_id in photo_ids:
            if not is_safe_id(photo_id):
                continue
            for name in (f"{photo_id}{PHOTO_SUFFIX}", f"{photo_id}{THUMB_SUFFIX}"):
                source = self.folder() / name
                if source.is_file():
                    make_private_dir(self.trash())
                    os.replace(source, self.trash() / name)
                    moved = True
        if moved:
            fsync_dir(self.trash())
            fsync_dir(self.folder())

    def restore(self, photo_ids: list[str]) -> None:
        """Bring these photos back from the trash (those there)."""
        for photo_id in photo_ids:
            if is_safe_id(photo_id):
                self._from_trash(photo_id)

    def _from_trash(self, photo_id: str) -> None:
        trashed = self.trash() / f"{photo_id}{PHOTO_SUFFIX}"
        if self.path(photo_id).is_file() or not trashed.is_file():
            return
        with contextlib.suppress(OSError), self.files.lock.held():
            make_private_dir(self.folder())
            for name in (f"{photo_id}{PHOTO_SUFFIX}", f"{photo_id}{THUMB_SUFFIX}"):
                with contextlib.suppress(FileNotFoundError):
                    os.replace(self.trash() / name, self.folder() / name)
            fsync_dir(self.folder())


def _safe(photo_id: str) -> str:
    if not is_safe_id(photo_id):
        raise ValueError(f"Not a usable photo id: {photo_id!r}")
    return photo_id


def photo_ids_of(data: Any) -> list[str]:
    """The photo ids a stored match record names (none when the field is missing or not a list)."""
    photos = data.get("photos") if isinstance(data, dict) else None
    return [p for p in photos if is_safe_id(p)] if isinstance(photos, list) else []
