"""Photos of a match (store/photos.py): scaled once, upright, without EXIF unless the location is kept, refused
when not a picture or too big (nothing written), undone with the match, trashed and brought back with it."""

from __future__ import annotations

import dataclasses
import io
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from test_store_support import new_match, tree

from scorekeeper.store import Store
from scorekeeper.store.photos import MAX_SIDE, THUMB_SIDE, PhotoError, scale

GPS_IFD = 0x8825
ORIENTATION = 0x0112


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "data")


def picture(width: int = 3000, height: int = 2000, *, orientation: int = 1, gps: bool = True) -> bytes:
    """A JPEG as a phone writes it: EXIF with a camera, an orientation and (optionally) a GPS position. The
    left half is red, the right half blue, so a rotation can be seen in the pixels."""
    image = Image.new("RGB", (width, height), (220, 20, 20))
    image.paste((20, 20, 220), (width // 2, 0, width, height))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    exif[ORIENTATION] = orientation
    if gps:
        exif.get_ifd(GPS_IFD).update({1: "N", 2: (52.0, 22.0, 0.0), 3: "E", 4: (4.0, 53.0, 0.0)})
    out = io.BytesIO()
    image.save(out, "JPEG", quality=95, exif=exif.tobytes())
    return out.getvalue()


def exif_of(data: bytes) -> Image.Exif:
    return Image.open(io.BytesIO(data)).getexif()


def test_a_photo_is_scaled_upright_and_its_exif_stripped() -> None:
    # Orientation 6: the camera was held upright, the pixels are stored turned; shown, it is 2000 wide.
    photo, thumb = scale(picture(4000, 3000, orientation=6))
    image = Image.open(io.BytesIO(photo))
    assert image.format == "JPEG"
    assert image.size == (1200, MAX_SIDE)  # upright (portrait), longest side at most MAX_SIDE
    # Turned a quarter clockwise: the red left half is now on top.
    top, bottom = image.getpixel((600, 100)), image.getpixel((600, MAX_SIDE - 100))
    assert top[0] > 150 and top[2] < 100 and bottom[2] > 150 and bottom[0] < 100
    assert len(exif_of(photo)) == 0  # no camera, no orientation, no GPS
    assert max(Image.open(io.BytesIO(thumb)).size) == THUMB_SIDE
    assert len(photo) < 600_000


def test_the_location_is_kept_only_when_asked() -> None:
    photo, _ = scale(picture(), keep_location=True)
    exif = exif_of(photo)
    assert exif.get_ifd(GPS_IFD).get(1) == "N"
    assert ORIENTATION not in exif  # applied to the pixels already
    assert exif_of(scale(picture())[0]).get_ifd(GPS_IFD) == {}


def test_a_small_picture_is_not_enlarged_and_a_png_with_transparency_is_kept_on_white() -> None:
    image = Image.new("RGBA", (300, 200), (0, 0, 0, 0))
    out = io.BytesIO()
    image.save(out, "PNG")
    photo, _ = scale(out.getvalue())
    stored = Image.open(io.BytesIO(photo))
    assert stored.size == (300, 200)
    assert stored.getpixel((10, 10))[0] > 240  # white, not black


@pytest.mark.parametrize(
    "content",
    [b"", b"not a picture at all", b"\xff\xd8\xff\xe0" + b"\x00" * 100, b"%PDF-1.4 ..."],
)
def test_what_is_not_a_picture_is_refused_and_nothing_is_written(store: Store, content: bytes) -> None:
    before = tree(store.data_dir)
    with pytest.raises(PhotoError, match="not a picture"):
        store.photos.add(content)
    assert tree(store.data_dir) == before


def test_a_file_too_big_is_refused_before_it_is_read(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.store import photos

    monkeypatch.setattr(photos, "MAX_PHOTO_BYTES", 1000)
    with pytest.raises(PhotoError, match="too big"):
        store.photos.add(picture(200, 100))
    assert store.photos.ids() == []


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    width=st.integers(1, 3500),
    height=st.integers(1, 3500),
    orientation=st.integers(1, 8),
    keep=st.booleans(),
)
def test_any_picture_fits_the_limits_and_keeps_gps_only_when_asked(
    width: int, height: int, orientation: int, keep: bool
) -> None:
    photo, thumb = scale(picture(width, height, orientation=orientation), keep_location=keep)
    image = Image.open(io.BytesIO(photo))
    turned = orientation >= 5
    shown = (height, width) if turned else (width, height)
    assert max(image.size) == min(MAX_SIDE, max(shown))
    assert (image.size[0] >= image.size[1]) == (shown[0] >= shown[1]) or abs(shown[0] - shown[1]) <= 1
    assert max(Image.open(io.BytesIO(thumb)).size) <= THUMB_SIDE
    assert (exif_of(photo).get_ifd(GPS_IFD).get(1) == "N") is keep


def test_a_photo_on_a_match_is_undone_and_redone(store: Store) -> None:
    match = store.save_match(new_match(store, rounds=1))
    photo_id = store.photos.add(picture())
    added = store.change_match(
        match.id, lambda m: dataclasses.replace(m, photos=[*m.photos, photo_id]), "photo"
    )
    assert added.photos == [photo_id]
    assert store.photos.image(photo_id) is not None and store.photos.thumbnail(photo_id) is not None
    undone = store.undo_match(match.id, added.version)
    assert undone.photos == []
    redone = store.redo_match(match.id, undone.version)
    assert redone.photos == [photo_id]
    # Removing it from the match keeps the file: undo brings it back whole.
    removed = store.change_match(match.id, lambda m: dataclasses.replace(m, photos=[]), "photo removed")
    back = store.undo_match(match.id, removed.version)
    assert back.photos == [photo_id] and store.photos.image(photo_id) is not None


def test_deleting_a_match_moves_its_photos_to_the_trash_and_they_come_back(store: Store) -> None:
    match = store.save_match(new_match(store, rounds=1))
    other = store.save_match(new_match(store, rounds=1, seed=2))
    mine = [store.photos.add(picture(400, 300)) for _ in range(2)]
    theirs = store.photos.add(picture(300, 400))
    store.change_match(match.id, lambda m: dataclasses.replace(m, photos=mine))
    store.change_match(other.id, lambda m: dataclasses.replace(m, photos=[theirs]))
    content = store.photos.image(mine[0])

    assert store.delete_match(match.id)
    assert store.photos.ids() == [theirs]  # the other match's photo stays
    trash = store.data_dir / "trash" / "photos"
    assert sorted(p.name for p in trash.iterdir()) == sorted(
        [f"{i}.jpg" for i in mine] + [f"{i}.thumb.jpg" for i in mine]
    )
    # Brought back (a restore, or the match coming back): the same bytes, out of the trash.
    store.photos.restore(mine)
    assert sorted(store.photos.ids()) == sorted([*mine, theirs])
    assert store.photos.image(mine[0]) == content
    assert not any(trash.iterdir())


def test_a_photo_asked_for_from_the_trash_is_brought_back(store: Store) -> None:
    match = store.save_match(new_match(store, rounds=1))
    photo_id = store.photos.add(picture(400, 300))
    store.change_match(match.id, lambda m: dataclasses.replace(m, photos=[photo_id]))
    store.delete_match(match.id)
    assert store.photos.ids() == []
    assert store.photos.thumbnail(photo_id) is not None
    assert store.photos.ids() == [photo_id]


def test_a_missing_thumbnail_is_made_again_and_a_missing_photo_is_none(store: Store) -> None:
    photo_id = store.photos.add(picture(800, 600))
    store.photos.thumb_path(photo_id).unlink()
    thumb = store.photos.thumbnail(photo_id)
    assert thumb is not None and max(Image.open(io.BytesIO(thumb)).size) == THUMB_SIDE
    assert store.photos.image("0123456789abcdef") is None
    assert store.photos.thumbnail("../etc/passwd") is None


def test_the_bench_adds_a_4_mb_phone_photo(tmp_path: Path) -> None:
    from scorekeeper.bench.photos import measure_photo, phone_photo

    picture = phone_photo()
    assert 4_000_000 <= len(picture) <= 5_000_000
    figures = measure_photo(tmp_path, runs=1)
    assert set(figures) == {"photo_4mb_s", "photo_4mb_input_mb", "photo_4mb_stored_kb"}
    assert figures["photo_4mb_stored_kb"] < 700  # a few hundred kB


@settings(max_examples=60, deadline=None)
@given(width=st.integers(1, 5000), height=st.integers(1, 5000), side=st.sampled_from([MAX_SIDE, THUMB_SIDE]))
def test_the_browsers_scaled_size_is_pillows(width: int, height: int, side: int) -> None:
    """The static build scales in the browser's canvas (canvas_photos.fitted): the same size as Pillow's
    `thumbnail` on the host, to a pixel; never enlarged."""
    from scorekeeper.store.canvas_photos import fitted

    image = Image.new("L", (width, height))
    image.thumbnail((side, side))
    got = fitted(width, height, side)
    assert max(got) <= max(side, max(width, height)) and got[0] <= width and got[1] <= height
    assert abs(got[0] - image.size[0]) <= 1 and abs(got[1] - image.size[1]) <= 1


def test_a_photo_the_browser_scaled_is_kept_as_it_is(store: Store) -> None:
    """What the browser's canvas made is written unchanged (there is no Pillow to read it); what is no JPEG is
    refused and nothing is written."""
    photo, thumb = scale(picture(800, 600))
    photo_id = store.photos.add_scaled(photo, thumb)
    assert store.photos.path(photo_id).read_bytes() == photo
    assert store.photos.thumb_path(photo_id).read_bytes() == thumb
    before = tree(store.data_dir)
    for bad in ((b"%PDF-1.4", thumb), (photo, b"")):
        with pytest.raises(PhotoError, match="not a picture"):
            store.photos.add_scaled(*bad)
    assert tree(store.data_dir) == before


def test_without_pillow_a_photo_from_another_device_is_kept_as_its_own_thumbnail(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The static build has no Pillow: a phone gets the fleet's photos all the same (a JPEG within the limits,
    kept as it came); what is no JPEG is refused and nothing is written."""
    photo, _ = scale(picture())
    monkeypatch.setitem(sys.modules, "PIL", None)  # as in the browser: `from PIL import Image` fails
    store.photos.put("fromlaptop", photo)
    assert store.photos.image("fromlaptop") == photo
    assert store.photos.thumbnail("fromlaptop") == photo
    with pytest.raises(PhotoError):
        store.photos.put("notaphoto", b"<html>not a picture</html>")
    assert store.photos.image("notaphoto") is None
