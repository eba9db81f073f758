"""The evening around a game as pure changes of a match (Match -> Match): the place, the notes, the start player,
the clock paused and resumed by hand, the game night chosen by hand and the list of photos. The screens
(`ui/components/evening.py`, `ui/views/game_night.py`, `ui/components/photo_state.py`) only save them through
`Store.change_match`, so undo, redo and sync treat each as one change of one field.

Free text follows the one rule of `scorekeeper.model.free_text` (control and text-direction characters refused,
trimmed, cut to the limits declared there). A clock left idle (`playtime.IDLE` without a change) is stopped at
the last thing it heard before any change (`playtime.settled`): the silence is no time played."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from scorekeeper.games.base import RuleError
from scorekeeper.model import playtime
from scorekeeper.model.free_text import Kind, clean, problem
from scorekeeper.model.match import Match


def _with(match: Match, **values: Any) -> Match:
    """`match` with these values, or `match` itself when it has them already (the store then writes nothing). A
    clock left idle is first stopped at the last thing it heard (`playtime.settled`): a note added the next
    morning does not make the night time played."""
    if "clock" not in values:
        clock = playtime.settled(match.clock, match.updated, datetime.now(UTC))
        if clock != match.clock:
            values["clock"] = clock
    if all(getattr(match, name) == value for name, value in values.items()):
        return match
    return dataclasses.replace(match, **values)


def _typed(text: str, kind: Kind) -> str:
    """Text a person typed, by the one rule for free text (`scorekeeper.model.free_text`): RuleError for control or
    text-direction characters; trimmed; cut to the limit (the dialog says so: `cut_notice`)."""
    refused = problem(text, kind)
    if refused is not None:
        raise RuleError(refused)
    return clean(text, kind).text


def with_notes(notes: str) -> Callable[[Match], Match]:
    """The notes as typed, without blank lines or spaces around them, at most `NOTES_MAX` characters ("" removes
    them: the field is then left out of the stored match); control characters refused."""
    return lambda match: _with(match, notes=_typed(notes, "notes"))


def with_place(place: str) -> Callable[[Match], Match]:
    """The place on one line with single spaces (so "Club" typed twice is one place), at most `PLACE_MAX`
    characters ("" removes it); control and text-direction characters refused, as in a player's name."""
    return lambda match: _with(match, place=_typed(place, "place"))


def paused(at: str) -> Callable[[Match], Match]:
    """The clock stopped at `at` (nothing when it does not run, e.g. another device paused it first); a clock
    left idle stops at the last thing it heard ("end it at the last round")."""
    return lambda match: _with(match, clock=playtime.stopped(_settled(match, at), at))


def _settled(match: Match, at: str) -> list[list[str | None]]:
    moment = playtime.moment_of(at) or datetime.now(UTC)
    return playtime.settled(match.clock, match.updated, moment)


def resumed(at: str) -> Callable[[Match], Match]:
    """The clock running again from `at`; not once the game is over (its end stopped the clock), nor for a
    match whose clock never started (older data: its time played is not known)."""
    return lambda match: (
        match
        if match.is_over or not match.clock
        else _with(match, clock=playtime.started(_settled(match, at), at))
    )


def with_start_player(seat: int) -> Callable[[Match], Match]:
    """The start player (first dealer) `seat`. Only before the first round: the rounds entered were dealt in
    turn from the start player, so another one would give them other dealers (and, in Rage, other rules for
    the dealer's bid). A digital game's first round is dealt when it starts: never there."""

    def change(match: Match) -> Match:
        if match.first_dealer == seat:
            return match
        if match.rounds or match.mode == "digital":
            raise RuleError("The start player can only be changed before the first round is entered.")
        return dataclasses.replace(match, first_dealer=seat)

    return change


def with_night(value: str) -> Callable[[Match], Match]:
    """The change of a match's game night chosen by hand (nothing when it has it already)."""
    return lambda match: match if match.night == value else dataclasses.replace(match, night=value)


def with_photos(change: Callable[[list[str]], list[str]]) -> Callable[[Match], Match]:
    """The match's list of photo ids changed by `change` (given a copy; nothing when the list stays the same)."""

    def changed(match: Match) -> Match:
        photos = change(list(match.photos))
        return match if photos == match.photos else dataclasses.replace(match, photos=photos)

    return changed
