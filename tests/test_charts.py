"""Chart descriptions (scorekeeper/ui/charts): the numbers they hold, their grid steps and labels, their spoken
summaries in four languages, and both renderers (flet-charts, Flet's canvas) drawing every description.

The invariant that matters most: a description holds every value of the statistics it was made from, at the
right place, and nothing else (Hypothesis over arbitrary score progressions, shares and months)."""

from __future__ import annotations

import itertools
import math

import flet as ft
import flet.canvas as cv
import flet_charts as fch
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorekeeper.ui.charts.canvas as canvas
import scorekeeper.ui.charts.describe as describe
import scorekeeper.ui.charts.flet_charts as flet_renderer
from scorekeeper.stats.overview import Series as Line
from scorekeeper.stats.overview import WinShare
from scorekeeper.ui.charts import draw
from scorekeeper.ui.charts.spec import Axis, Chart, nice_step, text_width, value_axis
from scorekeeper.ui.i18n import Translator

EN = Translator("en")
COLOURS = ("#E53935", "#1E88E5", "#43A047", "#FB8C00", "#8E24AA", "#00ACC1")


def percent(share: float) -> str:
    return f"{round(share * 100, 1):g}%"


def lines_of(values: list[list[int]]) -> list[Line]:
    return [Line(label=f"P{i}", seats=(i,), values=tuple(v)) for i, v in enumerate(values)]


totals = st.integers(min_value=-500, max_value=2000)
progressions = st.integers(min_value=0, max_value=40).flatmap(
    lambda rounds: st.lists(
        st.lists(totals, min_size=rounds + 1, max_size=rounds + 1), min_size=1, max_size=6
    )
)
month_counts = st.lists(
    st.integers(min_value=1, max_value=60).flatmap(lambda g: st.tuples(st.just(g), st.integers(0, g))),
    min_size=1,
    max_size=12,
).map(lambda counts: [(f"2026-{i + 1:02d}", g, w) for i, (g, w) in enumerate(counts)])
win_counts = st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=6)


def shares_of(wins: list[int]) -> list[WinShare]:
    total = sum(wins)
    return [WinShare(f"p{i}", f"Name{i}", w, w / total if total else 0.0) for i, w in enumerate(wins)]


def share_chart(wins: list[int], t: Translator = EN) -> Chart:
    shares = shares_of(wins)
    colour_of = {s.player: COLOURS[i] for i, s in enumerate(shares)}
    return describe.win_share(shares, colour_of, {}, percent, t)


def months_chart(counts: list[tuple[str, int, int]], t: Translator = EN) -> Chart:
    return describe.months(counts, lambda m: f"M{m[5:]} {m[:4]}", lambda m: f"Month {m}", t)


# ---------------------------------------------------------------- steps and axes


def test_nice_steps() -> None:
    assert [nice_step(s) for s in (0, 3, 5, 7, 12, 40, 99, 240, 1000)] == [1, 1, 1, 2, 5, 10, 20, 50, 200]
    assert nice_step(-4) == 1 and nice_step(12, parts=4) == 5


@settings(deadline=None)  # no deadline: a loaded machine must not fail a test
@given(st.floats(min_value=0.01, max_value=1e7), st.integers(min_value=1, max_value=10))
def test_a_step_cuts_the_span_into_at_most_about_the_parts_asked(span: float, parts: int) -> None:
    step = nice_step(span, parts=parts)
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert mantissa in (1, 2, 5)
    assert span / step <= parts + 1e-9 or step == 1


@settings(deadline=None)  # no deadline: a loaded machine must not fail a test
@given(st.lists(totals, min_size=1, max_size=50), st.integers(min_value=2, max_value=8))
def test_a_value_axis_holds_every_value_and_zero_on_grid_lines(values: list[int], parts: int) -> None:
    axis = value_axis([float(v) for v in values], parts=parts)
    assert axis.low <= min(0, *values) and axis.high >= max(0, *values)
    assert axis.low % axis.step == 0 and axis.high % axis.step == 0 and axis.high > axis.low
    assert [v for v, _ in axis.labels] == [axis.low + k * axis.step for k in range(len(axis.labels))]
    assert axis.labels[-1][0] == axis.high and all(text == str(int(v)) for v, text in axis.labels)
    assert len(axis.labels) <= parts + 3  # the span's pieces, a piece more at each end at most


def test_shown_labels_keep_the_last() -> None:
    axis = Axis(low=0, high=6, step=1, labels=tuple((float(i), str(i)) for i in range(7)), every=2)
    assert [text for _v, text in axis.shown()] == ["0", "2", "4", "6"]
    assert [text for _v, text in axis.shown(3)] == ["0", "3", "6"]
    assert [text for _v, text in axis.shown(1)] == [str(i) for i in range(7)]


# ---------------------------------------------------------------- the three descriptions


@settings(deadline=None)  # no deadline: a loaded machine must not fail a test
@given(progressions)
def test_a_progression_holds_every_total_and_nothing_else(values: list[list[int]]) -> None:
    lines = lines_of(values)
    chart = describe.progression(lines, list(COLOURS[: len(lines)]), EN)
    assert chart.kind == "line" and chart.identifier == "progression-chart"
    assert [s.label for s in chart.series] == [line.label for line in lines]
    assert [s.colour for s in chart.series] == list(COLOURS[: len(lines)])
    for series, line in zip(chart.series, lines, strict=True):
        assert [(p.x, p.y) for p in series.points] == list(enumerate(line.values))
        assert [p.label for p in series.points] == [f"{line.label}: {v}" for v in line.values]
    assert chart.x is not None and chart.y is not None
    rounds = len(values[0]) - 1
    assert chart.x.low == 0 and chart.x.high == max(rounds, 1)
    assert all(chart.y.low <= v <= chart.y.high for v in chart.values())
    labelled = [int(v) for v, _ in chart.x.labels]
    assert labelled[-1] <= max(rounds, 1) and all(v % chart.x.step == 0 for v in labelled)
    assert len(labelled) <= 12 or rounds > 12
    for line in lines:
        assert f"{line.label} {line.values[-1]}" in chart.summary
    assert chart.legend == tuple((s.colour, s.label) for s in chart.series)


def test_a_progression_says_the_totals_after_the_rounds() -> None:
    lines = [Line("Anna", (0,), (0, 50, 150)), Line("Ben", (1,), (0, 70, 120))]
    chart = describe.progression(lines, ["#E53935", "#1E88E5"], EN)
    assert chart.summary == "Score progression after 2 rounds: Anna 150, Ben 120"
    one = describe.progression([Line("Anna", (0,), (0, 5))], ["#E53935"], EN)
    assert one.summary == "Score progression after 1 round: Anna 5"
    assert chart.y == value_axis([0, 50, 150, 0, 70, 120])
    assert [text for _v, text in chart.y.labels] == ["0", "50", "100", "150"]
    assert [text for _v, text in chart.x.labels] == ["1", "2"] and chart.x.title == "Round"


@pytest.mark.parametrize(
    ("language", "progression", "share", "months"),
    [
        (
            "de",
            "Punkteverlauf nach 2 Runden: Anna 150, Ben 120",
            "Anteil an den Siegen: Name0: 3 Siege (75%); Name1: 1 Sieg (25%)",
            "Spiele und Siege pro Monat: Month 2026-03: Spiele 4, Siege 2",
        ),
        (
            "nl",
            "Puntenverloop na 2 rondes: Anna 150, Ben 120",
            "Aandeel in de overwinningen: Name0: 3 overwinningen (75%); Name1: 1 overwinning (25%)",
            "Spellen en overwinningen per maand: Month 2026-03: spellen 4, overwinningen 2",
        ),
        (
            "fr",
            "Évolution des scores après 2 manches\u00a0: Anna 150, Ben 120",
            "Part des victoires\u00a0: Name0\u00a0: 3 victoires (75%); Name1\u00a0: 1 victoire (25%)",
            "Parties et victoires par mois\u00a0: Month 2026-03\u00a0: parties 4, victoires 2",
        ),
    ],
)
def test_summaries_are_said_in_the_apps_language(
    language: str, progression: str, share: str, months: str
) -> None:
    t = Translator(language)
    lines = [Line("Anna", (0,), (0, 50, 150)), Line("Ben", (1,), (0, 70, 120))]
    assert describe.progression(lines, ["#E53935", "#1E88E5"], t).summary == progression
    assert share_chart([3, 1], t).summary == share
    assert months_chart([("2026-03", 4, 2)], t).summary == months


@settings(deadline=None)  # no deadline: a loaded machine must not fail a test
@given(win_counts)
def test_a_share_has_a_slice_per_winner_and_lists_everyone(wins: list[int]) -> None:
    chart = share_chart(wins)
    assert chart.kind == "share" and chart.identifier == "win-share-chart"
    assert [(s.label, s.points[0].y) for s in chart.series] == [
        (f"Name{i}", w) for i, w in enumerate(wins) if w
    ]
    assert all(len(s.points) == 1 for s in chart.series)
    assert len(chart.legend) == len(wins)  # the players without a win too
    for i, w in enumerate(wins):
        assert f"Name{i}: {w} win" in chart.summary
        assert chart.legend[i][0] == COLOURS[i]


def test_a_share_uses_the_players_saved_names() -> None:
    shares = shares_of([2, 1])
    chart = describe.win_share(shares, {"p0": "#111111", "p1": "#222222"}, {"p0": "Anna"}, percent, EN)
    assert chart.legend == (("#111111", "Anna · wins: 2 (66.7%)"), ("#222222", "Name1 · wins: 1 (33.3%)"))
    assert chart.summary == "Share of wins: Anna: 2 wins (66.7%); Name1: 1 win (33.3%)"
    assert [p.label for s in chart.series for p in s.points] == ["66.7%", "33.3%"]


def test_a_small_slice_is_drawn_without_its_label() -> None:
    """Labels inside slices under 8 % of the whole would run into their neighbours; the legend says them."""
    chart = share_chart([40, 1, 3, 0, 12])
    assert chart.slices() == [
        ("#E53935", 40, "71.4%"),
        ("#1E88E5", 1, ""),
        ("#43A047", 3, ""),
        ("#8E24AA", 12, "21.4%"),
    ]
    pie = flet_renderer.draw(chart)
    assert isinstance(pie, fch.PieChart) and [s.title for s in pie.sections] == ["71.4%", "", "", "21.4%"]
    assert [len(entry) for entry in chart.legend] == [2] * 5 and "1.8%" in chart.legend[1][1]


@settings(deadline=None)  # no deadline: a loaded machine must not fail a test
@given(month_counts)
def test_months_hold_every_count_once(counts: list[tuple[str, int, int]]) -> None:
    chart = months_chart(counts)
    games, wins = chart.series
    assert [(p.x, p.y) for p in games.points] == [(i, g) for i, (_m, g, _w) in enumerate(counts)]
    assert [(p.x, p.y) for p in wins.points] == [(i, w) for i, (_m, _g, w) in enumerate(counts)]
    assert chart.x is not None and chart.y is not None
    assert [text for _v, text in chart.x.labels] == [f"M{m[5:]} {m[:4]}" for m, _g, _w in counts]
    assert chart.x.every == (1 if len(counts) <= 6 else 2)
    assert chart.x.shown()[-1] == chart.x.labels[-1]  # the latest month is always written
    assert chart.y.low == 0 and chart.y.high >= max(g for _m, g, _w in counts)
    assert chart.legend == (("outline", "Games"), ("primary", "Wins"))


# ---------------------------------------------------------------- renderers


def shapes_of(control: cv.Canvas) -> list[cv.Shape]:
    return list(control.shapes)


def inside(x: float, y: float, width: float, height: float) -> bool:
    return -0.01 <= x <= width + 0.01 and -0.01 <= y <= height + 0.01


def points_of(drawn: cv.Canvas, mode: cv.PointMode) -> list[cv.Points]:
    return [s for s in shapes_of(drawn) if isinstance(s, cv.Points) and s.point_mode == mode]


def xy(point: object) -> tuple[float, float]:
    assert isinstance(point, tuple)
    return point[0], point[1]


@settings(max_examples=60, deadline=None)
@given(progressions, st.sampled_from([250.0, 354.0, 876.0]))
def test_the_canvas_draws_a_dot_inside_the_chart_for_every_total(
    values: list[list[int]], width: float
) -> None:
    chart = describe.progression(lines_of(values), list(COLOURS[: len(values)]), EN)
    drawn = canvas.draw(chart, width)
    dots = points_of(drawn, cv.PointMode.POINTS)
    assert [len(d.points or []) for d in dots] == [len(v) for v in values]  # a dot per total, per line
    assert all(inside(*xy(p), width, chart.height) for d in dots for p in d.points or [])
    assert [d.paint.color for d in dots] == list(COLOURS[: len(values)])
    lines = points_of(drawn, cv.PointMode.POLYGON)
    assert [line.points for line in lines] == [d.points for d in dots if len(d.points or []) > 1]
    for dot_set, line in zip(dots, values, strict=True):  # higher totals higher up (y grows downwards)
        heights = [xy(p)[1] for p in dot_set.points or []]
        assert all(
            (a < b) == (va > vb)
            for (a, va), (b, vb) in itertools.combinations(zip(heights, line, strict=True), 2)
            if va != vb
        )


@settings(deadline=None)  # no deadline: a loaded machine must not fail a test
@given(month_counts, st.sampled_from([250.0, 354.0]))
def test_the_canvas_draws_a_bar_for_every_count_and_labels_that_do_not_touch(
    counts: list[tuple[str, int, int]], width: float
) -> None:
    chart = months_chart(counts, Translator("de"))
    drawn = canvas.draw(chart, width)
    rods = points_of(drawn, cv.PointMode.LINES)[1:]  # the first: the grid
    for rod, series in zip(rods, [s for s in chart.series if any(p.y for p in s.points)], strict=True):
        ends = [xy(p) for p in rod.points or []]
        assert all(inside(*end, width, chart.height) for end in ends)
        heights = [bottom[1] - top[1] for bottom, top in zip(ends[::2], ends[1::2], strict=True)]
        values = [p.y for p in series.points if p.y]
        assert len(heights) == len(values)  # a bar for every count above 0
        assert all(
            h == pytest.approx(v / values[0] * heights[0]) for h, v in zip(heights, values, strict=True)
        )
    labels = [
        s for s in shapes_of(drawn) if isinstance(s, cv.Text) and s.alignment == ft.Alignment.TOP_CENTER
    ]
    assert labels[-1].value == chart.x.labels[-1][1]  # type: ignore[union-attr]
    for left, right in itertools.pairwise(labels):
        room = text_width(str(left.value), canvas.BAR_LABEL_SIZE) / 2 + text_width(str(right.value), 10) / 2
        assert right.x - left.x >= room


@settings(deadline=None)  # no deadline: a loaded machine must not fail a test
@given(win_counts)
def test_the_canvas_draws_a_slice_per_winner(wins: list[int]) -> None:
    chart = share_chart(wins)
    drawn = canvas.draw(chart, 390)
    arcs = [s for s in shapes_of(drawn) if isinstance(s, cv.Arc)]
    if any(wins):
        assert [a.paint.color for a in arcs] == [COLOURS[i] for i, w in enumerate(wins) if w]
        sweeps = sum(a.sweep_angle for a in arcs)
        assert sweeps == pytest.approx(2 * math.pi, abs=0.04 * len(arcs))
        written = [t.value for t in shapes_of(drawn) if isinstance(t, cv.Text)]
        assert written == [p.label for s in chart.series for p in s.points if p.y >= 0.08 * sum(wins)]
    else:
        assert len(arcs) == 1  # the empty ring


def test_the_canvas_redraws_only_for_another_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """The width the screen expects is the one the client reports: the first resize event draws nothing new
    (no second message per save); a window made narrower does redraw."""
    chart = describe.progression(lines_of([[0, 10, 30], [0, 20, 25]]), list(COLOURS[:2]), EN)
    drawn = canvas.draw(chart, 354)
    first = drawn.shapes
    updates: list[int] = []
    monkeypatch.setattr(cv.Canvas, "update", lambda self: updates.append(1))
    assert drawn.on_resize is not None
    drawn.on_resize(cv.CanvasResizeEvent(name="resize", control=drawn, width=354.4, height=260))
    assert drawn.shapes is first and not updates
    drawn.on_resize(cv.CanvasResizeEvent(name="resize", control=drawn, width=300, height=260))
    assert updates == [1] and drawn.shapes is not first
    right_most = max(xy(p)[0] for d in points_of(drawn, cv.PointMode.POINTS) for p in d.points or [])
    assert right_most <= 300


def every_kind() -> list[Chart]:
    lines = lines_of([[0, 10, 25, 40], [0, -5, 15, 60]])
    return [
        describe.progression(lines, list(COLOURS[:2]), EN),
        share_chart([3, 0, 1]),
        months_chart([("2026-01", 3, 1), ("2026-02", 5, 5)]),
    ]


@pytest.mark.parametrize("chart", every_kind(), ids=lambda c: c.kind)
def test_flet_charts_draw_every_description(chart: Chart) -> None:
    control = flet_renderer.draw(chart)
    if chart.kind == "line":
        assert isinstance(control, fch.LineChart)
        drawn = [[(p.x, p.y) for p in series.points] for series in control.data_series]
        assert drawn == [[(p.x, p.y) for p in s.points] for s in chart.series]
        assert [c.color for c in control.data_series] == [s.colour for s in chart.series]
        assert (control.min_y, control.max_y) == (chart.y.low, chart.y.high)  # type: ignore[union-attr]
    elif chart.kind == "bar":
        assert isinstance(control, fch.BarChart)
        rods = [[rod.to_y for rod in group.rods] for group in control.groups]
        assert rods == [[3, 1], [5, 5]]
    else:
        assert isinstance(control, fch.PieChart)
        assert [(s.value, s.title) for s in control.sections] == [(3, "75%"), (1, "25%")]


@pytest.mark.parametrize("chart", every_kind(), ids=lambda c: c.kind)
@pytest.mark.parametrize("with_flet_charts", [True, False])
def test_the_drawn_chart_is_one_image_named_by_its_summary(chart: Chart, with_flet_charts: bool) -> None:
    control = draw.chart_control(chart, 366, flet_charts=with_flet_charts)
    assert isinstance(control, ft.Semantics)
    assert control.identifier == chart.identifier and control.label == chart.summary
    assert control.image and control.exclude_semantics
    body = control.content.content  # type: ignore[union-attr]
    assert isinstance(body, cv.Canvas) != with_flet_charts
    assert type(body).__module__.startswith("flet_charts") == with_flet_charts
