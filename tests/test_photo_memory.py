"""Scaling a photo holds a bounded amount of memory whatever the file (issue 50, finding 3): a 388 kB PNG of
9,990 x 9,990 transparent zeros took the server from 88 MB to 1.7 GB. Now what a picture would hold while it is
made smaller is counted by its mode and format before its pixels are decoded (`photo_pixels.held_bytes`) and
refused over MAX_HELD_BYTES, in the player's language; a JPEG decodes at a reduced size; one picture is scaled
at a time; the worst file of `bench store`'s set peaks under 300 MB (measured in fresh processes)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from scorekeeper.bench.photo_memory import GOAL_MB, _repeat, measure_photo_memory, png_rows
from scorekeeper.store import photo_pixels
from scorekeeper.store.photos import MAX_HELD_BYTES, MAX_SIDE, PhotoError, scale
from scorekeeper.ui.i18n import Translator


def audit_png() -> bytes:
    """The audit's file: 9,990 x 9,990 RGBA of zeros, a few hundred kB (written row by row)."""
    return png_rows(9990, 9990, 8, 6, _repeat(bytes(9990 * 4)))


def opened(content: bytes) -> Image.Image:
    return Image.open(io.BytesIO(content))


def test_the_audits_png_is_refused_before_it_is_decoded_in_the_players_language() -> None:
    content = audit_png()
    assert len(content) < 1_000_000
    with pytest.raises(PhotoError) as refused:
        scale(content)
    assert "too much memory" in str(refused.value)
    for language, words in (
        ("de", "zu viel Speicher"),
        ("nl", "te veel geheugen"),
        ("fr", "trop de mémoire"),
    ):
        assert words in refused.value.translated(Translator(language))


def test_what_is_held_counts_the_mode_and_the_format() -> None:
    """Mode-aware: RGBA is premultiplied while reduced (twice RGB), 16-bit grey is widened before it is
    reduced (more than 8-bit grey), a palette is converted; WebP's library decodes into a buffer of its own."""
    size = (1000, 1000)

    def held(image: Image.Image, kind: str) -> int:
        return photo_pixels.held_bytes(opened(saved(image, kind)), size)

    rgb, rgba = held(Image.new("RGB", size), "PNG"), held(Image.new("RGBA", size), "PNG")
    grey, grey16 = held(Image.new("L", size), "PNG"), held(Image.new("I;16", size), "PNG")
    palette = held(Image.new("P", size), "PNG")
    assert rgba == 2 * rgb and grey16 > 4 * grey and palette > rgb
    assert held(Image.new("RGB", size), "WEBP") > rgb


def test_a_progressive_jpeg_counts_the_coefficients_it_keeps() -> None:
    image = Image.new("RGB", (2000, 1500), (90, 120, 200))
    plain, progressive = opened(saved(image, "JPEG")), opened(saved(image, "JPEG", progressive=True))
    for each in (plain, progressive):
        each.draft("RGB", (MAX_SIDE, MAX_SIDE))
    extra = photo_pixels.held_bytes(progressive, (2000, 1500)) - photo_pixels.held_bytes(plain, (2000, 1500))
    assert extra == 2000 * 1500 * 3 // 2 * 2  # 4:2:0: one and a half samples a pixel, 2 bytes each


def test_a_big_jpeg_is_decoded_at_a_reduced_size() -> None:
    content = saved(Image.new("RGB", (6400, 4800), (10, 200, 10)), "JPEG")
    image = photo_pixels._open(content)
    assert image.size == (3200, 2400)  # 1/2: still at least MAX_SIDE on both sides
    assert min(image.size) >= MAX_SIDE


def test_one_photo_is_scaled_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every step that decodes holds the host's one scaling lock."""
    seen: list[bool] = []
    original = photo_pixels._open

    def watched(content: bytes, **options: int) -> Image.Image:
        seen.append(photo_pixels.SCALING.locked())
        return original(content, **options)

    monkeypatch.setattr(photo_pixels, "_open", watched)
    content = saved(Image.new("RGB", (300, 200)), "JPEG")
    photo, _ = scale(content)
    photo_pixels.thumbnail_of(photo)
    photo_pixels.check_received(photo)
    assert seen == [True, True, True]
    assert not photo_pixels.SCALING.locked()


def test_the_cap_leaves_room_for_a_phones_photos() -> None:
    """A 48-megapixel phone JPEG decodes at 1/2 (held about 48 MB); a 12-megapixel PNG screenshot (48 MB)."""
    phone = opened(saved(Image.new("RGB", (8000, 6000)), "JPEG"))
    phone.draft("RGB", (MAX_SIDE, MAX_SIDE))
    assert photo_pixels.held_bytes(phone, (8000, 6000)) < MAX_HELD_BYTES // 3
    screenshot = opened(saved(Image.new("RGB", (4000, 3000)), "PNG"))
    assert photo_pixels.held_bytes(screenshot, (4000, 3000)) < MAX_HELD_BYTES // 3


@pytest.mark.slow
def test_the_worst_file_of_the_bench_set_peaks_under_the_goal(tmp_path: Path) -> None:
    figures = measure_photo_memory(tmp_path)
    assert figures["photo_peak_mb"] < GOAL_MB, figures
    assert "refused" in str(figures["photo_peak_by_file"]["zeros_rgba.png"])


def saved(image: Image.Image, kind: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, kind, **options)
    return buffer.getvalue()
