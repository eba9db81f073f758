"""Photo memory benchmark (part of `bench store`): the peak memory of scaling the worst file of a small set of
pictures made to be expensive, each in a fresh Python process (`photo_peak_mb`: the largest peak resident size
of those processes, interpreter and Pillow included; `photo_peak_file` which file; `photo_peak_by_file` each
one's, with "refused" where the store refused it). Goal: under 300 MB (issue 50: a 388 kB PNG took 1.7 GB).

The set (`write_set`):
- `zeros_rgba.png`: 9,990 x 9,990 RGBA of zeros (under the pixel cap, 400 MB decoded; the audit's file);
- `sixteen_bit_rgba.png`: 6,000 x 4,000, 16 bits a channel with alpha (Pillow decodes it to 8-bit RGBA);
- `sixteen_bit_grey.png`: 5,000 x 5,000, 16-bit grey;
- `progressive.jpg`: 8,000 x 6,000 progressive JPEG (libjpeg keeps every coefficient until its last scan);
- `animated.gif`, `animated.webp`: 2,000 x 2,000, several frames.

`measure_photo_memory(root, checkout=...)` measures another checkout's `scale` the same way (the figures before a
change: `git worktree add /tmp/base HEAD~1`, then `checkout=Path("/tmp/base")`).
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

GOAL_MB = 300

# Runs in the fresh process: reads the file, scales it as `Store.photos.add` does, prints its peak RSS in kB
# (the kernel's high-water mark of this program's memory: `ru_maxrss` would keep the forking parent's across exec).
PROBE = """
import sys
from scorekeeper.store.photos import PhotoError, scale
content = open(sys.argv[1], "rb").read()
try:
    scale(content)
    outcome = "scaled"
except PhotoError:
    outcome = "refused"
status = open("/proc/self/status").read().split("VmHWM:")[1].split()[0]
print(outcome, status)
"""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def png_rows(width: int, height: int, depth: int, colour: int, rows: Iterator[bytes]) -> bytes:
    """A PNG written row by row (never whole in memory): `rows` gives each row's bytes without its filter."""
    squeeze = zlib.compressobj(9)
    parts = []
    for _ in range(height):
        parts.append(squeeze.compress(b"\x00" + next(rows)))
    parts.append(squeeze.flush())
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", b"".join(parts))
        + _chunk(b"IEND", b"")
    )


def _repeat(row: bytes) -> Iterator[bytes]:
    while True:
        yield row


def _ramp(width: int, channels: int) -> bytes:
    """One row of 16-bit samples rising in steps of 256 pixels (a file under the upload limit)."""
    return b"".join(struct.pack(">H", (x % 256) * 257) * channels for x in range(width))


def write_set(folder: Path) -> list[Path]:
    """Write the set of pictures (see the module docstring) into `folder`; their paths."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    made: dict[str, bytes] = {
        "zeros_rgba.png": png_rows(9990, 9990, 8, 6, _repeat(bytes(9990 * 4))),
        "sixteen_bit_rgba.png": png_rows(6000, 4000, 16, 6, _repeat(_ramp(6000, 4))),
        "sixteen_bit_grey.png": png_rows(5000, 5000, 16, 0, _repeat(_ramp(5000, 1))),
    }
    for name, content in made.items():
        (folder / name).write_bytes(content)
    size = (8000, 6000)
    noise = Image.effect_noise(size, 30)
    picture = Image.merge("RGB", [noise, Image.linear_gradient("L").resize(size), noise])
    picture.save(folder / "progressive.jpg", "JPEG", quality=90, progressive=True)
    del picture, noise
    frames = [
        Image.new("RGB", (2000, 2000), colour) for colour in ((200, 30, 30), (30, 200, 30), (30, 30, 200))
    ]
    frames[0].save(folder / "animated.gif", save_all=True, append_images=frames[1:], duration=100, loop=0)
    frames[0].save(folder / "animated.webp", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return sorted(folder.iterdir())


def peak_of(path: Path, checkout: Path) -> tuple[str, float]:
    """Scale `path` in a fresh process running `checkout`'s code: ("scaled" or "refused", peak RSS in MB)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)], cwd=checkout, capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0:
        return "failed", float("nan")
    outcome, kilobytes = done.stdout.split()[-2:]
    return outcome, round(int(kilobytes) / 1024, 1)


def measure_photo_memory(root: Path, checkout: Path | None = None) -> dict[str, Any]:
    """`photo_peak_mb` (the worst file's peak), `photo_peak_file` and each file's peak (see the docstring)."""
    checkout = checkout or Path(__file__).resolve().parents[2]
    by_file: dict[str, Any] = {}
    for path in write_set(root / "photo-set"):
        outcome, peak = peak_of(path, checkout)
        by_file[path.name] = peak if outcome == "scaled" else f"{peak} ({outcome})"
    peaks = {name: float(str(value).split()[0]) for name, value in by_file.items()}
    worst = max(peaks, key=lambda name: peaks[name])
    return {"photo_peak_mb": peaks[worst], "photo_peak_file": worst, "photo_peak_by_file": by_file}


if __name__ == "__main__":  # python -m scorekeeper.bench.photo_memory [checkout]: this set's figures alone
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        chosen = Path(sys.argv[1]) if len(sys.argv) > 1 else None
        print(json.dumps(measure_photo_memory(Path(folder), chosen), indent=1))
