"""Score keeping at the table: a phone's part of the round (`KeepPhone`) and the board's "who is done" list.

The phone shows the round, who deals, who is still to send their part (`keep-status`, `keep-waiting`) and its
own fields (`table_part_form.PartForm`). A refused part shows the rules' message and keeps what was typed; the
phone may enter its part again to correct it until the round is saved. The host keeps the normal round-entry
screens for the match. Both screens are drawn by role (`KeyedParts`): a part sent by one phone changes one line
on the others and on the board, and that line is all that is sent to them.
"""

from __future__ import annotations

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.spec import spec
from scorekeeper.table.table import Table
from scorekeeper.ui.components.keyed import KeyedParts, TableScreen
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.play.boards import big
from scorekeeper.ui.views.table_join import seat_lost
from scorekeeper.ui.views.table_part_form import PartForm


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
        parts = keeping.parts
        stage = min(parts.stage, len(parts.shape.stages) - 1)
        done = parts.done()
        status = (
            ctx.t("Round {n}: {name}, enter your part.", n=match.round_index + 1, name=names[seat])
            if not done[seat]
            else ctx.t("Round {n}: your part is in. You can still correct it.", n=match.round_index + 1)
        )
        dealer = ctx.t("{name} deals.", name=names[match.dealer])
        waiting = [names[n] for n, ready in enumerate(done) if not ready]
        barred = {
            name: parts.shape.barred(
                name, seat, parts.parts[stage], match.opts, match.dealer, match.round_index
            )
            for name in parts.shape.stages[stage]
            if parts.shape.fields[name][0] == "count"
        }
        most = {
            name: parts.shape.most(name, match.opts, match.round_index) for name in parts.shape.stages[stage]
        }
        inputs = (stage, barred, most, ctx.width)
        form = shown.part("fields", inputs, lambda: self.form(stage, barred, most), changes_itself=True)
        if self.fields is not None and self.fields.round != match.round_index:  # kept: cleared in place
            self.fields.start(match.round_index)
            shown.walk("fields")
        return [
            shown.part(
                "status",
                status,
                lambda: tag("keep-status", ft.Text(status, size=18, weight=ft.FontWeight.BOLD)),
            ),
            shown.part("dealer", dealer, lambda: ft.Text(dealer, size=14)),
            shown.part("waiting", waiting, lambda: self.waiting(waiting)),
            form,
        ]

    def waiting(self, names: list[str]) -> ft.Control:
        """Who has not sent their part of this step yet."""
        text = self.ctx.t("Still to send their part: {names}.", names=", ".join(names))
        return tag("keep-waiting", ft.Text(text, size=14, italic=True))

    def form(self, stage: int, barred: dict[str, set[int]], most: dict[str, int | None]) -> ft.Control:
        self.fields = PartForm(self.ctx, self.table, self.seat, self.token, stage, barred, most, self.changed)
        return self.fields.control


def board_parts(ctx: AppContext, table: Table, shown: KeyedParts) -> list[ft.Control]:
    """The board of a score-keeping table, by role: the round, who is done with their part, and the scores."""
    keeping = table.keeping
    assert keeping is not None
    keeping.current()
    match = keeping.match
    names = table.names()
    done = keeping.parts.done()
    heading = (
        ctx.t("The game is over.")
        if keeping.over
        else ctx.t("Round {n}: the players enter their parts.", n=match.round_index + 1)
    )
    totals = match.totals()
    lower = spec(table.game).lower_wins
    return [
        shown.part("heading", heading, lambda: tag("board-turn", big(heading, 40, bold=True))),
        shown.part("done", (names, done), lambda: tag("board-parts", who_is_done(ctx, names, done))),
        shown.part("scores", (names, totals, lower), lambda: keep_scores(ctx, names, totals, lower)),
    ]


def who_is_done(ctx: AppContext, names: list[str], done: list[bool]) -> ft.Control:
    rows = [
        tag(
            f"board-done-{seat}",
            ft.Row(
                [
                    ft.Icon(ft.Icons.CHECK_CIRCLE if done[seat] else ft.Icons.HOURGLASS_EMPTY, size=32),
                    big(names[seat], 28, bold=done[seat]),
                    big(ctx.t("done") if done[seat] else ctx.t("entering…"), 24),
                ],
                spacing=12,
            ),
        )
        for seat in range(len(names))
    ]
    return ft.Column(rows, spacing=8)


def keep_scores(ctx: AppContext, names: list[str], totals: list[int], lower_wins: bool) -> ft.Control:
    """The match's totals, the leader first."""
    order = sorted(range(len(names)), key=lambda s: totals[s], reverse=not lower_wins)
    scores = [
        tag(
            f"board-score-{seat}",
            ft.Row([big(names[seat], 28), ft.Container(expand=True), big(str(totals[seat]), 28, bold=True)]),
        )
        for seat in order
    ]
    return ft.Container(
        ft.Column([big(ctx.t("Scores"), 28, bold=True), *scores], spacing=6),
        padding=16,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
    )
