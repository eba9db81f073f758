"""A picture file made into a stored photo and its thumbnail: its pixels only, in bounded memory.

Rules (`scale`, `thumbnail_of`, `check_received`):
- nothing of the file but its pixels reaches the stored photo: no comment, no XMP, no text chunk, no ICC profile
  (a picture with one is converted to sRGB first, which is what a JPEG without a profile means), no EXIF; with
  "Keep the location" only the EXIF GPS position is written back;
- its EXIF orientation is applied to the pixels (a phone's portrait photo stays upright everywhere);
- an animated GIF or WebP gives its first frame (the others are never decoded);
- memory is bounded whatever the file: more than MAX_PIXELS, or a picture that would hold more than
  MAX_HELD_BYTES while it is made smaller (`held_bytes`: by its mode, its format and how it decodes), is refused
  before its pixels are decoded; a JPEG decodes straight at 1/2, 1/4 or 1/8 of its size (`draft`) and every
  picture is reduced to about twice the stored size before anything else is done with it;
- one picture is decoded and scaled at a time in this process (`SCALING`): a few uploads at once on a
  Raspberry Pi wait for each other instead of adding up.
What is not a picture, or over a limit, is refused with a PhotoError a player understands.
"""

from __future__ import annotations

import io
import threading
from typing import Any

from scorekeeper.games.messages import N_
from scorekeeper.store.errors import InputError

MAX_PHOTO_BYTES = 30_000_000
"""The largest picture accepted (a phone's full-size photo is 3-15 MB; a RAW file is not a photo here)."""
MAX_PIXELS = 100_000_000
"""More pixels than this is refused before decoding: a "decompression bomb" would take all the memory."""
MAX_HELD_BYTES = 200_000_000
"""The most memory a picture's pixels may take while it is decoded and made smaller (see `held_bytes`): a
48-megapixel JPEG, a 50-megapixel PNG, a 25-megapixel transparent PNG fit; a 100-megapixel one of zeros does
not (the audit's 9,990 x 9,990 RGBA PNG of 388 kB took 1.7 GB)."""
MAX_SIDE = 1600
"""The longest side of a stored photo, in pixels: sharp on a phone or a tablet, a few hundred kB."""
THUMB_SIDE = 240
"""The longest side of a thumbnail (shown at about 64-120 logical px)."""
QUALITIES = (82, 72, 62)
"""JPEG qualities tried in turn until the photo is at most TARGET_BYTES."""
TARGET_BYTES = 500_000
ORIENTATION_TAG = 0x0112
GPS_IFD = 0x8825
NOT_A_PICTURE = N_("This file is not a picture the app can read. Nothing was changed.")

SCALING = threading.Lock()
"""One picture decoded and scaled at a time in this process (see the module's rules)."""

# Bytes a pixel takes at full size, at most at once, from decoding to the reduced copy: Pillow keeps RGB in 4
# bytes; a transparent picture is premultiplied while reduced (a second copy); a palette, 1-bit, 16-bit or CMYK
# picture is converted before it can be reduced.
HELD_PER_PIXEL: dict[str, int] = {
    "1": 2,
    "L": 1,
    "P": 9,  # the palette, as RGBA, premultiplied
    "PA": 9,
    "LA": 8,
    "La": 4,
    "RGB": 4,
    "RGBX": 4,
    "RGBa": 4,
    "RGBA": 8,
    "I;16": 6,  # as 32-bit integers, then reduced
    "I;16L": 6,
    "I;16B": 6,
    "I;16N": 6,
    "I": 4,
    "F": 4,
    "CMYK": 8,
    "YCbCr": 8,
    "LAB": 8,
    "HSV": 8,
}
UNKNOWN_MODE_BYTES = 9
DECODED_ELSEWHERE: dict[str, int] = {"WEBP": 4, "AVIF": 4}
"""Formats whose library decodes the whole picture into a buffer of its own (4 bytes a pixel) first."""


class PhotoError(InputError):
    """A picture that cannot be kept as a photo; nothing was written."""


def _pillow() -> Any:
    """Pillow's Image module (imported when first needed: the app starts without it)."""
    try:
        from PIL import Image
    except ImportError:  # a build without Pillow (the static web build): say it, change nothing
        raise PhotoError("Photos cannot be added here (the app was built without image support).") from None
    return Image


def refuse_if_too_big(content: bytes, limit: int = MAX_PHOTO_BYTES) -> None:
    """PhotoError when the file is over `limit` bytes (MAX_PHOTO_BYTES)."""
    if len(content) > limit:
        raise PhotoError(
            "This photo is too big ({size} MB; at most {limit} MB). Nothing was changed.",
            size=f"{len(content) / 1_000_000:.1f}",
            limit=limit // 1_000_000,
        )


def refuse_if_too_many_pixels(width: int, height: int) -> None:
    """PhotoError when the picture has more than MAX_PIXELS."""
    if width * height > MAX_PIXELS:
        raise PhotoError(
            "This picture has too many pixels ({megapixels} million) to be kept as a photo. Nothing was changed.",
            megapixels=(width * height) // 1_000_000,
        )


def held_bytes(image: Any, full_size: tuple[int, int]) -> int:
    """The memory `image` (opened, its `draft` chosen, not decoded) holds at most while it is decoded and made
    smaller: its pixels at the size it decodes at, by mode (`HELD_PER_PIXEL`) and format (`DECODED_ELSEWHERE`);
    a progressive JPEG also keeps the coefficients of its whole picture (`full_size`) while it decodes."""
    width, height = image.size
    per_pixel = HELD_PER_PIXEL.get(image.mode, UNKNOWN_MODE_BYTES) + DECODED_ELSEWHERE.get(image.format, 0)
    held = width * height * per_pixel
    if image.format == "JPEG" and (image.info.get("progressive") or image.info.get("progression")):
        held += _coefficient_bytes(image, full_size)
    return held


def _coefficient_bytes(image: Any, full_size: tuple[int, int]) -> int:
    """What libjpeg keeps of a progressive JPEG until its last scan: 2 bytes a coefficient, one per pixel of
    each component at that component's sampling."""
    layers = getattr(image, "layer", None) or [("", 1, 1, 0)] * 3
    most_h = max(int(layer[1]) for layer in layers) or 1
    most_v = max(int(layer[2]) for layer in layers) or 1
    share = sum(int(layer[1]) * int(layer[2]) for layer in layers) / (most_h * most_v)
    return int(full_size[0] * full_size[1] * share * 2)


def refuse_if_too_much_memory(image: Any, full_size: tuple[int, int]) -> None:
    """PhotoError when the picture would hold more than MAX_HELD_BYTES while it is made smaller."""
    if held_bytes(image, full_size) > MAX_HELD_BYTES:
        raise PhotoError(
            "This picture needs too much memory ({megapixels} million pixels, {mode}) to be made into a photo "
            "here. Save it as a smaller JPEG and add that. Nothing was changed.",
            megapixels=max(1, (full_size[0] * full_size[1]) // 1_000_000),
            mode=str(image.mode),
        )


def _open(content: bytes, *, side: int = MAX_SIDE) -> Any:
    """The picture in `content`, its first frame decoded at no more than about twice `side` where the format
    allows; PhotoError when it is none or over a limit. The caller holds SCALING."""
    refuse_if_too_big(content)
    image_module = _pillow()
    try:
        image = image_module.open(io.BytesIO(content))
        full_size = image.size
        refuse_if_too_many_pixels(*full_size)
        # A JPEG decodes straight at 1/2, 1/4 or 1/8 of its size when that is still at least `side`: most of the
        # time and memory of a 12-megapixel photo is saved here. Other formats decode at their size.
        image.draft("RGB", (side, side))
        refuse_if_too_much_memory(image, full_size)
        image.load()  # the first frame only: an animation's others are never decoded
    except PhotoError:
        raise
    except (OSError, ValueError, SyntaxError, image_module.DecompressionBombError, MemoryError, EOFError):
        raise PhotoError(NOT_A_PICTURE) from None
    return image


def _reduced(image: Any, side: int) -> Any:
    """`image` made smaller by a whole factor, to between `side` and twice `side` on its longest side (one box
    average; the caller drops the full-size pixels after); modes that cannot be reduced are converted first."""
    if image.mode in ("P", "PA", "1", "CMYK", "YCbCr", "LAB", "HSV"):
        transparent = image.mode == "PA" or "transparency" in image.info
        image = image.convert("RGBA" if transparent else "RGB")
    elif image.mode.startswith("I;16"):
        image = image.convert("I")
    factor = -(-max(image.size) // (2 * side))  # at most twice `side` after, and still at least `side`
    return image.reduce(factor) if factor > 1 else image


def _colour(image: Any, profile: bytes | None) -> Any:
    """`image` in sRGB: converted from its ICC profile when it has one (the profile itself is not kept)."""
    if not profile or image.mode not in ("RGB", "RGBA", "L", "LA"):
        return image
    try:
        from PIL import ImageCms

        source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        target = ImageCms.createProfile("sRGB")
        mode = "RGBA" if image.mode in ("RGBA", "LA") else "RGB"
        return ImageCms.profileToProfile(image, source, target, outputMode=mode) or image
    except (
        Exception
    ):  # a broken or unusual profile: the pixels as they are (the profile is dropped all the same)
        return image


def _pixels(image: Any) -> Any:
    """A new RGB image holding only `image`'s pixels (no `info`: no comment, XMP, profile or EXIF travels), a
    transparent one on white (JPEG has no transparency), 16-bit and float values brought to 8 bits."""
    image_module = _pillow()
    if image.mode in ("I", "F"):
        image = image.point(lambda value: value / 256).convert("L")
    fresh = image_module.new("RGB", image.size, (255, 255, 255))
    if image.mode in ("RGBA", "LA", "RGBa", "La"):
        fresh.paste(image.convert("RGBA"), mask=image.convert("RGBA").getchannel("A"))
    else:
        fresh.paste(image if image.mode in ("RGB", "L") else image.convert("RGB"))
    return fresh


def _location(image: Any) -> bytes:
    """The picture's EXIF GPS position alone, as EXIF bytes to write back (empty when it has none)."""
    image_module = _pillow()
    gps = image.getexif().get_ifd(GPS_IFD)
    if not gps:
        return b""
    kept = image_module.Exif()
    kept[GPS_IFD] = dict(gps)
    return bytes(kept.tobytes())


def _jpeg(image: Any, *, side: int, exif: bytes = b"", target: int | None = None) -> bytes:
    """`image` scaled to at most `side` px on its longest side, as JPEG (smaller qualities until `target`); no
    metadata but `exif`."""
    image_module = _pillow()
    scaled = image.copy()
    scaled.thumbnail((side, side), image_module.Resampling.LANCZOS)
    scaled.info = {}
    data = b""
    for quality in QUALITIES if target else QUALITIES[1:2]:
        buffer = io.BytesIO()
        options: dict[str, Any] = {"quality": quality, "optimize": True}
        if exif:
            options["exif"] = exif
        scaled.save(buffer, "JPEG", **options)
        data = buffer.getvalue()
        if target is None or len(data) <= target:
            break
    return data


def _upright(image: Any, orientation: int) -> Any:
    """`image` turned as an EXIF orientation (1-8) says (the reduced copy has no EXIF of its own to read)."""
    transpose = _pillow().Transpose
    method = {
        2: transpose.FLIP_LEFT_RIGHT,
        3: transpose.ROTATE_180,
        4: transpose.FLIP_TOP_BOTTOM,
        5: transpose.TRANSPOSE,
        6: transpose.ROTATE_270,
        7: transpose.TRANSVERSE,
        8: transpose.ROTATE_90,
    }.get(orientation)
    return image if method is None else image.transpose(method)


def scale(content: bytes, *, keep_location: bool = False) -> tuple[bytes, bytes]:
    """The stored photo and its thumbnail made from a picture file (see the module's rules). PhotoError when
    `content` is no picture or over a limit."""
    with SCALING:
        image = _open(content)
        exif = image.getexif()
        orientation = int(exif.get(ORIENTATION_TAG, 1) or 1)
        location = _location(image) if keep_location else b""
        profile = image.info.get("icc_profile")
        small = _reduced(image, MAX_SIDE)
        del image, exif  # the full-size pixels go before the rest is made
        rgb = _pixels(_colour(_upright(small, orientation), profile))
        return _jpeg(rgb, side=MAX_SIDE, exif=location, target=TARGET_BYTES), _jpeg(rgb, side=THUMB_SIDE)


def thumbnail_of(photo: bytes) -> bytes:
    """The thumbnail of a stored photo (already upright, scaled and in sRGB)."""
    with SCALING:
        image = _open(photo, side=THUMB_SIDE)
        return _jpeg(_pixels(_reduced(image, THUMB_SIDE)), side=THUMB_SIDE)


JPEG_START = b"\xff\xd8\xff"
"""How every JPEG file begins (its start-of-image marker): every device stores its photos as JPEG."""


def pixels_here() -> bool:
    """Whether this Python can decode pictures (Pillow is installed; the static build has none)."""
    try:
        _pillow()
    except PhotoError:
        return False
    return True


def check_received_jpeg(content: bytes) -> None:
    """A photo from another device where no picture can be decoded (the static build): a JPEG within the size
    limit, kept as it came (the device that took it scaled it) and decoded by the browser when it is shown;
    PhotoError otherwise."""
    refuse_if_too_big(content)
    if not content.startswith(JPEG_START):
        raise PhotoError(NOT_A_PICTURE)


def check_received(content: bytes) -> None:
    """A photo file from another device (sync) must be a picture within the limits: PhotoError otherwise."""
    with SCALING:
        _open(content)
