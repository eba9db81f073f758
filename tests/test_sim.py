"""The simulator's command line and summary (`selfplay.simulate`), with registered bots and a user's `module:attr` bot."""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from scorekeeper.games import RuleError
from scorekeeper.lab.sim import main, simulate


class FirstLegalBot:
    """A user's bot: always the first legal action (loaded by the simulator as tests.test_sim:first_legal)."""

    def choose(self, view: Any, legal_actions: list[Any]) -> Any:
        return legal_actions[0]


def first_legal() -> FirstLegalBot:
    return FirstLegalBot()


TOLD: list[tuple[int, tuple[str | None, ...]]] = []
"""What each `Listener` of a simulation was told: (its seat, the table)."""


class Listener(FirstLegalBot):
    """A user's bot that asks who sits where (`meet`): it keeps what it was told with its seat."""

    def __init__(self) -> None:
        self.table: tuple[str | None, ...] = ()

    def meet(self, table: tuple[str | None, ...]) -> None:
        self.table = table

    def choose(self, view: Any, legal_actions: list[Any]) -> Any:
        TOLD.append((view.seat, self.table))
        return super().choose(view, legal_actions)


def test_bots_are_told_who_sits_where_as_the_seats_rotate() -> None:
    # the simulator imports the bot's module by its name, which need not be the module object pytest ran
    kept = importlib.import_module("tests.test_sim").TOLD
    kept.clear()
    simulate("rage", 3, ["tests.test_sim:Listener", "baseline", "random"], 6, seed=4)
    told = set(kept)
    assert {seat for seat, _ in told} == {0, 1, 2}  # every seat in turn
    name = "tests.test_sim:Listener"
    for seat, table in told:
        assert table[seat] == name and sorted(table, key=str) == sorted([name, "baseline", "random"], key=str)
        assert table[(seat + 1) % 3] == "baseline"  # the bots keep their order round the table


@pytest.mark.parametrize(
    ("game", "players", "settings"),
    [("racko", 2, {"two_player_rule": False}), ("ruckzuck", 4, {}), ("rage", 4, {"edition": "amigo"})],
)
def test_summary_has_the_documented_shape(game: str, players: int, settings: dict[str, Any]) -> None:
    summary = simulate(game, players, ["random", "baseline"], 6, seed=3, settings=settings)
    assert summary["rounds"] == 6 and summary["rounds_per_second"] > 0
    assert [row["name"] for row in summary["bots"]] == ["random", "baseline"] + ["baseline"] * (players - 2)
    for row in summary["bots"]:
        assert set(row) >= {"name", "wins", "win_rate", "mean_points", "mean_turns"}
        assert 0 <= row["wins"] <= 6 and row["mean_turns"] > 0
    # Every round has at least one winner (ties count for each tied bot).
    assert sum(row["wins"] for row in summary["bots"]) >= 6


def test_same_seed_same_outcome() -> None:
    first = simulate("ruckzuck", 3, ["random"], 5, seed=11)
    again = simulate("ruckzuck", 3, ["random"], 5, seed=11)
    assert [r["mean_points"] for r in first["bots"]] == [r["mean_points"] for r in again["bots"]]


def test_cli_json_with_set_and_user_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "rage",
            "--players",
            "3",
            "--bots",
            "tests.test_sim:first_legal,random",
            "--rounds",
            "3",
            "--seed",
            "2",
            "--set",
            "edition=fundex",
            "--json",
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["options"]["edition"] == "fundex"
    assert summary["bots"][0]["name"] == "tests.test_sim:first_legal"
    assert "exact_bid_rate" in summary["bots"][0]


@pytest.mark.parametrize(
    "argv",
    [
        ["racko", "--players", "2", "--bots", "nobody", "--rounds", "1"],
        ["racko", "--players", "2", "--bots", "random", "--set", "colour=blue"],
        ["racko", "--players", "9", "--bots", "random"],
        ["racko", "--players", "2", "--bots", "random", "--set", "novalue"],
        ["racko", "--players", "2", "--bots", "no.such.module:bot"],
    ],
)
def test_cli_refuses_bad_input_with_a_message(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.strip()


def test_too_many_bots_for_the_table() -> None:
    with pytest.raises(RuleError, match="cannot sit"):
        simulate("racko", 2, ["random", "random", "random"], 1, seed=0)


def test_runs_as_a_module() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "scorekeeper.lab.sim",
            "ruckzuck",
            "--players",
            "2",
            "--bots",
            "baseline,random",
            "--rounds",
            "2",
            "--seed",
            str(random.randrange(100)),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert json.loads(done.stdout)["rounds"] == 2


def test_round_robin_plays_every_strength_against_every_other(capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper.lab.roundrobin import wilson

    assert (
        main(["ruckzuck", "--players", "3", "--round-robin", "--rounds", "3", "--seed", "4", "--json"]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    names = report["strengths"]
    assert names == ["easy", "normal", "medium", "hard"]
    assert {(p["strength"], p["against"]) for p in report["pairs"]} == {
        (a, b) for a in names for b in names if a != b
    }
    for pair in report["pairs"]:
        low, high = pair["ci95"]
        assert 0 <= low <= pair["win_rate"] <= high <= 1
    assert set(report["mean_win_rate"]) == set(names)
    assert main(["ruckzuck", "--players", "3", "--round-robin", "--rounds", "2", "--seed", "4"]) == 0
    text = capsys.readouterr().out
    assert all(f"vs {name}" in text for name in names) and "95% CI" in text
    low, high = wilson(88, 100)
    assert low < 0.88 < high and round(low, 3) == 0.802 and round(high, 3) == 0.930
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_the_simulator_asks_for_bots_or_a_round_robin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["racko", "--players", "2"]) == 2
    assert "--round-robin" in capsys.readouterr().err
