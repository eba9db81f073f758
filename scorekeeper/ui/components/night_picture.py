"""A game night's summary as a picture to share: a PNG drawn with Pillow from lines of text the screen made.

The screen says what is on the picture (`Line`s, already in the app's language); this only lays them out: a title,
headings, plain lines and table rows whose first cells stand on the left and the last three right-aligned in
columns (the ranking's points, wins and games). The text is drawn with Pillow's own scalable font (Aileron, in
every Pillow wheel with FreeType): the app bundles only a colour emoji font (`assets/fonts`), which draws no
letters. A character that font lacks is drawn as its box, never an error. Tests read the lines, not the pixels.
Where Python has no Pillow (the static build's, in the browser) there is no picture (`DRAWN` is False, the screen
offers none), and the rest of the game night works as anywhere.
"""

from __future__ import annotations

import importlib.util
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

DRAWN = importlib.util.find_spec("PIL") is not None
"""Whether this Python can draw the picture (Pillow is there: not in the static build's browser)."""

WIDTH = 1080
"""Pixels across: sharp on a phone, the width messengers show without cropping."""
PAD = 64
SIZES = {"title": 64, "heading": 40, "text": 32, "row": 34}
GAPS = {"title": 20, "heading": 12, "text": 8, "row": 10}
BACKGROUND = (250, 247, 240)
INK = (33, 33, 33)
ACCENT = (46, 95, 140)
RULE = (214, 206, 190)
COLUMN = 150
"""The width of each right-hand column of a table row."""


@dataclass(frozen=True)
class Line:
    """One line of the picture: `kind` is "title", "heading", "text" or "row"; a row has `cells` (the first on
    the left, the last three in columns on the right)."""

    kind: str
    text: str = ""
    cells: tuple[str, ...] = ()

    @property
    def words(self) -> str:
        """Everything this line writes (what a test checks)."""
        return " ".join((self.text, *self.cells)).strip()


def _font(kind: str) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    return ImageFont.load_default(size=SIZES[kind])


def _wrapped(text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int) -> list[str]:
    """`text` broken at spaces into lines no wider than `width` (a single long word stays whole)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and font.getlength(candidate) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    return [*lines, current] if current else [""]


def _laid_out(lines: Sequence[Line]) -> list[tuple[Line, list[str], int]]:
    """Each line with its wrapped text and the height it takes."""
    out: list[tuple[Line, list[str], int]] = []
    for line in lines:
        font = _font(line.kind)
        size = SIZES[line.kind]
        if line.kind == "row":
            out.append((line, [], size + GAPS["row"] * 2))
            continue
        parts = _wrapped(line.text, font, WIDTH - 2 * PAD)
        extra = 24 if line.kind == "heading" else 0  # room above a heading
        out.append((line, parts, extra + len(parts) * (size + GAPS[line.kind])))
    return out


def _fitted(text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: float) -> str:
    """`text` shortened with an ellipsis to fit `width` (a long name in a table cell)."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _row(draw: ImageDraw.ImageDraw, line: Line, y: int) -> None:
    font = _font("row")
    left, right = line.cells[:-3], line.cells[-3:]
    x = PAD
    if len(left) > 1:  # the place, then the name
        draw.text((x, y + GAPS["row"]), left[0], font=font, fill=ACCENT)
        x += 70
    name_width = WIDTH - PAD - COLUMN * len(right) - x - 12
    draw.text((x, y + GAPS["row"]), _fitted(left[-1] if left else "", font, name_width), font=font, fill=INK)
    for i, cell in enumerate(right):
        column_right = WIDTH - PAD - COLUMN * (len(right) - 1 - i)
        draw.text((column_right - font.getlength(cell), y + GAPS["row"]), cell, font=font, fill=INK)
    draw.line(
        (PAD, y + SIZES["row"] + GAPS["row"] * 2 - 1, WIDTH - PAD, y + SIZES["row"] + GAPS["row"] * 2 - 1),
        fill=RULE,
    )


def picture(lines: Sequence[Line]) -> bytes:
    """The PNG of `lines`, top to bottom, as tall as they need (where `DRAWN`)."""
    from PIL import Image, ImageDraw

    laid = _laid_out(lines)
    height = PAD * 2 + sum(h for _, _, h in laid)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 12), fill=ACCENT)
    y = PAD
    for line, parts, taken in laid:
        if line.kind == "row":
            _row(draw, line, y)
        else:
            top = y + (24 if line.kind == "heading" else 0)
            colour = ACCENT if line.kind in ("title", "heading") else INK
            for part in parts:
                draw.text((PAD, top), part, font=_font(line.kind), fill=colour)
                top += SIZES[line.kind] + GAPS[line.kind]
        y += taken
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
