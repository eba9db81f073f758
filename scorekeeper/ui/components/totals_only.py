"""How a list names the rounds of a game: their number, or, for a game imported with its final totals only (a
BG Stats play, `Match.final_totals`), that its rounds are not known."""

from __future__ import annotations

from scorekeeper.store.records import MatchSummary
from scorekeeper.ui.context import AppContext


def rounds_line(ctx: AppContext, summary: MatchSummary) -> str:
    """ "Rounds: 4", or "Final scores only" for a finished game without rounds (only an imported one is)."""
    if summary.status == "finished" and summary.rounds == 0:
        return ctx.t("Final scores only")
    return ctx.t("Rounds: {n}", n=summary.rounds)
