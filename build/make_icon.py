"""Draw the app icon, assets/icon.png (1024 x 1024), with the standard library only.

Run from the project root: `python build/make_icon.py`. The picture: three fanned playing cards in the
colours of the three games (Racko red, Ruck Zuck blue, Rage amber) on a dark teal rounded square; the front
card is a score pad with a tick. Shapes are drawn as signed-distance fields, so their edges are anti-aliased
without any imaging library.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

SIZE = 1024
Color = tuple[float, float, float]
Shape = Callable[[float, float], float]  # signed distance in pixels: < 0 inside


def rounded_box(
    cx: float, cy: float, half_w: float, half_h: float, radius: float, angle: float = 0.0
) -> Shape:
    """A rectangle with rounded corners centred at (cx, cy), turned by `angle` degrees clockwise."""
    cos_a, sin_a = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    def distance(x: float, y: float) -> float:
        dx, dy = x - cx, y - cy
        px, py = dx * cos_a + dy * sin_a, -dx * sin_a + dy * cos_a
        qx, qy = abs(px) - half_w + radius, abs(py) - half_h + radius
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
        return outside + min(max(qx, qy), 0.0) - radius

    return distance


def capsule(x1: float, y1: float, x2: float, y2: float, radius: float) -> Shape:
    """A thick line with round ends from (x1, y1) to (x2, y2)."""
    vx, vy = x2 - x1, y2 - y1
    length2 = vx * vx + vy * vy

    def distance(x: float, y: float) -> float:
        t = max(0.0, min(1.0, ((x - x1) * vx + (y - y1) * vy) / length2))
        return math.hypot(x - x1 - t * vx, y - y1 - t * vy) - radius

    return distance


def hex_color(value: str) -> Color:
    return (int(value[1:3], 16) / 255, int(value[3:5], 16) / 255, int(value[5:7], 16) / 255)


class Canvas:
    """An RGBA picture that shapes are painted onto, back to front."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.rgba = [[0.0, 0.0, 0.0, 0.0] for _ in range(size * size)]

    def paint(
        self, shape: Shape, color: Color | Callable[[float, float], Color], bounds: tuple[int, ...]
    ) -> None:
        """Paint `shape` (anti-aliased over one pixel) within the pixel box `bounds` = (x0, y0, x1, y1)."""
        x0, y0, x1, y1 = (max(0, min(self.size, v)) for v in bounds)
        for y in range(y0, y1):
            row = y * self.size
            for x in range(x0, x1):
                coverage = 0.5 - shape(x + 0.5, y + 0.5)
                if coverage <= 0.0:
                    continue
                alpha = min(1.0, coverage)
                r, g, b = color(x, y) if callable(color) else color
                pixel = self.rgba[row + x]
                keep = 1.0 - alpha
                pixel[0] = r * alpha + pixel[0] * keep
                pixel[1] = g * alpha + pixel[1] * keep
                pixel[2] = b * alpha + pixel[2] * keep
                pixel[3] = alpha + pixel[3] * keep

    def png(self) -> bytes:
        """The picture as PNG bytes (8-bit RGBA, straight alpha)."""
        raw = bytearray()
        for y in range(self.size):
            raw.append(0)
            for r, g, b, a in self.rgba[y * self.size : (y + 1) * self.size]:
                if a > 0:  # un-premultiply: paint() accumulates premultiplied colour
                    r, g, b = r / a, g / a, b / a
                raw += bytes(round(max(0.0, min(1.0, v)) * 255) for v in (r, g, b, a))

        def chunk(kind: bytes, data: bytes) -> bytes:
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

        header = struct.pack(">IIBBBBB", self.size, self.size, 8, 6, 0, 0, 0)
        return (
            b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b"")
        )


def draw(size: int = SIZE) -> Canvas:
    """The icon at `size` pixels; coordinates below are for 1024 and scaled."""
    s = size / 1024
    canvas = Canvas(size)
    top, bottom = hex_color("#14707A"), hex_color("#0B3F4A")

    def background(x: float, y: float) -> Color:
        t = y / size
        return tuple(a + (b - a) * t for a, b in zip(top, bottom, strict=True))  # type: ignore[return-value]

    canvas.paint(rounded_box(512 * s, 512 * s, 512 * s, 512 * s, 200 * s), background, (0, 0, size, size))

    shadow = hex_color("#08323A")
    white = hex_color("#FBFAF5")
    cards = [(-18.0, "#E5484D", -150), (18.0, "#F2A81D", 150), (0.0, "#3B82F6", 0)]  # back to front
    for angle, accent, shift in cards:
        cx, cy = (512 + shift) * s, 540 * s
        half_w, half_h, radius = 190 * s, 270 * s, 36 * s
        box = (int(cx - 420 * s), int(cy - 420 * s), int(cx + 420 * s), int(cy + 420 * s))
        canvas.paint(rounded_box(cx + 10 * s, cy + 16 * s, half_w, half_h, radius, angle), shadow, box)
        canvas.paint(rounded_box(cx, cy, half_w, half_h, radius, angle), white, box)
        canvas.paint(
            rounded_box(cx, cy, half_w - 26 * s, half_h - 26 * s, 22 * s, angle), hex_color(accent), box
        )
        canvas.paint(rounded_box(cx, cy, half_w - 44 * s, half_h - 44 * s, 14 * s, angle), white, box)

    # the front card is a score pad: ruled lines and a tick in the game colour
    ink = hex_color("#9AA7B0")
    for i, width in enumerate((220, 180, 220)):
        y = (390 + i * 70) * s
        line = capsule(402 * s, y, (402 + width) * s, y, 9 * s)
        canvas.paint(line, ink, (int(380 * s), int(y - 20 * s), int(680 * s), int(y + 20 * s)))
    tick = hex_color("#3B82F6")

    def scaled(*values: int) -> tuple[int, ...]:
        return tuple(int(v * s) for v in values)

    canvas.paint(capsule(430 * s, 655 * s, 490 * s, 715 * s, 22 * s), tick, scaled(380, 600, 560, 780))
    canvas.paint(capsule(490 * s, 715 * s, 610 * s, 580 * s, 22 * s), tick, scaled(440, 530, 660, 780))
    return canvas


def main(argv: list[str]) -> None:
    target = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1] / "assets" / "icon.png"
    target.write_bytes(draw().png())
    print(f"wrote {target}")


if __name__ == "__main__":
    main(sys.argv)
