"""Make assets/fonts/NotoColorEmoji.ttf, the emoji font the web app ships so names like "Oma 👵" render offline.

Source: Debian's fonts-noto-color-emoji (NotoColorEmoji.ttf, SIL Open Font License 1.1; Debian's copyright
file with the licence text is assets/fonts/NotoColorEmoji.LICENSE.txt). Debian's file is 11 MB of 136x128 PNG
bitmaps; at text size a 51x48 picture looks the same, so this keeps the emoji code points only (no space, digits
or ASCII, which would otherwise be drawn from this font's wide glyphs), scales every bitmap by SCALE and keeps
COLOURS colours per emoji: 3.7 MB, loaded once by each browser (it caches it).

    apt-get download fonts-noto-color-emoji && dpkg-deb -x fonts-noto-color-emoji_*.deb x
    pip install fonttools pillow
    python build/emoji_font.py x/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf assets/fonts/NotoColorEmoji.ttf
"""

from __future__ import annotations

import io
import sys

from fontTools import subset
from fontTools.ttLib import TTFont
from PIL import Image

SCALE = 0.375
COLOURS = 48  # per emoji: a 256-entry palette alone would outweigh the small picture
# Emoji and their joiners/selectors; below U+2000 only what Roboto has anyway (so it is left out).
UNICODES = "U+200D,U+203C-10FFFF"


def shrink(source: str, target: str) -> None:
    options = subset.Options()
    options.layout_features = ["*"]
    font = TTFont(source)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=subset.parse_unicodes(UNICODES))
    subsetter.subset(font)
    for strike in font["CBLC"].strikes:
        size = strike.bitmapSizeTable
        size.ppemX = size.ppemY = round(size.ppemX * SCALE)
        for lines in (size.hori, size.vert):
            for name in ("ascender", "descender", "widthMax"):
                setattr(lines, name, round(getattr(lines, name) * SCALE))
    for glyphs in font["CBDT"].strikeData:
        for glyph in glyphs.values():
            if hasattr(glyph, "decompile") and not hasattr(glyph, "imageData"):
                glyph.decompile()
            image = Image.open(io.BytesIO(glyph.imageData))
            width, height = round(image.width * SCALE), round(image.height * SCALE)
            out = io.BytesIO()
            small = image.convert("RGBA").resize((width, height), Image.LANCZOS)
            # Back to a palette, as the source is (without dithering, whose noise would not compress).
            small = small.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
            small.save(out, format="PNG", optimize=True)
            glyph.imageData = out.getvalue()
            m = glyph.metrics
            m.width, m.height = width, height
            m.BearingX, m.BearingY = round(m.BearingX * SCALE), round(m.BearingY * SCALE)
            m.Advance = round(m.Advance * SCALE)
    font.save(target)


if __name__ == "__main__":
    shrink(sys.argv[1], sys.argv[2])
