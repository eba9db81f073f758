"""Photo benchmark (part of `bench store`): a 4 MB photo as a phone takes it (12 megapixels, 4032 x 3024, a JPEG
of about 4 MB with EXIF and a GPS position) scaled and stored by `Store.photos.add`, as the upload's last step
does on the host: decoded, turned upright, scaled to 1600 px, EXIF stripped, written with its thumbnail
(atomically, fsynced). `photo_4mb_s` is the median of PHOTO_RUNS adds in seconds; `photo_4mb_stored_kb` what
one photo then takes on disk (photo and thumbnail). The picture is noise over a gradient: JPEG compresses it
less than a real photo, so the file is as big as a real one and its decoding at least as slow.
"""

from __future__ import annotations

import io
import random
import statistics
import time
from pathlib import Path
from typing import Any

from scorekeeper.store import Store

PHOTO_RUNS = 5
PHOTO_BYTES = 4_000_000
SIZE = (4032, 3024)


def phone_photo(target: int = PHOTO_BYTES, seed: int = 7) -> bytes:
    """A JPEG of at least `target` bytes (a few % more) at a phone camera's size, with EXIF and a GPS position."""
    from PIL import Image

    rng = random.Random(seed)
    width, height = SIZE
    noise = Image.effect_noise(SIZE, 40)
    gradient = Image.linear_gradient("L").resize(SIZE)
    image = Image.merge("RGB", [noise, gradient, noise.transpose(Image.Transpose.FLIP_LEFT_RIGHT)])
    image.paste((rng.randrange(256), 90, 40), (0, 0, width // 3, height // 3))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    exif[0x0112] = 6  # held upright: the photo must be turned
    exif.get_ifd(0x8825).update({1: "N", 2: (52.0, 22.0, 0.0), 3: "E", 4: (4.0, 53.0, 0.0)})
    best = b""
    for quality in range(50, 100, 3):  # the first quality that makes it at least `target`
        out = io.BytesIO()
        image.save(out, "JPEG", quality=quality, exif=exif.tobytes())
        best = out.getvalue()
        if len(best) >= target:
            break
    return best


def measure_photo(root: Path, runs: int = PHOTO_RUNS) -> dict[str, Any]:
    """`photo_4mb_s` (median seconds per add), the picture's size and what one photo takes on disk."""
    picture = phone_photo()
    times = []
    with Store.open(root / "photos") as store:
        for _ in range(runs):
            start = time.perf_counter()
            photo_id = store.photos.add(picture)
            times.append(time.perf_counter() - start)
        stored = store.photos.path(photo_id).stat().st_size + store.photos.thumb_path(photo_id).stat().st_size
    return {
        "photo_4mb_s": round(statistics.median(times), 3),
        "photo_4mb_input_mb": round(len(picture) / 1_000_000, 2),
        "photo_4mb_stored_kb": round(stored / 1000),
    }
