"""Photos scaled by the browser itself, for the static build, whose Python has no Pillow.

The rules are those of `store.photos.scale`, done with the browser's own image code in the page's worker: the
picture is decoded by `createImageBitmap` with its EXIF orientation applied (`imageOrientation: "from-image"`),
drawn on white (JPEG has no transparency) on an `OffscreenCanvas` at most MAX_SIDE px on its longest side, and
encoded as JPEG at the qualities of QUALITIES in turn until it is at most TARGET_BYTES; the thumbnail is drawn the
same way at THUMB_SIDE. A canvas writes no EXIF, so camera, time and location are always left out: the switch
that keeps the location is not offered in this build (`KEEPS_LOCATION`). MAX_PIXELS is checked once the browser
has decoded the picture (it cannot be asked before; the browser guards its own memory while decoding).

Only `scaled` and `_jpeg` touch the browser (`js`, `pyodide.ffi`); `fitted` is plain Python, tested on the host.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.store.photos import (
    MAX_SIDE,
    NOT_A_PICTURE,
    QUALITIES,
    TARGET_BYTES,
    THUMB_SIDE,
    PhotoError,
    refuse_if_too_big,
    refuse_if_too_many_pixels,
)

KEEPS_LOCATION = not IN_BROWSER
"""Can a photo keep its GPS position? Only where Pillow copies the EXIF (a canvas has none to write)."""


def fitted(width: int, height: int, side: int) -> tuple[int, int]:
    """The size of a `width` x `height` picture scaled to at most `side` px on its longest side, its shape kept;
    a smaller picture keeps its size (never enlarged)."""
    longest = max(width, height)
    if longest <= side:
        return width, height
    return max(1, round(width * side / longest)), max(1, round(height * side / longest))


async def scaled(content: bytes) -> tuple[bytes, bytes]:
    """The stored photo and its thumbnail (JPEG) made by the browser from a picture file. PhotoError when
    `content` is no picture the browser can read, or too big."""
    refuse_if_too_big(content)
    from js import Blob, Object, Uint8Array, createImageBitmap  # type: ignore[import-not-found]  # browser only
    from pyodide.ffi import JsException, to_js  # type: ignore[import-not-found]

    def options(values: dict[str, Any]) -> Any:
        return to_js(values, dict_converter=Object.fromEntries)

    try:
        blob = Blob.new(to_js([Uint8Array.new(to_js(content))]))
        bitmap = await createImageBitmap(blob, options({"imageOrientation": "from-image"}))
    except JsException:
        raise PhotoError(NOT_A_PICTURE) from None
    try:
        refuse_if_too_many_pixels(bitmap.width, bitmap.height)
        photo = await _jpeg(bitmap, MAX_SIDE, QUALITIES, TARGET_BYTES, options)
        thumb = await _jpeg(bitmap, THUMB_SIDE, QUALITIES[1:2], None, options)
    finally:
        bitmap.close()
    return photo, thumb


async def _jpeg(
    bitmap: Any, side: int, qualities: tuple[int, ...], target: int | None, options: Any
) -> bytes:
    from js import OffscreenCanvas  # browser only

    width, height = fitted(bitmap.width, bitmap.height, side)
    canvas = OffscreenCanvas.new(width, height)
    drawing = canvas.getContext("2d")
    drawing.fillStyle = "#ffffff"
    drawing.fillRect(0, 0, width, height)
    drawing.imageSmoothingQuality = "high"
    drawing.drawImage(bitmap, 0, 0, width, height)
    data = b""
    for quality in qualities:
        blob = await canvas.convertToBlob(options({"type": "image/jpeg", "quality": quality / 100}))
        data = (await blob.arrayBuffer()).to_bytes()
        if target is None or len(data) <= target:
            break
    return data
