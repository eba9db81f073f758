"""Look at the Ruck Zuck and Rage play panels before the play screen exists (a script, not a test).

    python tests/browser/preview_panels.py serve --port 8600      # open /ruckzuck?lang=de&seed=3&steps=12
    python tests/browser/preview_panels.py shots                  # phone and tablet screenshots, en and de

A route names the game and the position: `/<game>?lang=de&seed=3&steps=12&players=4&select=J&last=1`
(`steps` random moves from the deal; then the others move at random until it is seat 0's turn; `select`
taps a choose- control first). Tapping a move plays it, the others answer at random. Screenshots go to
tests/browser/output/panel-*.png.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import flet as ft  # noqa: E402

from scorekeeper.games import rage, ruckzuck  # noqa: E402
from scorekeeper.ui.context import AppContext  # noqa: E402
from scorekeeper.ui.digital import rage_panel, ruckzuck_panel  # noqa: E402
from scorekeeper.ui.digital.kit import PanelContext  # noqa: E402
from scorekeeper.ui.i18n import Translator  # noqa: E402

NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay"]
OUTPUT = Path(__file__).with_name("output")
SHOTS = [  # (file name, route)
    ("ruckzuck-start", "/ruckzuck?seed=5&steps=0&players=3"),
    ("ruckzuck-joker", "/ruckzuck?seed=joker&players=3&select=J"),
    ("ruckzuck-blue", "/ruckzuck?seed=2&steps=14&players=2&side=blue&select=first"),
    ("rage-bid", "/rage?seed=9&steps=3&players=4&round=6&dealer=0"),
    ("rage-trick", "/rage?seed=9&steps=10&players=4&round=3&last=1"),
    ("rage-joker", "/rage?seed=joker&players=3&select=joker"),
]


def position(game: str, query: dict[str, str]) -> Any:
    seed = query.get("seed", "1")
    players = int(query.get("players", "4"))
    rng = random.Random(seed)
    if game == "rage" and seed == "joker":  # a hand with a joker and a no-trump card, the trick under way
        options = rage.RageOptions(players)
        hands = [
            ["W", "NT", "g4", "b7", "y12"],
            ["r5", "b2", "g2", "y2", "+5"],
            ["NT", "b9", "g9", "TC", "v1"],
        ]
        state = rage.arranged_round(options, hands, ["o4", "o5", "o6"], dealer=0)
        for action in (["bid", 1], ["bid", 2], ["bid", 1], ["play", "r5"], ["play", "NT"]):
            state.apply(action)
        return state, options
    if game == "ruckzuck" and seed == "joker":  # seat 0 holds a joker and cards that fit
        options = ruckzuck.RuckZuckOptions(players)
        mine, on_board = [17, 29, "J", 40, 2], {16: 16, 30: 30, 3: 3}
        used = [*mine, *on_board.values()]
        rest = [n for n in range(1, 50) if n not in used] + ["J"]
        hands = [mine, *(rest[5 * k : 5 * k + 5] for k in range(players - 1))]
        stock = rest[5 * (players - 1) :]
        return ruckzuck.RuckZuckState.from_position(options, hands, on_board, stock), options
    if game == "rage":
        options: Any = rage.RageOptions(players, edition=query.get("edition", "seed"))
        dealer = int(query.get("dealer", players - 1))
        state = rage.new_round(options, seed, dealer=dealer, round_index=int(query.get("round", "0")))
    else:
        options = ruckzuck.RuckZuckOptions(players, side=query.get("side", "red"))
        state = ruckzuck.new_round(options, seed, dealer=players - 1)
    for _ in range(int(query.get("steps", "0"))):
        if state.is_over:
            break
        legal = state.legal_actions()
        places = [a for a in legal if isinstance(a, list) and a[0] != "bid"]
        state.apply(rng.choice(places) if places and rng.random() < 0.8 else rng.choice(legal))
    others_move(state, rng)
    return state, options


def others_move(state: Any, rng: random.Random) -> None:
    while not state.is_over and state.current_player != 0:
        state.apply(rng.choice(state.legal_actions()))


def main(page: ft.Page) -> None:
    route = urllib.parse.urlparse(page.route or "/")
    game = route.path.strip("/") or "ruckzuck"
    query = dict(urllib.parse.parse_qsl(route.query))
    state, _ = position(game, query)
    rng = random.Random(0)
    ctx = AppContext(page=page, store=None, t=Translator(query.get("lang", "en")))
    page.theme = ft.Theme(color_scheme_seed=ft.Colors.INDIGO)
    page.theme_mode = ft.ThemeMode.LIGHT
    panel = rage_panel if game == "rage" else ruckzuck_panel
    holder = ft.Column(scroll=ft.ScrollMode.AUTO, expand=True)
    ui: dict[str, Any] = {}
    if query.get("last"):
        ui["show_last"] = True

    def act(action: Any) -> None:
        state.apply(action)
        others_move(state, rng)
        show()

    def show() -> None:
        pc = PanelContext(
            ctx=ctx,
            view=state.view(0),
            legal=state.legal_actions() if state.current_player == 0 else [],
            act=act,
            names=NAMES[: state.options.players],
            ui=ui,
            refresh=show,
        )
        built = panel.build(pc)
        if ctx.width >= 900:  # as the play screen lays it out: the move log beside the table
            log = ft.Container(ft.Text("(move log)", italic=True), bgcolor=ft.Colors.SURFACE_CONTAINER)
            built = ft.Row(
                [ft.Column([built], expand=3), ft.Column([log], expand=2)],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=24,
            )
        holder.controls = [built]
        page.update()

    def resized(event: Any) -> None:
        ctx.resized_width = float(getattr(event, "width", 0) or 0) or None
        show()

    page.on_resize = resized
    page.add(holder)
    select = query.get("select")
    if select:
        if select == "first":
            moves = [a for a in state.legal_actions() if isinstance(a, list)]
            select = str(moves[0][1]) if moves else None
        if select is not None:
            if game == "rage":
                ui["joker"] = True
            else:
                ui["selected"] = "J" if select == "J" else int(select)
    show()


def serve(port: int) -> None:
    os.environ.setdefault("FLET_FORCE_WEB_SERVER", "1")
    os.environ.setdefault("FLET_WEB_NO_CDN", "1")
    ft.run(main, host="127.0.0.1", port=port, view=ft.AppView.WEB_BROWSER, no_cdn=True)


def shots(port: int) -> None:
    from playwright.sync_api import sync_playwright

    from scorekeeper.bench.ui import CHROMIUM, FLAGS

    sys.path.insert(0, str(Path(__file__).parent))
    from conftest import wait_http

    env = {**os.environ, "FLET_FORCE_WEB_SERVER": "1", "FLET_WEB_NO_CDN": "1"}
    server = subprocess.Popen([sys.executable, __file__, "serve", "--port", str(port)], cwd=ROOT, env=env)
    OUTPUT.mkdir(exist_ok=True)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_http(url + "/")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for size_name, size in (("phone", (390, 844)), ("tablet", (1024, 768))):
                for lang in ("en", "de"):
                    for name, route in SHOTS:
                        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
                        page.goto(f"{url}{route}&lang={lang}")
                        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
                        page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
                        page.locator('[flt-semantics-identifier="hand"]').first.wait_for(
                            state="attached", timeout=30_000
                        )
                        page.wait_for_timeout(2500)
                        path = OUTPUT / f"panel-{name}-{size_name}-{lang}.png"
                        page.screenshot(path=str(path))
                        print(path)
                        page.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["serve", "shots"])
    parser.add_argument("--port", type=int, default=8600)
    args = parser.parse_args()
    if args.mode == "serve":
        serve(args.port)
    else:
        shots(args.port)
