"""What the screen reader is told without asking (scorekeeper/ui/announcements.py): a saved round with every
total, the moves of a digital game said once each, whose turn it is when it changes; in each language."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.model.match import Match
from scorekeeper.ui.announcements import MOVES_SPOKEN, PlayNews, new_moves, play_news, round_saved
from scorekeeper.ui.i18n import Translator


def test_a_saved_round_says_its_number_and_every_total_in_seat_order() -> None:
    text = round_saved(Translator("en"), 3, ["Anna", "Ben"], [150, 120], edited=False)
    assert text == "Round 3 saved. Anna 150, Ben 120."


def test_an_edited_round_says_it_changed() -> None:
    assert round_saved(Translator("en"), 2, ["Anna", "Ben"], [5, -10], edited=True) == (
        "Round 2 changed. Anna 5, Ben -10."
    )


def test_the_totals_are_the_models() -> None:
    """The text reads the match's totals as the model keeps them (views never recompute scores)."""
    match = Match.new("ruckzuck", {}, ["a", "b", "c"], names=["Ann", "Bob", "Cy"])
    match = match.with_round({"hands": [[45], [], [44]], "out": 1})
    text = round_saved(Translator("en"), 1, match.names, match.totals(), edited=False)
    expected = ", ".join(f"{name} {total}" for name, total in zip(match.names, match.totals(), strict=True))
    assert text == f"Round 1 saved. {expected}." and any(match.totals())


def test_every_language_says_it_in_its_own_words() -> None:
    said = {
        language: round_saved(Translator(language), 3, ["Anna"], [1], edited=False)
        for language in ("en", "de", "nl", "fr")
    }
    assert len(set(said.values())) == 4, said
    assert all("3" in text and "Anna 1" in text for text in said.values()), said


def test_moves_are_said_once_each() -> None:
    news = PlayNews(["Anna drew."], ("round 1", 1))
    assert news.since(["Anna drew.", "Bo bid 2."], ("round 1", 1), "Bo's turn.", str) == "Bo bid 2."
    assert news.since(["Anna drew.", "Bo bid 2."], ("round 1", 1), "Bo's turn.", str) == ""


def test_a_new_turn_is_told_after_the_moves_that_led_to_it() -> None:
    news = PlayNews([], ("round 1", 1))
    assert news.since(["Bo bid 2."], ("round 1", 0), "Your turn.", str) == "Bo bid 2. Your turn."


def test_what_was_on_screen_when_the_game_opened_is_not_said() -> None:
    news = PlayNews(["Anna drew.", "Bo bid 2."], ("round 1", 0))
    assert news.since(["Anna drew.", "Bo bid 2."], ("round 1", 0), "Your turn.", str) == ""


def test_a_new_round_says_its_moves_from_the_start() -> None:
    assert new_moves(["Anna drew.", "Bo bid 2."], ["Cleo bid 1."]) == ["Cleo bid 1."]


def test_moves_are_said_in_the_players_language() -> None:
    news = PlayNews([], 0)
    assert news.since(["a"], 0, "", lambda move: move.upper()) == "A"


def test_many_moves_at_once_say_only_the_last_ones() -> None:
    moves = [f"Bo moved {n}." for n in range(10)]
    assert play_news(moves, "Your turn.") == " ".join([*moves[-MOVES_SPOKEN:], "Your turn."])


@given(
    st.lists(st.text(min_size=1, max_size=3), max_size=8),
    st.lists(st.text(min_size=1, max_size=3), max_size=8),
)
def test_a_log_that_grew_gives_exactly_what_was_added(heard: list[str], added: list[str]) -> None:
    assert new_moves(heard, heard + added) == added


@given(
    st.lists(st.text(min_size=1, max_size=3), max_size=8), st.integers(0, 8), st.lists(st.text(max_size=3))
)
def test_a_trimmed_log_says_only_what_follows_the_last_move_heard(
    heard: list[str], cut: int, added: list[str]
) -> None:
    """The log lost its oldest lines: what comes after the last move heard, never a move said already twice."""
    moves = (heard + added)[cut:]
    fresh = new_moves(heard, moves)
    assert fresh == moves[len(moves) - len(fresh) :]  # always the newest lines
    if heard and cut == 0:
        assert fresh == added
