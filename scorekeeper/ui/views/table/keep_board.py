"""The board of a score-keeping table, in parts a board layout can place (each a small function of plain values):

- `round_facts`: who deals, the cards this round (where the game deals another number each round) and the step
  the players are at (Rage: bids, then tricks);
- `who_is_done`: per seat, done, still entering, or asked to check its part (a round that does not check out);
- `round_problem`: why the round, every part in, cannot be saved, and whose parts it concerns;
- `public_values`: what everyone may see as it comes in (Rage: the bids);
- `last_round`: the result of the round just saved, until the next round's first part comes in;
- `keep_scores`: the totals, the leader first, with the last round's points.

`board_parts` draws them by role (`KeyedParts`): a part sent by one phone rebuilds only the parts it changed.
What the board and the phones say is worked out once, in `KeepFacts`.
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from scorekeeper.games.spec import spec
from scorekeeper.table.table import Table
from scorekeeper.ui.components.keyed import KeyedParts
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.boards import big

DASH = "–"


@dataclass(frozen=True)
class KeepFacts:
    """Where a score-keeping table stands, in words and numbers (the same for the board and every phone)."""

    round_number: int
    names: list[str]
    dealer: int
    cards: int | None
    step: str | None
    done: list[bool]
    problem: str | None
    involved: list[int]
    public: list[tuple[str, list[str]]]
    """(label, per seat the value entered so far or a dash), for each field everyone may see."""
    totals: list[int]
    last: list[int] | None
    """The points of the last round saved (None: no round yet)."""
    started: bool
    """Whether any part of this round is in (then the last round's result gives way to it)."""
    over: bool
    lower_wins: bool


def keep_facts(ctx: AppContext, table: Table) -> KeepFacts:
    keeping = table.keeping
    assert keeping is not None
    keeping.current()
    match, parts = keeping.match, keeping.parts
    shape = parts.shape
    stage = min(parts.stage, len(shape.stages) - 1)
    step = ctx.t(shape.stage_titles[stage]) if len(shape.stage_titles) > stage else None
    public = [
        (ctx.t(shape.public[name]), [DASH if value is None else str(value) for value in values])
        for name, values in parts.public().items()
    ]
    scores = match.round_scores()
    problem = keeping.problem
    return KeepFacts(
        round_number=match.round_index + 1,
        names=table.names(),
        dealer=match.dealer,
        cards=None if keeping.over else spec(table.game).next_hand_size(match.opts, match.round_index),
        step=None if keeping.over else step,
        done=parts.done(),
        problem=None if problem is None else ctx.describe(problem),
        involved=list(keeping.involved),
        public=public,
        totals=list(match.totals()),
        last=list(scores[-1]) if scores else None,
        started=any(part is not None for stage_parts in parts.parts for part in stage_parts),
        over=keeping.over,
        lower_wins=spec(table.game).lower_wins,
    )


def facts_line(ctx: AppContext, facts: KeepFacts) -> str:
    """ "Oma deals. Cards this round: 10. Now: Bids." (the parts the game has)."""
    said = [ctx.t("{name} deals.", name=facts.names[facts.dealer])]
    if facts.cards is not None:
        said.append(ctx.t("Cards this round: {n}.", n=facts.cards))
    if facts.step is not None:
        said.append(ctx.t("Now: {step}.", step=facts.step))
    return " ".join(said)


def board_parts(ctx: AppContext, table: Table, shown: KeyedParts) -> list[ft.Control]:
    """The board of a score-keeping table, by role: the round, its facts, who is done, the problem if the round
    does not check out, what is public, the last round's result and the scores."""
    facts = keep_facts(ctx, table)
    heading = (
        ctx.t("The game is over.")
        if facts.over
        else ctx.t("Round {n} does not check out.", n=facts.round_number)
        if facts.problem
        else ctx.t("Round {n}: the players enter their parts.", n=facts.round_number)
    )
    line = "" if facts.over else facts_line(ctx, facts)
    status = (facts.names, facts.done, facts.involved if facts.problem else [])
    scores = (facts.names, facts.totals, facts.last, facts.lower_wins)
    parts = [
        shown.part("heading", heading, lambda: tag("board-turn", big(heading, 40, bold=True))),
        shown.part("facts", line, lambda: tag("board-facts", big(line, 28))),
    ]
    if facts.problem:
        problem = (facts.problem, [facts.names[seat] for seat in facts.involved])
        parts.append(shown.part("problem", problem, lambda: round_problem(ctx, *problem)))
    parts.append(shown.part("done", status, lambda: tag("board-parts", who_is_done(ctx, *status))))
    if facts.public:
        public = (facts.names, facts.public)
        parts.append(shown.part("public", public, lambda: public_values(*public)))
    if facts.last is not None and not facts.started and not facts.over:
        last = (facts.round_number - 1, facts.names, facts.last, facts.totals)
        parts.append(shown.part("last", last, lambda: last_round(ctx, *last)))
    parts.append(shown.part("scores", scores, lambda: keep_scores(ctx, *scores)))
    return parts


def who_is_done(
    ctx: AppContext, names: list[str], done: list[bool], asked: list[int] | None = None
) -> ft.Control:
    """Per seat: done, still entering, or (`asked`) to check its part because the round does not check out."""
    asked = asked or []
    rows = []
    for seat, name in enumerate(names):
        icon, word = (
            (ft.Icons.WARNING_AMBER, ctx.t("to check"))
            if seat in asked
            else (ft.Icons.CHECK_CIRCLE, ctx.t("done"))
            if done[seat]
            else (ft.Icons.HOURGLASS_EMPTY, ctx.t("entering…"))
        )
        row = ft.Row([ft.Icon(icon, size=32), big(name, 28, bold=done[seat]), big(word, 24)], spacing=12)
        rows.append(tag(f"board-done-{seat}", row))
    return ft.Column(rows, spacing=8)


def round_problem(ctx: AppContext, problem: str, asked: list[str]) -> ft.Control:
    """Why the round cannot be saved, and who is asked to check their part."""
    who = ctx.t("Please check your parts: {names}.", names=", ".join(asked))
    lines: list[ft.Control] = [big(problem, 28, bold=True, colour=ft.Colors.ERROR), big(who, 24)]
    return tag(
        "board-problem",
        ft.Container(
            ft.Column(lines, spacing=6),
            padding=16,
            border_radius=12,
            border=ft.Border.all(3, ft.Colors.ERROR),
        ),
    )


def public_values(names: list[str], public: list[tuple[str, list[str]]]) -> ft.Control:
    """Each public field (Rage: the bids) for every seat, a dash until it is in."""
    rows: list[ft.Control] = []
    for label, values in public:
        cells: list[ft.Control] = [
            ft.Column([big(name, 24), big(value, 40, bold=True)], spacing=0, tight=True)
            for name, value in zip(names, values, strict=True)
        ]
        rows.append(big(label, 28, bold=True))
        rows.append(ft.Row(cells, spacing=32, wrap=True))
    return tag("board-public", ft.Column(rows, spacing=6))


def last_round(
    ctx: AppContext, number: int, names: list[str], points: list[int], totals: list[int]
) -> ft.Control:
    """The round just saved: each player's points, until the next round's first part comes in."""
    rows = [
        tag(
            f"board-last-{seat}",
            ft.Row([big(name, 28), ft.Container(expand=True), big(f"{points[seat]:+d}", 32, bold=True)]),
        )
        for seat, name in enumerate(names)
    ]
    return tag(
        "board-last-round",
        ft.Container(
            ft.Column([big(ctx.t("Round {n}", n=number), 28, bold=True), *rows], spacing=6),
            padding=16,
            border_radius=12,
            border=ft.Border.all(2, ft.Colors.PRIMARY),
        ),
    )


def keep_scores(
    ctx: AppContext, names: list[str], totals: list[int], last: list[int] | None, lower_wins: bool
) -> ft.Control:
    """The match's totals, the leader first, with the last round's points."""
    order = sorted(range(len(names)), key=lambda s: totals[s], reverse=not lower_wins)
    scores = []
    for seat in order:
        points = "" if last is None else f"  ({last[seat]:+d})"
        row = ft.Row(
            [big(names[seat], 28), ft.Container(expand=True), big(f"{totals[seat]}{points}", 28, bold=True)]
        )
        scores.append(tag(f"board-score-{seat}", row))
    return ft.Container(
        ft.Column([big(ctx.t("Scores"), 28, bold=True), *scores], spacing=6),
        padding=16,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
    )
