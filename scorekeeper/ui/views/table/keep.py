"""Score keeping at the table: a phone's part of the round (`KeepPhone`); the board's parts are in
`table/keep_board.py`.

The phone shows the round, who deals, the cards this round and the step (`keep-facts`), who is still to send
their part (`keep-status`, `keep-waiting`), what everyone may see (Rage: the bids, `keep-public`), its own fields
(`table/part_form.PartForm`), with why a value is barred before it sends (`part-why`), and the scores with the
last round's points (`keep-scores`). A refused part shows the rules' message and keeps what was typed; the phone
may enter its part again to correct it until the round is saved. A round that does not check out once every part
is in is shown on every phone (`keep-problem`); the phones it concerns are asked to check their parts. The host
keeps the normal round-entry screens for the match. Both screens are drawn by role (`KeyedParts`): a part sent
by one phone changes one line on the others and on the board, and that line is all that is sent to them.
"""

from __future__ import annotations

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.model.tally import with_names
from scorekeeper.table.table import Table
from scorekeeper.ui.components.keyed import TableScreen
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.table.join import seat_lost
from scorekeeper.ui.views.table.keep_board import KeepFacts, facts_line, keep_facts
from scorekeeper.ui.views.table.keep_board import board_parts as board_parts
from scorekeeper.ui.views.table.part_form import PartForm


class KeepPhone(TableScreen):
    """A phone's part of the round at a score-keeping table, drawn by role (see `TableScreen`).

    Another seat's part changes only the line of who is still entering, so that is all that is sent to this
    phone. Its own fields (`PartForm`: the rack pad with what it entered so far) are built again only for a new
    step, or when the rules bar other values for it (the dealer's bid once the others have bid) or the round
    deals another number of cards; otherwise a new round clears them in place."""

    def __init__(self, ctx: AppContext, table: Table, seat: int, token: str) -> None:
        super().__init__(table)
        self.ctx, self.seat, self.token = ctx, seat, token
        self.fields: PartForm | None = None
        """The fields on screen (kept from round to round while the step's fields stay the same)."""

    def parts(self) -> list[ft.Control]:
        ctx, shown, table, seat = self.ctx, self.shown, self.table, self.seat
        keeping = table.keeping
        assert keeping is not None
        try:
            table.check(seat, self.token)
        except RuleError as error:  # the host handed this seat to another phone
            shown.forget()
            return [seat_lost(self.ctx, self.table.code, self.ctx.describe(error))]
        keeping.current()
        match, names = keeping.match, table.names()
        if keeping.over:
            return [
                shown.part(
                    "over", None, lambda: tag("keep-over", ft.Text(ctx.t("The game is over."), size=20))
                )
            ]
        parts, shape = keeping.parts, keeping.parts.shape
        stage = min(parts.stage, len(shape.stages) - 1)
        facts = keep_facts(ctx, table)
        status = self.status(facts)
        line = facts_line(ctx, facts)
        asked = facts.problem is not None
        waiting = (
            [names[n] for n in facts.involved]
            if asked
            else [names[n] for n, ready in enumerate(facts.done) if not ready]
        )
        barred = {
            name: shape.barred(name, seat, parts.parts[stage], match.opts, match.dealer, match.round_index)
            for name in shape.stages[stage]
            if shape.fields[name][0] == "count"
        }
        why = [
            ctx.describe(with_names(RuleError(message), names))
            for name, values in barred.items()
            if (message := shape.why_barred(name, seat, values, match.opts, match.round_index)) is not None
        ]
        most = {name: shape.most(name, match.opts, match.round_index) for name in shape.stages[stage]}
        inputs = (stage, barred, most, ctx.width)
        form = shown.part("fields", inputs, lambda: self.form(stage, barred, most), changes_itself=True)
        if self.fields is not None and self.fields.round != match.round_index:  # kept: cleared in place
            self.fields.start(match.round_index)
            shown.walk("fields")
        mine = self.mine(stage)
        scores = (facts.names, facts.totals, facts.last, facts.lower_wins)
        drawn = [
            shown.part(
                "status",
                status,
                lambda: tag("keep-status", ft.Text(status, size=18, weight=ft.FontWeight.BOLD)),
            ),
            shown.part("dealer", line, lambda: tag("keep-facts", ft.Text(line, size=14))),
        ]
        if facts.problem:
            drawn.append(shown.part("problem", facts.problem, lambda: problem_line(facts.problem or "")))
        drawn.append(shown.part("waiting", (waiting, asked), lambda: self.waiting(waiting, asked)))
        if facts.public:
            public = (facts.names, facts.public)
            drawn.append(shown.part("public", public, lambda: public_line(ctx, *public)))
        if mine:
            drawn.append(shown.part("mine", mine, lambda: tag("keep-mine", ft.Text(mine, size=16))))
        if why:
            drawn.append(shown.part("why", why, lambda: why_lines(why)))
        drawn.append(form)
        drawn.append(shown.part("scores", scores, lambda: phone_scores(ctx, *scores)))
        return drawn

    def status(self, facts: KeepFacts) -> str:
        """What this phone is to do now: enter its part, check it (the round does not check out), or wait."""
        ctx, n = self.ctx, facts.round_number
        if facts.problem is not None and self.seat in facts.involved:
            return ctx.t("Round {n} does not check out: please check your part.", n=n)
        if not facts.done[self.seat]:
            return ctx.t("Round {n}: {name}, enter your part.", n=n, name=facts.names[self.seat])
        return ctx.t("Round {n}: your part is in. You can still correct it.", n=n)

    def mine(self, stage: int) -> str:
        """This seat's own entries of the steps before (Rage: its bid, while it enters its tricks)."""
        keeping = self.table.keeping
        assert keeping is not None
        shape, entered = keeping.parts.shape, keeping.parts.mine(self.seat)
        said = [
            self.ctx.t("{label}: {value}", label=self.ctx.t(shape.fields[name][1]), value=entered[name])
            for earlier in shape.stages[:stage]
            for name in earlier
            if name in entered
        ]
        return " · ".join(said)

    def waiting(self, names: list[str], asked: bool) -> ft.Control:
        """Who has not sent their part of this step yet (or, `asked`, who is to check it)."""
        template = "Still to check their part: {names}." if asked else "Still to send their part: {names}."
        text = self.ctx.t(template, names=", ".join(names))
        return tag("keep-waiting", ft.Text(text, size=14, italic=True))

    def form(self, stage: int, barred: dict[str, set[int]], most: dict[str, int | None]) -> ft.Control:
        self.fields = PartForm(self.ctx, self.table, self.seat, self.token, stage, barred, most, self.changed)
        return self.fields.control


def problem_line(problem: str) -> ft.Control:
    """Why the round, every part in, cannot be saved (shown on every phone)."""
    return tag("keep-problem", ft.Text(problem, size=16, color=ft.Colors.ERROR, weight=ft.FontWeight.BOLD))


def why_lines(lines: list[str]) -> ft.Control:
    """Why this phone may not choose a value now (the dealer's bid the hook rule forbids), before it sends."""
    return tag("part-why", ft.Column([ft.Text(line, size=15, italic=True) for line in lines], spacing=2))


def public_line(ctx: AppContext, names: list[str], public: list[tuple[str, list[str]]]) -> ft.Control:
    """What everyone may see, e.g. "Bids: Anna 3, Ben 4, Cleo –"."""
    rows: list[ft.Control] = [
        ft.Text(
            ctx.t(
                "{label}: {value}",
                label=label,
                value=", ".join(f"{n} {v}" for n, v in zip(names, values, strict=True)),
            ),
            size=16,
        )
        for label, values in public
    ]
    return tag("keep-public", ft.Column(rows, spacing=2))


def phone_scores(
    ctx: AppContext, names: list[str], totals: list[int], last: list[int] | None, lower_wins: bool
) -> ft.Control:
    """The totals, the leader first, with the last round's points in brackets."""
    order = sorted(range(len(names)), key=lambda s: totals[s], reverse=not lower_wins)
    rows = [
        tag(
            f"keep-score-{seat}",
            ft.Row(
                [
                    ft.Text(names[seat], size=15, expand=True),
                    ft.Text("" if last is None else f"({last[seat]:+d})", size=14),
                    ft.Text(str(totals[seat]), size=16, weight=ft.FontWeight.BOLD),
                ]
            ),
        )
        for seat in order
    ]
    return tag("keep-scores", section(ctx.t("Scores"), *rows))
