"""The story of a game night, end to end in a real browser at phone size (issue 42's walk-through): a Ruck Zuck
game played earlier that evening at Anna's kitchen; a digital Rage game against two computer players whose last
round Anna plays here, and whose place she sets afterwards; then a Racko game entered here round by round with a
note, the place picked from those used before, two photos and a pause. The history, the night, the statistics
by player and the BG Stats export then tell the evening right.
Screenshots: tests/browser/output/story-*.png."""

from __future__ import annotations

import dataclasses
import io
import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from steps import phone_on
from test_play_ruckzuck_rage import play_until, rage_step

from scorekeeper.digital.session import PERSON, PlaySession, Seat, computer_seat
from scorekeeper.model import playtime
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from tests.play_support import play_round

pytestmark = pytest.mark.browser

PLACE = "Anna's kitchen"


def seed(data: Path) -> dict[str, Any]:
    """Anna, Ben and Cleo. A Ruck Zuck game played earlier tonight at Anna's kitchen (finished, timed); a digital
    Rage game of Anna against two computer players, nine of its ten rounds played and the last one dealt (its
    clock started with its first deal); the Racko game about to start (a points game to 150: two rounds of
    Anna's Rack-O end it)."""
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)
    with Store.open(data) as store:
        anna, ben, cleo = (store.add_player(name) for name in ("Anna", "Ben", "Cleo"))
        begun, ended = start, start + timedelta(minutes=35)
        ruckzuck = Match.new("ruckzuck", {}, [anna.id, ben.id, cleo.id], names=["Anna", "Ben", "Cleo"])
        ruckzuck = dataclasses.replace(
            ruckzuck,
            final_totals=[4, 0, 9],
            status="finished",
            place=PLACE,
            created=begun.isoformat(),
            clock=[[begun.isoformat(), ended.isoformat()]],
        )
        ruckzuck_id = store.save_match(ruckzuck).id
        seats = [
            Seat(PERSON, anna.id, anna.name),
            computer_seat("easy", 1, "CPU 2"),
            computer_seat("normal", 2, "CPU 3"),
        ]
        session = PlaySession.create(store, "rage", {"edition": "amigo"}, seats, seed=11)
        for _ in range(9):
            play_round(session, moves=500)
            session.next_round()
        session.run_computers()
        racko = Match.new(
            "racko", {"target": 150, "two_player_rule": False}, [anna.id, ben.id], names=["Anna", "Ben"]
        )
        return {
            "racko": store.save_match(racko).id,
            "ruckzuck": ruckzuck_id,
            "rage": session.match_id,
            "saved": session.saved.id,
        }


def picture(path: Path, colour: tuple[int, int, int]) -> Path:
    image = Image.new("RGB", (2400, 1800), colour)
    image.paste((250, 250, 250), (0, 0, 800, 1800))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=92)
    path.write_bytes(out.getvalue())
    return path


def quick_round(ui: Any) -> None:
    """A Racko round in the quick form: Anna called Rack-O, Ben had 3 cards in order."""
    ui.tap("enter-round")
    for step in ("mode-quick", "caller-0", "count-1-3", "save-round"):
        ui.tap(step)


def test_a_game_night_told_by_the_app(chromium: Any, tmp_path: Path) -> None:
    photos = [picture(tmp_path / "table.jpg", (200, 40, 40)), picture(tmp_path / "cards.jpg", (40, 160, 60))]
    data = tmp_path / "data"
    with phone_on(chromium, data, seed, "story") as (ui, seeded):
        racko, rage = seeded["racko"], seeded["rage"]
        # The digital Rage game's last round, Anna bidding and playing in the browser, to the match result;
        # then its place, set afterwards on its scoreboard
        ui.open(f"/play/{seeded['saved']}", ready="play-panel")
        assert play_until(ui, "match-result", rage_step) > 0
        ui.shot("story-rage-result")
        ui.open(f"/match/{rage}", ready="place")
        ui.tap("place")
        ui.wait("place-0")
        ui.tap("place-0")  # Anna's kitchen, where the Ruck Zuck game was
        ui.wait_text(PLACE)
        ui.open(f"/match/{racko}", ready="enter-round")
        quick_round(ui)
        ui.wait("clock-pause")  # the first round started the clock
        ui.tap("notes")
        ui.tap("notes-field", count=False, settle=False)
        ui.page.locator("textarea").last.wait_for(state="attached", timeout=10_000)
        ui.page.keyboard.type("Ben's birthday, the cake won")
        ui.page.wait_for_timeout(300)
        ui.tap("notes-save")
        ui.wait_text("Ben's birthday, the cake won")
        ui.tap("place")
        ui.wait("place-0")
        ui.tap("place-0")  # Anna's kitchen, used earlier tonight
        ui.wait_text(PLACE)
        for number, photo in enumerate(photos):
            with ui.page.expect_file_chooser(timeout=15_000) as chooser:
                ui.tap("photo-add")
            chooser.value.set_files(str(photo))
            ui.wait(f"photo-{number}", timeout=30_000)
        ui.tap("clock-pause")
        ui.wait("clock-resume")
        ui.shot("story-paused")
        ui.tap("clock-resume")
        ui.wait("clock-pause")
        quick_round(ui)  # Anna reaches 150: the game ends and stops the clock
        ui.wait_text("150")
        ui.shot("story-end")
        ui.open(f"/match/{racko}", ready="evening")
        ui.node("evening").scroll_into_view_if_needed()
        ui.shot("story-scoreboard")

        ui.open("/history", ready="history-game-all")
        ui.wait_text(PLACE)
        ui.shot("story-history")
        night = seeded["ruckzuck"]  # a night is named by its first game
        ui.open("/nights", ready=f"night-{night}")
        ui.wait_text("3 games · Anna's kitchen")
        ui.tap(f"night-{night}")
        ui.wait("night-ranking")
        ui.shot("story-night")
        ui.open("/stats/players", ready="player-stats-overall")
        ui.tap(f"player-stats-place-{PLACE}")
        ui.wait_text("Time played is known for 3 of 3 games.")
        ui.shot("story-stats")
        ui.open("/settings", ready="export-bgstats")
        ui.node("export-bgstats").scroll_into_view_if_needed()
        with ui.page.expect_download(timeout=15_000) as download:
            ui.tap("export-bgstats")
        exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))

    with Store.open(data) as store:
        match = store.get_match(racko)
        assert match is not None and match.status == "finished" and match.totals()[0] == 150
        totals = match.totals()
        minutes = round((playtime.played_seconds(match.clock) or 0) / 60)
        assert (match.notes, match.place, len(match.photos)) == ("Ben's birthday, the cake won", PLACE, 2)
        assert len(match.clock) == 2 and not playtime.running(match.clock)  # a pause between two spans
        assert all(store.photos.image(photo_id) for photo_id in match.photos)
        digital = store.get_match(rage)
        assert (
            digital is not None and digital.mode == "digital" and digital.is_over and digital.place == PLACE
        )
        assert not playtime.running(digital.clock) and playtime.played_seconds(digital.clock)  # its own time
    plays = exported["plays"]
    assert len(plays) == 3
    assert {uuid.UUID(play["uuid"]).hex for play in plays} == {racko, rage, seeded["ruckzuck"]}
    locations = {location["id"]: location["name"] for location in exported["locations"]}
    assert {locations[play["locationRefId"]] for play in plays} == {PLACE}
    [told] = [play for play in plays if uuid.UUID(play["uuid"]).hex == racko]
    assert told["comments"] == "Ben's birthday, the cake won"
    players = {player["id"]: player["name"] for player in exported["players"]}
    scores = {
        players[score["playerRefId"]]: (score["score"], score["winner"]) for score in told["playerScores"]
    }
    assert scores == {"Anna": (str(totals[0]), True), "Ben": (str(totals[1]), False)}
    assert told["durationMin"] == minutes  # the time played, the pause left out
