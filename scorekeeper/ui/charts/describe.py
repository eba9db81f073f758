"""The app's three charts described from the statistics' numbers: a match's score progression, the share of wins,
and a player's games and wins per month.

Each takes the numbers as `scorekeeper.stats` gives them, the colours the screen chose and the translator, and
returns a `Chart` that holds every value it was given and no other. Nothing is counted here: the values are the
statistics' own, only laid on axes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorekeeper.stats.overview import Series as Line
from scorekeeper.stats.overview import WinShare
from scorekeeper.ui.charts.spec import Axis, Chart, Point, Series, nice_step, value_axis
from scorekeeper.ui.i18n import Translator

PROGRESSION_HEIGHT = 260
SHARE_SIZE = 220
MONTHS_HEIGHT = 200
ROUND_LABELS = 12
"""Up to this many rounds every round is labelled; beyond, round multiples of a step (5, 10, 15...)."""
MONTH_LABELS = 6
"""Up to this many months every month is labelled; beyond, every other one (the latest always)."""
PLAYED = "outline"
"""The colour of a month's games: the theme's outline (grey), beside the wins in the theme's primary colour."""
WON = "primary"


def progression(lines: Sequence[Line], colours: Sequence[str], t: Translator) -> Chart:
    """Totals after each round, one line per seat (per team for partners), `colours[i]` for `lines[i]`; x = 0 is
    the start (0, or the starting chips). The summary says every line's last total: the scoreboard's totals."""
    played = len(lines[0].values) - 1 if lines else 0
    rounds = max(played, 1)
    every = 1 if rounds <= ROUND_LABELS else nice_step(rounds, parts=8)
    series = tuple(
        Series(
            label=line.label,
            colour=colour,
            points=tuple(Point(x, value, f"{line.label}: {value}") for x, value in enumerate(line.values)),
        )
        for line, colour in zip(lines, colours, strict=True)
    )
    x = Axis(
        low=0,
        high=rounds,
        step=every,
        labels=tuple((float(i), str(i)) for i in range(every, rounds + 1, every)),
        title=t("Round"),
    )
    totals = ", ".join(f"{line.label} {line.values[-1]}" for line in lines if line.values)
    summary = t.plural(
        "Score progression after {n} round: {totals}",
        "Score progression after {n} rounds: {totals}",
        played,
        totals=totals,
    )
    return Chart(
        kind="line",
        identifier="progression-chart",
        summary=summary,
        series=series,
        height=PROGRESSION_HEIGHT,
        x=x,
        y=value_axis([p.y for s in series for p in s.points]),
        legend=tuple((s.colour, s.label) for s in series),
    )


def win_share(
    shares: Sequence[WinShare],
    colour_of: dict[str, str],
    names: dict[str, str],
    percent: Callable[[float], str],
    t: Translator,
) -> Chart:
    """One slice per player with a win, its size the wins and its label the share; the legend lists every
    player, those without a win too (it is the chart's table)."""
    named = [(s, names.get(s.player, s.name)) for s in shares]
    series = tuple(
        Series(label=name, colour=colour_of[s.player], points=(Point(index, s.wins, percent(s.share)),))
        for index, (s, name) in enumerate(named)
        if s.wins
    )
    legend = tuple(
        (
            colour_of[s.player],
            t("{name} · wins: {wins} ({share})", name=name, wins=s.wins, share=percent(s.share)),
        )
        for s, name in named
    )
    parts = "; ".join(
        t.plural(
            "{name}: {n} win ({share})",
            "{name}: {n} wins ({share})",
            s.wins,
            name=name,
            share=percent(s.share),
        )
        for s, name in named
    )
    return Chart(
        kind="share",
        identifier="win-share-chart",
        summary=t("Share of wins: {shares}", shares=parts),
        series=series,
        height=SHARE_SIZE,
        legend=legend,
    )


def months(
    counts: Sequence[tuple[str, int, int]],
    short: Callable[[str], str],
    long: Callable[[str], str],
    t: Translator,
) -> Chart:
    """Games and wins per month side by side, `counts` = (month "2026-03", games, wins) oldest first; `short`
    writes a month under its bars ("Mar 2026"), `long` in the summary ("March 2026")."""
    played = Series(
        label=t("Games"),
        colour=PLAYED,
        points=tuple(Point(i, games, str(games)) for i, (_m, games, _w) in enumerate(counts)),
    )
    won = Series(
        label=t("Wins"),
        colour=WON,
        points=tuple(Point(i, wins, str(wins)) for i, (_m, _g, wins) in enumerate(counts)),
    )
    x = Axis(
        low=0,
        high=max(len(counts) - 1, 0),
        step=1,
        labels=tuple((float(i), short(month)) for i, (month, _g, _w) in enumerate(counts)),
        every=1 if len(counts) <= MONTH_LABELS else 2,
    )
    each = "; ".join(
        t("{month}: games {games}, wins {wins}", month=long(month), games=games, wins=wins)
        for month, games, wins in counts
    )
    return Chart(
        kind="bar",
        identifier="player-stats-months-chart",
        summary=t("Games and wins per month: {months}", months=each),
        series=(played, won),
        height=MONTHS_HEIGHT,
        x=x,
        y=value_axis([float(g) for _m, g, _w in counts], parts=4),
        legend=((PLAYED, played.label), (WON, won.label)),
    )
