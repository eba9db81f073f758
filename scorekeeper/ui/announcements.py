"""What a screen reader says on its own, without a tap to ask: a saved round with everyone's totals, a move at a
digital game and whose turn it is. The texts are pure functions of what the screen already knows (the match's
totals as the model keeps them: nothing is recomputed here); `speak` hands a text to the client's
SemanticsService (on the web Flutter puts it in its `flt-announcement-polite` live region, which screen readers
read out when the player is idle)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import flet as ft

from scorekeeper.ui.context import AppContext

Translate = Callable[..., str]
"""A translator as views hold it (`ctx.t`): the English text and its fields -> the player's language."""

MOVES_SPOKEN = 4
"""At most this many moves are said at once (instant computer players make a dozen moves between two frames:
the last ones, nearest the player's turn, matter)."""


def round_saved(
    t: Translate, number: int, names: Sequence[str], totals: Sequence[int], *, edited: bool
) -> str:
    """ "Round 3 saved. Anna 150, Ben 120." (round `number` counted from 1; `edited`: an earlier round changed),
    each seat's total as the match keeps it, in seat order."""
    head = t("Round {n} changed.", n=number) if edited else t("Round {n} saved.", n=number)
    scores = ", ".join(f"{name} {total}" for name, total in zip(names, totals, strict=True))
    return f"{head} {scores}." if scores else head


def new_moves(heard: Sequence[str], moves: Sequence[str]) -> list[str]:
    """The moves of `moves` (the round's log as it is now) that come after those already said (`heard`, the log
    as it was then). A log that no longer starts with `heard` was dealt anew (a new round) or lost its oldest
    lines: what follows the last move heard, or all of it when that move is gone too."""
    if list(moves[: len(heard)]) == list(heard):
        return list(moves[len(heard) :])
    if heard and heard[-1] in moves:
        last = len(moves) - 1 - list(reversed(moves)).index(heard[-1])
        return list(moves[last + 1 :])
    return list(moves)


def play_news(moves: Sequence[str], turn: str | None) -> str:
    """The moves just made (already in words, e.g. "Bo bid 2."; the last `MOVES_SPOKEN` of them) and, when the
    turn changed hands, whose it is now (`turn`, e.g. "Your turn."); "" when there is nothing new."""
    parts = [move.strip() for move in moves[-MOVES_SPOKEN:] if move.strip()]
    if turn:
        parts.append(turn)
    return " ".join(parts)


class PlayNews:
    """What a digital game's screen has told the screen reader so far: the moves said and the turn told of.
    Made with the moves and turn on screen when it opens, which are not said again."""

    def __init__(self, moves: Sequence[str], turn: Hashable) -> None:
        self.heard = list(moves)
        self.turn = turn

    def since(self, moves: Sequence[str], turn: Hashable, status: str, describe: Callable[[str], str]) -> str:
        """The news since the last call (`play_news`): the moves of the log `moves` not said yet, each in words
        by `describe` (the player's language), and `status` ("Bo's turn.") when `turn` (whatever tells one turn
        from the next: round, seat to act, round over) changed."""
        fresh = new_moves(self.heard, moves)
        changed = turn != self.turn
        self.heard, self.turn = list(moves), turn
        return play_news([describe(move) for move in fresh[-MOVES_SPOKEN:]], status if changed else None)


def announcer(ctx: AppContext) -> ft.SemanticsService | None:
    """The session's SemanticsService, made once and kept on the session (Flet drops services nobody
    references). Made while a screen is built, where Flet knows the page; a computer player's thread cannot."""
    service: ft.SemanticsService | None = ctx.session.semantics
    if service is None:
        try:
            service = ctx.session.semantics = ft.SemanticsService()
        except Exception:  # no page (a view built outside a session): nobody to speak to
            return None
    return service


def speak(ctx: AppContext, text: str) -> None:
    """Have the screen reader say `text` politely (after what it is saying now). Nothing when there is no
    client to say it (in-process tests) or no screen reader: the client drops it then."""
    service = announcer(ctx) if text else None
    if service is None:
        return
    try:
        ctx.page.run_task(service.announce_message, text)
    except Exception:  # the page has gone (closed tab) or never was (in-process tests)
        pass
