"""Every main screen holds at 200 % text size on a 390 x 844 phone (issue 52, "Everyone at the table").

Flutter's web engine takes the text scale from the root element's font size (16 px is 1.0) and watches it, as a
browser's own text-size setting changes it; so a page whose `<html>` says 32 px draws every text at twice its
size. The first test proves that Flutter follows it (a card of home grows); the others open each screen at 32 px
and read Flutter's accessibility tree:

- every node that says something lies within the phone's 390 px width (nothing pushed off the side);
- no two innermost nodes with text overlap (no text drawn over other text);
- after scrolling to the end, nothing that says something is left below the screen (all of it reachable).

Screens that are cut where the semantics tree cannot tell (a text that ends in "…") are looked at in the
screenshots, tests/browser/output/text-scale-<screen>.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import OUTPUT, PHONE, UI, served
from steps import extras_seed_data

from scorekeeper.model.match import Match
from scorekeeper.store import Store

# one worker for the module under `--dist loadgroup`: its seeded app is served once
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("test_text_scale")]

ROOT_SIZE = "32px"  # twice the browser's 16 px: Flutter's text scale 2.0
SLACK = 1.5  # px: Flutter rounds semantics boxes to fractions of a pixel
# A page's first script runs before its <html> element exists: set the size as soon as the parser adds it.
ENLARGE = f"""new MutationObserver((_, watch) => {{
  if (document.documentElement) {{ document.documentElement.style.fontSize = '{ROOT_SIZE}'; watch.disconnect(); }}
}}).observe(document, {{childList: true}});"""
LONG = ("Maximiliane Oberhausen-Grünwald", "Bartholomäus Fitzgerald-Wong", "Jo")

# The nodes of Flutter's accessibility tree with their boxes: what each says (its label or its own text), whether
# it is innermost (no node inside), its box on screen and the part of it that its scrolling ancestors show
# (`seen`: a node scrolled out of a list keeps its box in the tree, under what stays fixed below the list, such
# as the Save button). Nodes of no size are hidden.
NODES = """() => [...document.querySelectorAll('flt-semantics')].map(n => {
  const r = n.getBoundingClientRect();
  const own = [...n.childNodes].filter(c => c.nodeType === 3).map(c => c.textContent).join('').trim();
  let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
  for (let up = n.parentElement; up; up = up.parentElement) {
    if (up.tagName !== 'FLT-SEMANTICS' || !/auto|scroll|hidden/.test(getComputedStyle(up).overflow)) continue;
    const c = up.getBoundingClientRect();
    [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top), Math.min(right, c.right),
                                  Math.min(bottom, c.bottom)];
  }
  return {says: (n.getAttribute('aria-label') || own || '').trim(), leaf: !n.querySelector('flt-semantics'),
          id: n.getAttribute('flt-semantics-identifier'), x: r.x, y: r.y, w: r.width, h: r.height,
          seen: {x: left, y: top, w: Math.max(0, right - left), h: Math.max(0, bottom - top)}};
}).filter(n => n.says && n.w > 0 && n.h > 0)"""


def _seed(data: Path) -> dict[str, str]:
    """Long names at a running game of each of the three games with some rounds, a finished game (its end
    screen) and the extras data (history and statistics with several games); returns routes' ids."""
    rounds = extras_seed_data()
    with Store.open(data) as store:
        rounds.seed_store(store)
        ids = [store.add_player(name).id for name in LONG]
        made: dict[str, str] = {}
        plan: tuple[tuple[str, str, dict[str, Any], int, list[dict[str, Any]]], ...] = (
            ("racko", "racko", {}, 2, rounds._racko_rounds()[:4]),
            ("won", "racko", {}, 2, rounds._racko_rounds()),
            ("rage", "rage", {"edition": "amigo"}, 3, rounds._rage_rounds()[:4]),
            ("ruckzuck", "ruckzuck", {}, 3, rounds._ruckzuck_rounds()[:2]),
        )
        for key, game, options, seats, results in plan:
            match = Match.new(game, options, ids[:seats], names=list(LONG[:seats]))
            for result in results:
                match = match.with_round(result)
            made[key] = store.save_match(match).id
    return made


@pytest.fixture(scope="module")
def big_text(
    chromium: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Any, str, dict[str, str]]]:
    """A phone-sized browser context whose pages have a root font size of 32 px from the first script on, the
    URL of the app serving the seeded data, and the seeded ids; one for the module."""
    data = tmp_path_factory.mktemp("text-scale") / "data"
    data.mkdir()
    made = _seed(data)
    with served(data) as url:
        context = chromium.new_context(viewport=PHONE)
        context.add_init_script(ENLARGE)
        try:
            yield context, url, made
        finally:
            context.close()


@pytest.fixture
def big(big_text: tuple[Any, str, dict[str, str]]) -> Iterator[tuple[UI, dict[str, str]]]:
    """A page of its own for each test (a screen left behind cannot disturb the next one)."""
    context, url, made = big_text
    page = context.new_page()
    try:
        yield UI(page, url, "text-scale"), made
    finally:
        page.close()


def nodes(ui: UI) -> list[dict[str, Any]]:
    return ui.page.evaluate(NODES)


def outside(found: list[dict[str, Any]]) -> list[str]:
    """Nodes reaching past the phone's left or right edge."""
    return [
        f"{n['says'][:60]!r} at x {n['x']:.0f}..{n['x'] + n['w']:.0f}"
        for n in found
        if n["x"] < -SLACK or n["x"] + n["w"] > PHONE["width"] + SLACK
    ]


def overlapping(found: list[dict[str, Any]]) -> list[str]:
    """Pairs of innermost nodes with text whose shown parts share more than a sliver."""
    leaves = [
        n["seen"] | {"says": n["says"]} for n in found if n["leaf"] and n["seen"]["w"] and n["seen"]["h"]
    ]
    pairs = []
    for i, a in enumerate(leaves):
        for b in leaves[i + 1 :]:
            wide = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            high = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if wide > SLACK and high > SLACK:
                pairs.append(f"{a['says'][:40]!r} / {b['says'][:40]!r} ({wide:.0f} x {high:.0f} px)")
    return pairs


def scroll_to_end(ui: UI, limit: int = 60) -> None:
    """Scroll the screen down with the mouse wheel, as a player swipes, until the tree stops moving."""
    ui.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
    before = None
    for _ in range(limit):
        ui.page.mouse.wheel(0, 500)
        ui.page.wait_for_timeout(250)
        now = [(n["says"], round(n["y"])) for n in nodes(ui)]
        if now == before:
            return
        before = now


def check(ui: UI, screen: str) -> None:
    """The three checks of the module docstring on the screen shown now, with a screenshot of its top."""
    root = ui.page.evaluate("getComputedStyle(document.documentElement).fontSize")
    assert root == ROOT_SIZE, f"{screen}: the page's root font size is {root}"
    ui.page.wait_for_timeout(600)
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"text-scale-{screen}.png").write_bytes(ui.still())
    problems = []
    found = nodes(ui)
    assert found, f"{screen}: the accessibility tree is empty: {ui.diagnosis()}"
    problems += [f"off the side: {p}" for p in outside(found)]
    problems += [f"overlap: {p}" for p in overlapping(found)]
    scroll_to_end(ui)
    (OUTPUT / f"text-scale-{screen}-end.png").write_bytes(ui.still())
    found = nodes(ui)
    problems += [f"off the side (scrolled): {p}" for p in outside(found)]
    problems += [f"overlap (scrolled): {p}" for p in overlapping(found)]
    problems += [
        f"below the screen after scrolling to the end: {n['says'][:60]!r} at y {n['y']:.0f}"
        for n in found
        if n["y"] + n["h"] > PHONE["height"] + SLACK
    ]
    assert not problems, f"{screen} at 200 % text:\n" + "\n".join(problems)


def test_flutter_takes_the_text_scale_from_the_root_font_size(chromium: Any, app_url: str) -> None:
    context = chromium.new_context(viewport=PHONE)
    try:
        ui = UI(context.new_page(), app_url, "text-scale-root")
        ui.open()
        card = ui.node("start-racko")
        normal = card.bounding_box()
        assert normal is not None
        ui.page.evaluate(f"document.documentElement.style.fontSize = '{ROOT_SIZE}'")
        grown = normal["height"]
        for _ in range(50):
            ui.page.wait_for_timeout(100)
            found = card.bounding_box()
            grown = found["height"] if found else grown
            if grown >= normal["height"] * 1.3:
                break
        assert grown >= normal["height"] * 1.3, (normal, grown)
    finally:
        context.close()


# (screen, route: ids of the seeded matches filled in, the node it is ready with)
SCREENS = (
    ("home", "/", "new-game"),
    ("players", "/players", "player-name"),
    ("new-game", "/new", "start-game"),
    ("racko-round", "/match/{racko}/round", "save-round"),
    ("ruckzuck-round", "/match/{ruckzuck}/round", "save-round"),
    ("rage-round", "/match/{rage}/round", "save-round"),
    ("scoreboard", "/match/{rage}", "total-0"),
    ("racko-scoreboard", "/match/{racko}", "total-0"),
    ("game-end", "/match/{won}/end", "winners"),
    ("history", "/history", "history-game-all"),
    ("statistics", "/stats", "stats-game-all"),
    ("settings", "/settings", "language-en"),
    ("rulebook", "/rules?game=racko", "rules-text-racko"),
)


@pytest.mark.parametrize(("screen", "route", "ready"), SCREENS, ids=[s[0] for s in SCREENS])
def test_screen_holds_at_200_percent_text(
    big: tuple[UI, dict[str, str]], screen: str, route: str, ready: str
) -> None:
    ui, made = big
    ui.open(route.format(**made), ready=ready)
    check(ui, screen)


def test_digital_game_holds_at_200_percent_text(big: tuple[UI, dict[str, str]]) -> None:
    ui, _ = big
    ui.open("/", ready="play-racko")
    ui.tap("play-racko", count=False)
    ui.wait("start-game")
    ui.tap("start-game", count=False)
    ui.wait("play-panel", timeout=30_000)
    check(ui, "digital-racko")


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_app_draws_the_pinned_scheme(chromium: Any, tmp_path: Path, theme: str) -> None:
    """The colours tests/test_contrast.py checks are the ones on screen: the page's background is the pinned
    scheme's surface in either theme (screenshots of home and a scoreboard: text-scale-<theme>-*.png)."""
    from io import BytesIO

    from PIL import Image

    from scorekeeper.ui import palette

    data = tmp_path / "data"
    data.mkdir()
    with Store.open(data) as store:
        ids = [store.add_player(name).id for name in LONG]
        match = Match.new("rage", {"edition": "amigo"}, ids, names=list(LONG))
        for result in extras_seed_data()._rage_rounds()[:3]:
            match = match.with_round(result)
        running = store.save_match(match).id
        store.set_setting("theme", theme)
    surface = (palette.DARK if theme == "dark" else palette.LIGHT)["surface"]
    expected = tuple(int(surface[i : i + 2], 16) for i in (1, 3, 5))
    with served(data) as url:
        context = chromium.new_context(viewport=PHONE)
        try:
            ui = UI(context.new_page(), url, f"text-scale-{theme}")
            for screen, route, ready in (
                ("home", "/", "new-game"),
                ("scoreboard", f"/match/{running}", "total-0"),
            ):
                ui.open(route, ready=ready)
                ui.page.wait_for_timeout(600)
                picture = ui.still()
                OUTPUT.mkdir(exist_ok=True)
                (OUTPUT / f"text-scale-{theme}-{screen}.png").write_bytes(picture)
                corner = (
                    Image.open(BytesIO(picture))
                    .convert("RGB")
                    .getpixel((PHONE["width"] - 3, PHONE["height"] - 3))
                )
                assert corner == expected, (screen, corner, surface)
        finally:
            context.close()
