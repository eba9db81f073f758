"""Digital play figures: per game, a human action to the next frame of the browser (computer players at the
"instant" pace), and the hard bot's decision time on the positions of played rounds (with the most players and
the default options, and with the game's `bench_setup`).

`python -m scorekeeper.bench play --json` prints {"play": {"<game>": {...}}}. A game whose play panel is not
installed yet reports `tap_to_frame_ms_median: null`.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from typing import Any

from scorekeeper.bench.chromium import percentile, served_browser
from scorekeeper.games.spec import GAMES
from scorekeeper.ui.registry import UIS

ROUNDS = 2
SETUP_ROUNDS = 10
TAPS = 12


def decision_times(
    game: Any, players: int, rounds: int = ROUNDS, settings: dict[str, Any] | None = None
) -> list[float]:
    """Milliseconds per decision of the hard bot, every seat hard, over `rounds` played rounds (the default
    options, or these `settings`)."""
    times: list[float] = []
    options = (
        game.default_options(players)
        if settings is None
        else game.Options(**{**settings, "players": players})
    )
    for index in range(rounds):
        state = game.new_round(options, 1000 + index, dealer=index % players)
        bots = [game.bots["hard"]() for _ in range(players)]
        while not state.is_over:
            seat = state.current_player
            view, legal = state.view(seat), state.legal_actions()
            start = time.perf_counter()
            action = bots[seat].choose(view, legal)
            times.append((time.perf_counter() - start) * 1000)
            state.apply(action)
    return times


def _seed_games(data_dir: str) -> dict[str, str]:
    """One digital game per game with a play panel: one person against computer players."""
    from scorekeeper.digital.session import PERSON, PlaySession, Seat, computer_seat
    from scorekeeper.store import Store

    store = Store.open(data_dir)
    store.set_setting("play_pace", "instant")
    person = store.add_player("Anna")
    saved: dict[str, str] = {}
    for game in GAMES:
        screens = UIS.get(game)
        if screens is None or screens.panel is None:
            continue
        seats = [
            Seat(PERSON, person.id, "Anna"),
            computer_seat("normal", 1, "Bo"),
            computer_seat("normal", 2, "Cleo"),
        ]
        session = PlaySession.create(store, game.key, {}, seats, seed=5)
        saved[game.key] = session.saved.id
    store.close()
    return saved


def _tap_times(browser: Any, url: str, saved_id: str) -> list[float]:
    """Milliseconds from the browser sending a tap on an offered action to the first frame the server sends
    back (the time Playwright takes to find and click the control is not the app's and is left out)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sent: list[float] = []
    received: list[float] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda _: sent.append(time.perf_counter()))
        ws.on("framereceived", lambda _: received.append(time.perf_counter()))

    page.on("websocket", watch)
    page.goto(url.rstrip("/") + f"/play/{saved_id}")
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_selector(
        "[flt-semantics-identifier='play-panel'], [flt-semantics-identifier='round-result']",
        state="attached",
        timeout=60_000,
    )
    times: list[float] = []
    for _ in range(TAPS * 3):
        if len(times) >= TAPS:
            break
        page.wait_for_timeout(300)  # quiet: the previous answer (and any computer moves) are on screen
        offered = page.locator("[flt-semantics-identifier^='act-']")
        if not offered.count():
            following = page.locator("[flt-semantics-identifier='next-round']")
            if following.count():
                following.first.click()
            continue
        sent_before = len(sent)
        offered.first.click()
        deadline = time.perf_counter() + 10
        while len(sent) == sent_before and time.perf_counter() < deadline:
            page.wait_for_timeout(2)
        if len(sent) == sent_before:
            continue
        tapped = sent[sent_before]
        while not any(t > tapped for t in received) and time.perf_counter() < deadline:
            page.wait_for_timeout(2)
        answers = [t for t in received if t > tapped]
        if answers:
            times.append((answers[0] - tapped) * 1000)
    context.close()
    return times


def run(as_json: bool = False) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for game in GAMES:
        times = decision_times(game, 4 if game.players[1] >= 4 else game.players[1])
        figures[game.key] = {
            "tap_to_frame_ms_median": None,
            "decision_ms_median": round(statistics.median(times), 2),
            "decision_ms_p95": round(percentile(times, 0.95), 2),
            "decisions": len(times),
        }
        # also where the game is measured elsewhere (`bench_setup`; Racko: heads-up, where "hard" races by
        # its learned models)
        players, settings = game.bench_setup
        times = decision_times(game, players, SETUP_ROUNDS, settings)
        figures[game.key]["bench_setup"] = {
            "players": players,
            "options": settings,
            "decision_ms_median": round(statistics.median(times), 2),
            "decision_ms_p95": round(percentile(times, 0.95), 2),
            "decisions": len(times),
        }
    data_dir = tempfile.mkdtemp(prefix="scorekeeper-bench-play-")
    saved = _seed_games(data_dir)
    with served_browser(data_dir) as (browser, url, _):
        for key, saved_id in saved.items():
            taps = _tap_times(browser, url, saved_id)
            if taps:
                figures[key]["tap_to_frame_ms_median"] = round(statistics.median(taps), 1)
                figures[key]["taps"] = len(taps)
    return {"play": figures}


if __name__ == "__main__":
    print(json.dumps(run(as_json=True)))
