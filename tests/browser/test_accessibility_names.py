"""Everyone at the table (issue 52): with Flutter's semantics switched on, every control a screen reader can reach
on each main screen has a name it can say, in English and in German (the other two languages: every label the
code gives goes through the catalogs, which tests/test_catalogs_i18n.py holds complete); a saved round, a move
at a digital game and whose turn it is are announced. Both builds: the served app screen by screen, and one
pass of the static phone build over home, new game, round entry and the scoreboard.

A control counts as interactive by its role (button, checkbox, radio, switch, slider, tab, link, textbox,
combobox, menu item) or Flutter's `flt-tappable`; its name is its aria-label, its labelledby text, its text, or
for a text field its placeholder. Both the DOM of the `flt-semantics` nodes and Chromium's own accessibility
tree (the names it computes, as a screen reader gets them) are read.

An announcement lands as text in Flutter's `flt-announcement-polite` live region, for 300 ms only: a script put
in the page before the app loads keeps every text that passes through it (`window.__announced`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import OUTPUT, PHONE, UI, add_players, free_port, served, start_new_game
from steps import acts, extras_seed_data, present, tap_act, wait_totals

from scorekeeper.digital.session import PERSON, PlaySession, Seat, computer_seat
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.ui.i18n import Translator

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROLES = [
    "button",
    "checkbox",
    "radio",
    "switch",
    "slider",
    "tab",
    "link",
    "textbox",
    "searchbox",
    "combobox",
    "spinbutton",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
]

UNNAMED_IN_DOM = """(roles) => {
  const wanted = new Set(roles);
  const text = (e) => (e.textContent || "").trim();
  const nameOf = (e) => {
    const label = (e.getAttribute("aria-label") || "").trim();
    if (label) return label;
    const by = (e.getAttribute("aria-labelledby") || "").split(/\\s+/).filter(Boolean);
    const labelled = by.map((id) => text(document.getElementById(id) || document.createElement("i"))).join(" ");
    if (labelled.trim()) return labelled.trim();
    if (e.tagName === "INPUT" || e.tagName === "TEXTAREA") return (e.getAttribute("placeholder") || "").trim();
    return text(e);
  };
  const unnamed = [];
  for (const e of document.querySelectorAll("flt-semantics-host *")) {
    const field = e.tagName === "INPUT" || e.tagName === "TEXTAREA";
    const role = e.getAttribute("role") || (field ? "textbox" : "");
    if (!wanted.has(role) && !e.hasAttribute("flt-tappable")) continue;
    if (e.closest("[aria-hidden=true]")) continue;
    if (nameOf(e)) continue;
    const tagged = e.closest("[flt-semantics-identifier]");
    const where = tagged ? tagged.getAttribute("flt-semantics-identifier") : e.id;
    unnamed.push(`${role || "tappable"} in ${where}`);
  }
  return unnamed;
}"""

ANNOUNCEMENTS = """(() => {
  window.__announced = [];
  const watch = () => {
    const regions = document.querySelectorAll("flt-announcement-polite, flt-announcement-assertive");
    if (!regions.length) return setTimeout(watch, 50);
    const keep = () => regions.forEach((region) => {
      const said = (region.textContent || "").trim();
      if (said && window.__announced[window.__announced.length - 1] !== said) window.__announced.push(said);
    });
    regions.forEach((region) => new MutationObserver(keep).observe(region, {childList: true, subtree: true,
      characterData: true}));
  };
  watch();
})();"""


@dataclass
class Seeded:
    """The ids of what `seed` stored."""

    players: dict[str, str]
    running: dict[str, str]  # game -> a match under way (one round kept)
    over: str  # a finished Racko
    fresh: str  # a Ruck Zuck of Ann and Bob without a round yet
    play: str  # a digital Racko, Ann (a person) against Bo, Ann to move
    boards: dict[str, str]  # digital Rage and Ruck Zuck of Ann against two computer players, Ann to move


def seed(store: Store) -> Seeded:
    """Players, a match under way of each game, a finished one and a digital game (computer players instant)."""
    ids = {
        name: store.add_player(name, colour).id for name, colour in (("Ann", "#E53935"), ("Bob", "#1E88E5"))
    }
    ids["Cy"] = store.add_player("Cy", "#43A047").id

    def kept(game: str, options: dict[str, Any], names: list[str], rounds: list[dict[str, Any]]) -> str:
        match = Match.new(game, options, [ids[name] for name in names], names=names)
        for result in rounds:
            match = match.with_round(result)
        return store.save_match(match).id

    data = extras_seed_data()  # rounds known to be valid (tests/test_history_stats_data.py)
    racko = data._racko_rounds()
    running = {
        "racko": kept("racko", {}, ["Ann", "Bob"], racko[:1]),
        "rage": kept("rage", {"edition": "amigo"}, ["Ann", "Bob", "Cy"], data._rage_rounds()[:1]),
        "ruckzuck": kept("ruckzuck", {}, ["Ann", "Bob", "Cy"], data._ruckzuck_rounds()[:1]),
    }
    over = kept("racko", {}, ["Ann", "Bob"], racko)
    fresh = kept("ruckzuck", {}, ["Ann", "Bob"], [])
    seats = [Seat(PERSON, ids["Ann"], "Ann"), computer_seat("normal", 1, "Bo")]
    play = PlaySession.create(store, "racko", {}, seats, first_dealer=1, seed=27)
    assert play.to_act == 0, "Ann moves first"
    boards = {}
    for game in ("rage", "ruckzuck"):
        three = [*seats, computer_seat("easy", 2, "Cleo")]
        board = PlaySession.create(store, game, {}, three, first_dealer=2, seed=5)
        board.step_computer()  # up to Ann's turn
        boards[game] = board.saved.id
    store.set_setting("play_pace", "instant")
    return Seeded(ids, running, over, fresh, play.saved.id, boards)


def screens(seeded: Seeded) -> list[tuple[str, str]]:
    """Each main screen as (route, the identifier that says it is on screen)."""
    running = seeded.running
    return [
        ("/", "new-game"),
        ("/players", "player-name"),
        ("/new", "start-game"),
        *((f"/match/{running[game]}/round", "save-round") for game in ("racko", "rage", "ruckzuck")),
        (f"/match/{running['racko']}", "enter-round"),
        (f"/match/{running['racko']}/board", "board-exit"),
        ("/history", "history-game-all"),
        (f"/history/{seeded.over}", "history-delete"),
        ("/stats", "stats-game-all"),
        ("/stats/players", "player-stats-game-all"),
        ("/settings", "language-en"),
        ("/rules", "rules-game-racko"),
        ("/play/new", "start-game"),
        *((f"/play/{saved}", "play-panel") for saved in (seeded.play, *seeded.boards.values())),
        (f"/match/{seeded.over}/end", "play-again"),
    ]


def unnamed_controls(ui: UI) -> list[str]:
    """The interactive controls on screen without a name, as the DOM of Flutter's semantics nodes and as
    Chromium's accessibility tree (the name a screen reader gets) each tell."""
    ui.page.wait_for_timeout(300)  # the screen's last semantics updates come a frame after its first nodes
    missing = [f"DOM: {found}" for found in ui.page.evaluate(UNNAMED_IN_DOM, ROLES)]
    for node in accessibility_tree(ui):
        role, name = node.get("role", {}).get("value"), str(node.get("name", {}).get("value") or "")
        if role in ROLES and not name.strip():
            missing.append(f"tree: {role} (node {node.get('backendDOMNodeId')})")
    return missing


def accessibility_tree(ui: UI) -> list[dict[str, Any]]:
    """Chromium's accessibility tree of the page, the nodes a screen reader is given (not the ignored ones)."""
    session = ui.page.context.new_cdp_session(ui.page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    return [node for node in nodes if not node.get("ignored")]


def spoken(ui: UI) -> str:
    """What a screen reader reads on the screen, in order: Playwright's ARIA snapshot of Flutter's semantics
    tree (each node's role and name, the text between them)."""
    return str(ui.page.locator("flt-semantics-host").aria_snapshot())


def announced(ui: UI) -> list[str]:
    return list(ui.page.evaluate("window.__announced || []"))


def wait_announced(ui: UI, wanted: str, timeout: float = 15_000) -> list[str]:
    """Wait until an announcement containing `wanted` has passed through the live region; all so far."""
    try:
        ui.page.wait_for_function(
            "(wanted) => (window.__announced || []).some((said) => said.includes(wanted))",
            arg=wanted,
            timeout=timeout,
        )
    except Exception as error:
        raise AssertionError(f"{wanted!r} was not announced; announced: {announced(ui)}") from error
    return announced(ui)


@pytest.fixture(params=["en", "de"])
def seeded_phone(
    chromium: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[tuple[UI, Seeded, Any]]:
    """A phone-sized page (announcements kept) on the app serving freshly seeded data in `language`."""
    data = tmp_path / "data"
    data.mkdir()
    with Store.open(data) as store:
        seeded = seed(store)
        store.set_setting("language", request.param)
    with served(data) as url:
        context = chromium.new_context(viewport=PHONE)
        try:
            context.add_init_script(ANNOUNCEMENTS)
            yield UI(context.new_page(), url, f"a11y-{request.param}"), seeded, Translator(request.param)
        finally:
            context.close()


def test_every_control_on_every_main_screen_has_a_name(seeded_phone: tuple[UI, Seeded, Any]) -> None:
    ui, seeded, t = seeded_phone
    problems = []
    for route, ready in screens(seeded):
        ui.open(route, ready=ready)
        problems += [f"{route}: {found}" for found in unnamed_controls(ui)]
        back = ui.page.get_by_role("button", name=t("Back"), exact=True)
        if route == "/players" and not back.count():  # the back arrow speaks the screen's language
            problems.append(f"{route}: no button named {t('Back')!r} (the back arrow)")
    assert not problems, "controls without a name a screen reader can say:\n" + "\n".join(problems)


@pytest.mark.parametrize("seeded_phone", ["en"], indirect=True)
def test_a_saved_round_is_announced_with_every_total(seeded_phone: tuple[UI, Seeded, Any]) -> None:
    """Ruck Zuck, Ann goes out and Bob keeps 3, 17 and J (120): "Round 1 saved. Ann 0, Bob 120." The scoreboard
    after it, as a screen reader reads it, goes to tests/browser/output/a11y-scoreboard-spoken.txt."""
    ui, seeded, _ = seeded_phone
    ui.open(f"/match/{seeded.fresh}/round", ready="save-round")
    ui.tap("out-0")
    for card in ("3", "17", "J"):
        ui.tap(f"card-{card}")
    ui.wait_text("Penalty: 120")
    ui.tap("save-round")
    ui.wait_total(1, 120)
    said = wait_announced(ui, "Round 1 saved.")
    assert "Round 1 saved. Ann 0, Bob 120." in said, said
    assert not unnamed_controls(ui)
    OUTPUT.mkdir(exist_ok=True)
    listing = "\n".join(["announced: " + " | ".join(said), "", spoken(ui)])
    (OUTPUT / "a11y-scoreboard-spoken.txt").write_text(listing + "\n", encoding="utf-8")


@pytest.mark.parametrize("seeded_phone", ["en"], indirect=True)
def test_a_digital_move_and_the_turn_are_announced(seeded_phone: tuple[UI, Seeded, Any]) -> None:
    """Ann draws and places her card: her move is said; Bo (a computer player) moves: his move and then
    "Your turn." are said."""
    ui, seeded, _ = seeded_phone
    ui.open(f"/play/{seeded.play}", ready="play-panel")
    tap_act(ui, 'act-"stock"')
    wait_announced(ui, "You drew")
    while acts(ui) and not present(ui, 'act-"stock"'):  # where the drawn card goes: the first place offered
        tap_act(ui, acts(ui)[0])
    said = wait_announced(ui, "Your turn.")
    assert any(text.startswith("Bo ") or " Bo " in text for text in said), said
    assert said[-1].endswith("Your turn."), said


def test_the_players_screen_names_its_controls_after_a_player_is_added(
    seeded_phone: tuple[UI, Seeded, Any],
) -> None:
    """A screen changed by a tap (a new player's row with its rename, colour and archive buttons) too."""
    ui, _, _ = seeded_phone
    ui.open("/players", ready="player-name")
    add_players(ui, "Dee")
    assert not unnamed_controls(ui)


def test_the_static_build_names_its_controls_and_announces_a_saved_round(
    chromium: Any, tmp_path: Path
) -> None:
    """The phone build, one page load (Python runs in the page): home, players, new game, a Ruck Zuck round's
    entry and the scoreboard after it, every control named; the saved round announced."""
    from test_static_site import StaticUI, serve

    from scorekeeper.static import build as static_build

    site = tmp_path / "site"
    static_build.build(site)
    port = free_port()
    server = serve(site, port)
    context = chromium.new_context(viewport=PHONE, owner=False)
    try:
        context.add_init_script(ANNOUNCEMENTS)
        ui = StaticUI(context.new_page(), f"http://127.0.0.1:{port}/", "a11y-static")
        ui.console = []  # type: ignore[attr-defined]  # what Python in the page printed, for a failure
        ui.page.on("console", lambda message: ui.console.append(f"[{message.type}] {message.text}"))  # type: ignore[attr-defined]
        ui.start()
        problems = [f"home: {found}" for found in unnamed_controls(ui)]
        ui.open("/players", ready="player-name")
        add_players(ui, "Ann", "Bob")
        problems += [f"players: {found}" for found in unnamed_controls(ui)]
        ui.open("/new", ready="start-game")
        problems += [f"new game: {found}" for found in unnamed_controls(ui)]
        start_new_game(ui, "ruckzuck", ["Ann", "Bob"], dealer_seat=1)
        problems += [f"round entry: {found}" for found in unnamed_controls(ui)]
        ui.tap("out-0")
        for card in ("3", "17", "J"):
            ui.tap(f"card-{card}")
        ui.wait_text("Penalty: 120")
        ui.tap("save-round")
        wait_totals(ui, 0, 120)
        problems += [f"scoreboard: {found}" for found in unnamed_controls(ui)]
        said = wait_announced(ui, "Round 1 saved.")
        assert "Round 1 saved. Ann 0, Bob 120." in said, said
        assert not problems, "controls without a name a screen reader can say:\n" + "\n".join(problems)
    finally:
        context.close()
        server.kill()
        server.wait(timeout=10)
