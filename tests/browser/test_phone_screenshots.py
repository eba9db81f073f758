"""Phone-size (390x844) pictures of the screens people use most, in English and German (the longer strings),
to look at for cut-off text: the round entry of each game, the scoreboard, the history and the new-game screen.
Screenshots go to tests/browser/output/polish-<language>-<screen>.png; each test also checks what is on screen,
that the Racko message about a missing rack sits above the number pad, not over its last row, that the whole
Ruck Zuck pad fits above Save, and that the six Rage trump circles fit one row."""

from __future__ import annotations

import pytest
from conftest import OUTPUT, PHONE, UI
from steps import extras_seed_data, seeded_in_each_language

from scorekeeper.games.ruckzuck import JOKER
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.ui.i18n import Translator

pytestmark = pytest.mark.browser


def _seed(store: Store) -> dict[str, str]:
    """The extras data (three finished games, a running Racko of Bob and Cy) plus a running Ruck Zuck and
    Rage game; returns the running match ids by game."""
    seeded = extras_seed_data().seed_store(store)
    running = {"racko": seeded.running}
    names = ["Ann", "Bob", "Cy"]
    for game, options in (("ruckzuck", {}), ("rage", {"edition": "amigo"})):
        match = Match.new(game, options, [seeded.players[n] for n in names], names=names)
        match = store.save_match(match)
        running[game] = match.id
    return running


polish = seeded_in_each_language(_seed, "polish")


def shot(ui: UI, screen: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    ui.page.wait_for_timeout(400)
    (OUTPUT / f"{ui.name}-{screen}.png").write_bytes(ui.still())


def box(ui: UI, identifier: str) -> dict[str, float]:
    found = ui.node(identifier).bounding_box()
    assert found is not None, identifier
    return found


def test_phone_screenshots(polish: tuple[UI, dict, Translator]) -> None:
    ui, running, t = polish

    ui.open(f"/match/{running['racko']}/round", ready="save-round")
    ui.wait_text(t("Who called Racko?"))
    ui.tap("save-round", count=False)
    missing = t("Enter all 10 cards of {name}'s rack.", name="Bob")
    ui.wait_text(missing)
    shot(ui, "racko-round-error")
    # The message is in the form above the pad; the pad's last key is still below it and above Save.
    message = ui.page.get_by_text(missing).first.bounding_box()
    first_key, last_key, save = box(ui, "num-1"), box(ui, "num-40"), box(ui, "save-round")
    assert message is not None and message["y"] + message["height"] <= first_key["y"] + 1
    assert last_key["y"] + last_key["height"] <= save["y"] + 1

    ui.open(f"/match/{running['ruckzuck']}/round", ready="save-round")
    ui.wait_text(t("Save round"))
    shot(ui, "ruckzuck-round")
    # The whole 1-49 + joker pad fits above Save without scrolling, with keys still big enough to tap.
    save = box(ui, "save-round")
    for key in ("card-1", "card-49", f"card-{JOKER}"):
        found = box(ui, key)
        assert found["y"] + found["height"] <= save["y"] + 1, key
        assert min(found["width"], found["height"]) >= 40, key
    assert box(ui, f"card-{JOKER}")["y"] >= box(ui, "card-49")["y"]  # the joker is the last key

    ui.open(f"/match/{running['rage']}/round", ready="save-round")
    ui.wait_text("Cy")
    ui.wait_text(t("Trump: {colour}", colour=t("not set")))
    shot(ui, "rage-round")
    # The six trump circles share one row inside the phone's width (the label sits above them).
    circles = [box(ui, f"trump-{letter}") for letter in "rbgyov"]
    assert all(abs(c["y"] - circles[0]["y"]) < 2 for c in circles), circles
    assert circles[-1]["x"] + circles[-1]["width"] <= PHONE["width"]
    assert min(min(c["width"], c["height"]) for c in circles) >= 36

    ui.open(f"/match/{running['racko']}", ready="total-0")
    ui.wait_text("Bob")
    shot(ui, "scoreboard")

    ui.open("/history", ready="history-game-rage")
    ui.wait_text(t("All games"))
    ui.wait_text(t("Rage"))
    shot(ui, "history")
    # The four game filters fit one row on a phone: Rage sits beside All games, not under it.
    first, rage = box(ui, "history-game-all"), box(ui, "history-game-rage")
    assert abs(rage["y"] - first["y"]) < 2 and rage["x"] + rage["width"] <= PHONE["width"]

    ui.open("/new", ready="start-game")
    ui.wait_text(t("Rage"))
    shot(ui, "new-game")
    for game in ("ruckzuck", "rage"):
        ui.tap(f"game-{game}", count=False)
        ui.wait_text(t("Options"))
        shot(ui, f"new-game-{game}")

    ui.open(f"/match/{running['racko']}/round", ready="mode-quick")
    ui.tap("mode-quick", count=False)
    ui.wait_text(t("Ascending count"))
    shot(ui, "racko-quick")
