"""The session's browser keeps no page from one test to the next (conftest's `every_context_closed`).

A context left open outlives its test: its page sits on a server that has stopped and Flet's reconnect spinner
keeps its renderer busy for the rest of the run. That happened when a test (or a fixture's setup, e.g. the first
page load timing out under load) failed before its `context.close()`."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import PHONE, browser_tabs, leftover_contexts

pytestmark = pytest.mark.browser


def test_a_context_left_open_is_named_and_closed(chromium: Any) -> None:
    before = list(chromium.contexts)
    forgotten = chromium.new_context(viewport=PHONE)
    forgotten.new_page()
    chromium.new_context()  # one without a page too
    assert leftover_contexts(chromium, before) == ["about:blank", "no page"]
    assert chromium.contexts == before
    assert leftover_contexts(chromium, before) == []


def test_tabs_are_closed_when_the_test_fails_inside(chromium: Any) -> None:
    """What the fixtures rely on: `browser_tabs` closes its contexts however the block ends."""
    before = list(chromium.contexts)
    with pytest.raises(RuntimeError), browser_tabs(chromium, "about:blank") as tab:
        tab("one", PHONE)
        tab("two", PHONE)
        assert len(chromium.contexts) == len(before) + 2
        raise RuntimeError("a step failed")
    assert chromium.contexts == before
