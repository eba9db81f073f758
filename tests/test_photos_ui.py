"""The scoreboard's photo texts that need no page: the refusal of a photo too big, in the player's language,
before anything is sent; the thumbnail helper the history calls (None for a match without photos)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from scorekeeper.store.photos import MAX_PHOTO_BYTES
from scorekeeper.ui.components import photos
from scorekeeper.ui.i18n import Translator


def context(language: str) -> Any:
    return SimpleNamespace(t=Translator(language))


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "This photo is too big (31.5 MB; at most 30 MB). Nothing was changed."),
        ("de", "Dieses Foto ist zu groß (31,5 MB; höchstens 30 MB). Es wurde nichts geändert."),
    ],
)
def test_a_photo_too_big_is_refused_before_it_is_sent(language: str, expected: str) -> None:
    ctx = context(language)
    assert photos.too_big(ctx, MAX_PHOTO_BYTES) is None
    assert photos.too_big(ctx, 31_450_001) == expected


def test_a_match_without_photos_has_no_thumbnail_in_a_list() -> None:
    assert photos.first_photo_thumbnail(context("en"), []) is None
