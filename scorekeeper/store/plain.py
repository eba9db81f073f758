"""What may be stored at all: plain data that every reader (this app, an older one, a spreadsheet) reads back
exactly. Checked before anything is written, for saves and imports alike."""

from __future__ import annotations

from typing import Any

from scorekeeper.games.base import Message

MAX_INT = 2**53
"""Larger numbers lose precision in JavaScript and in many spreadsheet tools (and Python refuses to read
integers of more than 4300 digits): no score, count or version of a game comes near."""
MAX_DEPTH = 32


def problem(value: Any, depth: int = 0) -> Message | None:
    """Why `value` cannot be stored as strict JSON in UTF-8, in words for the player; None if it can."""
    if depth > MAX_DEPTH:
        return Message("it is nested too deeply")
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return None if -MAX_INT <= value <= MAX_INT else Message("it holds a number that is too large")
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return Message("it holds a value that is not a number (NaN or Infinity)")
        return None
    if isinstance(value, str):
        return _text_problem(value)
    if isinstance(value, list):
        for item in value:
            found = problem(item, depth + 1)
            if found is not None:
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return Message("it holds a name that is not text")
            found = _text_problem(key) or problem(item, depth + 1)
            if found is not None:
                return found
        return None
    return Message("it holds something that is not plain data")


def _text_problem(text: str) -> Message | None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return Message("it holds broken text (a lone surrogate character)")
    return None
