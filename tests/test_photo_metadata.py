"""A stored photo carries its pixels and nothing else (issue 50, finding 2): a JPEG comment naming a flat, XMP,
an ICC profile, PNG text chunks, WebP and AVIF metadata, EXIF camera and time: none reaches the stored photo or
its thumbnail; the GPS position alone is written back, and only when the person keeps the location.

Every kind is checked in the stored files' own bytes (their JPEG segments) and by what Pillow reads back.
HEIC: Pillow here has no HEIF plugin (no pillow-heif), so it reads no HEIC file and the store refuses one as no
picture; AVIF, the HEIF container Pillow does read here, stands for it."""

from __future__ import annotations

import io
import struct
from typing import Any

import pytest
from PIL import Image, ImageCms, PngImagePlugin, features

from scorekeeper.store.photos import PhotoError, scale

SECRET = "GPS 52.3667N 4.8833E - Anna's flat"
XMP = (
    b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    b"<rdf:Description>Anna's flat, 52.3667N</rdf:Description></rdf:RDF></x:xmpmeta>"
)
GPS_IFD = 0x8825
MAKE, DATETIME, ORIENTATION = 0x010F, 0x0132, 0x0112


def exif_bytes(*, gps: bool = True) -> bytes:
    exif = Image.Exif()
    exif[MAKE] = "PhoneMaker"
    exif[DATETIME] = "2026:12:07 18:00:00"
    exif[ORIENTATION] = 1
    if gps:
        exif.get_ifd(GPS_IFD).update({1: "N", 2: (52.0, 22.0, 0.0), 3: "E", 4: (4.0, 53.0, 0.0)})
    return bytes(exif.tobytes())


def icc_profile() -> bytes:
    return bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())


def picture(size: tuple[int, int] = (400, 300), mode: str = "RGB") -> Image.Image:
    image = Image.new(mode, size, (200, 40, 40, 255)[: len(mode)] if mode != "L" else 120)
    image.paste((40, 40, 200, 255)[: len(mode)] if mode != "L" else 30, (size[0] // 2, 0, size[0], size[1]))
    return image


def segments(jpeg: bytes) -> list[tuple[int, bytes]]:
    """The JPEG's marker segments before its image data: (marker, payload)."""
    assert jpeg[:2] == b"\xff\xd8"
    found, at = [], 2
    while at < len(jpeg):
        marker = jpeg[at + 1]
        if marker == 0xDA:  # start of scan: the pixels follow
            break
        (length,) = struct.unpack(">H", jpeg[at + 2 : at + 4])
        found.append((marker, jpeg[at + 4 : at + 2 + length]))
        at += 2 + length
    return found


def carries_nothing(stored: bytes, *, gps: bool = False) -> None:
    """No comment, XMP, ICC profile or text; EXIF only as the GPS position, when `gps`."""
    marks = segments(stored)
    kinds = {marker for marker, _ in marks}
    assert 0xFE not in kinds, "a JPEG comment"
    assert not any(marker == 0xE2 for marker, _ in marks), "an APP2 segment (ICC profile)"
    assert not any(payload.startswith(b"http://ns.adobe.com/xap") for _, payload in marks), "XMP"
    assert not any(0xE3 <= marker <= 0xEF for marker in kinds), "an application segment"
    for text in (SECRET.encode(), b"Anna", b"PhoneMaker", b"2026:12:07", b"xmpmeta"):
        assert text not in stored, text
    image = Image.open(io.BytesIO(stored))
    assert not {"comment", "xmp", "icc_profile"} & set(image.info), image.info.keys()
    exif = image.getexif()
    if gps:
        assert set(exif) == {GPS_IFD}, dict(exif)
        assert exif.get_ifd(GPS_IFD).get(1) == "N"
    else:
        assert len(exif) == 0 and "exif" not in image.info


def both(content: bytes, *, keep: bool = False) -> tuple[bytes, bytes]:
    photo, thumb = scale(content, keep_location=keep)
    carries_nothing(photo, gps=keep)
    carries_nothing(thumb)  # a thumbnail never keeps the location
    return photo, thumb


def saved(image: Image.Image, kind: str, **options: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, kind, **options)
    return buffer.getvalue()


# ---------------------------------------------------------------------- JPEG
@pytest.mark.parametrize("keep", [False, True], ids=["location off", "location kept"])
def test_a_jpeg_comment_does_not_survive(keep: bool) -> None:
    """The audit's photo: EXIF GPS and the comment naming the flat."""
    content = saved(picture(), "JPEG", comment=SECRET.encode(), exif=exif_bytes())
    assert Image.open(io.BytesIO(content)).info["comment"] == SECRET.encode()
    both(content, keep=keep)


@pytest.mark.parametrize(
    "options",
    [
        {"xmp": XMP},
        {"icc_profile": icc_profile()},
        {"exif": exif_bytes(gps=False)},
        {
            "exif": exif_bytes(),
            "comment": b"x",
            "xmp": XMP,
            "icc_profile": icc_profile(),
            "progressive": True,
        },
    ],
    ids=["xmp", "icc", "exif camera and time", "all at once, progressive"],
)
@pytest.mark.parametrize("keep", [False, True], ids=["location off", "location kept"])
def test_jpeg_metadata_of_every_kind_is_left_out(options: dict[str, Any], keep: bool) -> None:
    has_gps = b"\x88\x25" in options.get("exif", b"") or b"%\x88" in options.get("exif", b"")
    photo, _ = scale(saved(picture(), "JPEG", **options), keep_location=keep)
    carries_nothing(photo, gps=keep and has_gps)


def test_the_location_kept_is_the_gps_position_alone() -> None:
    photo, _ = both(saved(picture(), "JPEG", exif=exif_bytes()), keep=True)
    exif = Image.open(io.BytesIO(photo)).getexif()
    assert MAKE not in exif and DATETIME not in exif and ORIENTATION not in exif
    assert exif.get_ifd(GPS_IFD)[2] == (52.0, 22.0, 0.0)


def test_a_profiled_picture_keeps_its_colours_without_its_profile() -> None:
    photo, _ = both(saved(picture(), "JPEG", icc_profile=icc_profile(), quality=95))
    red = Image.open(io.BytesIO(photo)).convert("RGB").getpixel((10, 10))
    assert isinstance(red, tuple) and red[0] > 180 and red[1] < 70 and red[2] < 70


# ---------------------------------------------------------------------- PNG
def test_png_text_chunks_exif_and_profile_are_left_out() -> None:
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", SECRET)
    info.add_text("Author", "Anna", zip=True)
    info.add_itxt("XML:com.adobe.xmp", XMP.decode(), zip=False)
    content = saved(picture(mode="RGBA"), "PNG", pnginfo=info, exif=exif_bytes(), icc_profile=icc_profile())
    opened = Image.open(io.BytesIO(content))
    assert opened.info.get("Comment") == SECRET and "exif" in opened.info
    both(content)
    both(content, keep=True)


# ---------------------------------------------------------------------- WebP and AVIF (HEIF)
@pytest.mark.parametrize("kind", ["WEBP", "AVIF"])
@pytest.mark.parametrize("keep", [False, True], ids=["location off", "location kept"])
def test_webp_and_avif_metadata_is_left_out(kind: str, keep: bool) -> None:
    if not features.check(kind.lower()):
        pytest.skip(f"Pillow here writes no {kind}")
    content = saved(picture(), kind, exif=exif_bytes(), xmp=XMP, icc_profile=icc_profile())
    assert {"exif", "xmp"} <= set(Image.open(io.BytesIO(content)).info)
    both(content, keep=keep)


def test_heic_is_read_only_where_pillow_has_a_heif_plugin() -> None:
    """A HEIC file's start (an `ftyp` box of brand heic): Pillow here cannot read it, so it is no picture."""
    try:
        import pillow_heif  # noqa: F401  (not installed here)
    except ImportError:
        head = struct.pack(">I", 24) + b"ftypheic" + b"\x00\x00\x00\x00" + b"mif1heic"
        with pytest.raises(PhotoError, match="not a picture"):
            scale(head + b"\x00" * 200)
    else:  # pragma: no cover - a machine with the plugin
        pytest.skip("pillow-heif is installed: HEIC is read like AVIF")


# ---------------------------------------------------------------------- animations
@pytest.mark.parametrize("kind", ["GIF", "WEBP"])
def test_an_animation_gives_its_first_frame(kind: str) -> None:
    frames = [
        Image.new("RGB", (300, 200), colour) for colour in ((220, 20, 20), (20, 220, 20), (20, 20, 220))
    ]
    content = saved(
        frames[0], kind, save_all=True, append_images=frames[1:], duration=100, loop=0, comment=b"x"
    )
    assert getattr(Image.open(io.BytesIO(content)), "n_frames", 1) == 3
    photo, _ = both(content)
    pixel = Image.open(io.BytesIO(photo)).convert("RGB").getpixel((150, 100))
    assert isinstance(pixel, tuple) and pixel[0] > 180 and pixel[1] < 80 and pixel[2] < 80
