"""Messages of the rules engine and the store reach the player in the player's language.

Every RuleError / store error keeps its English template and fields; `str(error)` stays English (all other
tests assert on it) and `error.translated(t)` fills the translated template. The templates are the messages
Babel's extraction finds in the code (babel.cfg, `scorekeeper.ui.i18n_extract`, what `make messages` writes to
locales/messages.pot); test_catalogs_i18n.py checks that each has a translation in de, nl and fr.
"""

from __future__ import annotations

import ast
import copy
import json
import pickle
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Message as BabelMessage

from scorekeeper.exchange.transfer import export_json_text, import_json_text
from scorekeeper.games.base import (
    Capitalized,
    Clause,
    Message,
    RuleError,
    TranslatableError,
    joined,
    seat_name,
)
from scorekeeper.games.rage.arranged import arranged_round
from scorekeeper.games.rage.rules import RageOptions
from scorekeeper.model.match import Match
from scorekeeper.store import InputError, Store, StoreError
from scorekeeper.sync.target import SyncError
from scorekeeper.ui.i18n import Translator
from scorekeeper.ui.i18n_extract import extract_messages

ROOT = Path(__file__).resolve().parents[1] / "scorekeeper"
LANGUAGES = ("de", "nl", "fr")
COLLECTED_CALLS = {"_refuse"}  # Rage's refusals helper that raises a RuleError naming the player on turn
"""Besides the error and message classes themselves: helpers whose first argument is a template."""

# Modules whose messages were converted to templates: no f-string message may come back here.
CONVERTED = [
    "model/match.py",
    "model/match_data.py",
    "model/tally.py",
    *(f"games/racko/{name}.py" for name in ("options", "rules", "quick", "results", "play")),
    *(f"games/rage/{name}.py" for name in ("cards", "options", "rules", "play", "refusals")),
    *(f"games/ruckzuck/{name}.py" for name in ("board", "rules", "play")),
    *(p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "store").glob("*.py"))),
]


def _subclasses(cls: type) -> set[type]:
    found = {cls}
    for sub in cls.__subclasses__():
        found |= _subclasses(sub)
    return found


# SyncError's and its subclasses' first argument is a problem code or a target ("not_found"), not a template:
# their sentences are N_-marked texts. All of them are left out, so the set does not depend on which tests
# imported the sync modules (the browser's fetch client and its errors) first.
MESSAGE_CLASSES = {c.__name__ for c in _subclasses(TranslatableError) | _subclasses(Message)} - {
    c.__name__ for c in _subclasses(SyncError)
}


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _message_calls(tree: ast.AST, *, with_marker: bool) -> list[ast.Call]:
    names = MESSAGE_CLASSES | COLLECTED_CALLS | ({"N_"} if with_marker else set())
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and node.args and _call_name(node) in names
    ]


def _where(message: BabelMessage) -> str:
    """The first module (by path) a message is in, relative to scorekeeper/ ("model/match.py")."""
    return min(path for path, _ in message.locations).removeprefix("scorekeeper/")


def field_names(text: str) -> set[str]:
    return {name.split(".")[0] for _, name, _, _ in string.Formatter().parse(text) if name is not None}


EXTRACTED = extract_messages()
"""The template made from the code, as `make messages` makes it."""
TEMPLATES: dict[str, str] = {str(m.id): _where(m) for m in EXTRACTED if m.id and isinstance(m.id, str)}
"""Every message (not a count message) -> the first module it is in."""
PLURALS: dict[tuple[str, str], str] = {
    (str(m.id[0]), str(m.id[1])): _where(m) for m in EXTRACTED if isinstance(m.id, tuple)
}
"""Every count message (singular, plural) -> the first module it is in."""


def test_the_scan_finds_the_messages_of_every_part() -> None:
    where = set(TEMPLATES.values())
    for module in ("model/match.py", "games/racko/rules.py", "games/rage/play.py", "games/ruckzuck/rules.py"):
        assert module in where
    assert any(module.startswith("store/") for module in where)
    assert (
        "{who} called Racko with a longest run of {run}, but the 2-player rule requires a direct run of at "
        "least 3 cards." in TEMPLATES
    )
    assert "{who} must follow {colour}: play one of {cards}." in TEMPLATES  # raised through _refuse
    assert len(TEMPLATES) > 250


@pytest.mark.parametrize("module", CONVERTED)
def test_converted_modules_build_no_message_from_an_f_string(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    offending = [
        call.lineno
        for call in _message_calls(tree, with_marker=True)
        if isinstance(call.args[0], ast.JoinedStr)
    ]
    assert not offending, f"{module}: f-string messages on lines {offending} cannot be translated"


# ------------------------------------------------------------------------------------ end to end


def _racko_match() -> Match:
    return Match.new("racko", {"players": 2}, ["p-anna", "p-ben"], names=["Anna", "Ben"])


def _bad_racko_round() -> dict[str, object]:
    """Anna calls Racko with a rack that drops from slot 15 to slot 20 (34 after 35)."""
    anna = [3, 8, 35, 34, 36, 37, 38, 39, 40, 2]
    ben = [1, 4, 5, 6, 7, 9, 10, 11, 12, 13]
    return {"racks": [anna, ben], "callers": [0]}


def test_a_wrong_racko_round_is_told_in_german_and_names_the_player() -> None:
    match = _racko_match()
    with pytest.raises(RuleError) as caught:
        match = match.with_round(_bad_racko_round())
    error = caught.value
    english = str(error)
    assert english.startswith("Round 1: Anna called Racko, but the rack is not in ascending order")
    assert "Player" not in english
    german = error.translated(Translator("de"))
    assert german.startswith("Runde 1: Anna hat Racko gesagt, aber der Kartenhalter ist nicht aufsteigend")
    assert "34 in Schlitz 20 ist niedriger als 35 in Schlitz 15" in german
    assert match.rounds == []  # the rejected round changed nothing


def test_nested_messages_are_translated_at_both_levels() -> None:
    inner = RuleError("{who} bid {bid}, but a bid must be 0 to {size}.", who=seat_name(1), bid=7, size=5)
    outer = RuleError("Round {number}: {reason}", number=3, reason=inner)
    assert str(outer) == "Round 3: Player 2 bid 7, but a bid must be 0 to 5."
    assert outer.translated(Translator("de")) == (
        "Runde 3: Spieler 2 hat 7 angesagt, aber eine Ansage muss zwischen 0 und 5 liegen."
    )
    assert outer.translated(Translator("fr")).startswith("Manche 3\u00a0: Joueur 2 a annoncé 7")
    assert outer.translated(Translator("nl")).startswith("Ronde 3: Speler 2 bood 7")
    assert outer.translated(Translator("en")) == str(outer)


def test_a_match_puts_names_into_the_seat_fields_and_keeps_them_translatable() -> None:
    match = Match.new("rage", {"players": 3}, ["a", "b", "c"], names=["Anna", "Ben", "Cleo"])
    bad_bid = {"bids": [11, 0, 0], "tricks": [10, 0, 0], "bonus": [0, 0, 0], "minus": [0, 0, 0]}
    with pytest.raises(RuleError) as caught:
        match = match.with_round(bad_bid)
    assert str(caught.value) == "Round 1: Anna bid 11, but a bid must be 0 to 10."
    assert caught.value.translated(Translator("nl")) == (
        "Ronde 1: Anna bood 11, maar een bod moet tussen 0 en 10 liggen."
    )


def test_str_stays_english_and_the_error_survives_pickling_and_chaining() -> None:
    error = RuleError("Card {card} appears twice in the rack of {who}.", card=17, who=seat_name(0))
    assert str(error) == "Card 17 appears twice in the rack of Player 1."
    assert error.args == ("Card 17 appears twice in the rack of Player 1.",)
    assert isinstance(error, ValueError)
    for copied in (pickle.loads(pickle.dumps(error)), copy.deepcopy(error)):
        assert type(copied) is RuleError and str(copied) == str(error)
        assert copied.translated(Translator("de")) == "Karte 17 steht zweimal im Kartenhalter von Spieler 1."
    with pytest.raises(RuleError) as caught:
        try:
            raise KeyError("x")
        except KeyError as cause:
            raise RuleError("Round {number}: {reason}", number=1, reason=error) from cause
    assert isinstance(caught.value.__cause__, KeyError)
    assert pickle.loads(pickle.dumps(caught.value)).translated(Translator("fr")) == (
        "Manche 1\u00a0: La carte 17 figure deux fois dans le Rack de Joueur 1."
    )


def test_an_unknown_message_falls_back_to_english_with_translated_parts() -> None:
    error = RuleError("Nobody translated this for {who}.", who=seat_name(2))
    assert error.translated(Translator("de")) == "Nobody translated this for Spieler 3."


def test_messages_are_strings_with_a_translation() -> None:
    player = seat_name(3)
    assert player == "Player 4" and isinstance(player, str) and player + "!" == "Player 4!"
    assert pickle.loads(pickle.dumps(player)).translated(Translator("fr")) == "Joueur 4"
    listed = joined([Message("red"), Message("joker ({colour})", colour=Message("green"))])
    assert listed == "red, joker (green)"
    assert listed.translated(Translator("de")) == "Rot, Joker (Grün)"
    assert (
        Capitalized("{what}", what=Message("the player list")).translated(Translator("de"))
        == "Die Spielerliste"
    )
    assert (
        Clause("{x}", x=RuleError("The round is over.")).translated(Translator("nl")) == "De ronde is voorbij"
    )


def test_a_rage_move_refused_in_french_names_colour_and_cards() -> None:
    state = arranged_round(
        RageOptions(players=2),
        [["r3", "b5"], ["r7", "g2"]],
        ["y4"],
        dealer=1,
    )
    state.apply(["bid", 1])
    state.apply(["bid", 0])  # the dealer may not make the bids add up to the 2 cards in hand
    state.apply(["play", "r3"])
    with pytest.raises(RuleError) as caught:
        state.apply(["play", "g2"])
    assert str(caught.value) == (
        "The move “Player 2 played green 2” is not allowed: Player 2 must follow red: play one of red 7."
    )
    assert caught.value.translated(Translator("fr")) == (
        "Le coup «\u00a0Joueur 2 a joué 2 vert\u00a0» n’est pas autorisé\u00a0: "
        "Joueur 2 doit fournir la couleur demandée (rouge)\u00a0: jouez l’une de ces cartes\u00a0: 7 rouge."
    )


# ------------------------------------------------------------------------------------------- store


def test_store_errors_translate_like_rule_errors(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.add_player("Anna")
    with pytest.raises(InputError) as caught:
        store.add_player("anna")
    error = caught.value
    assert isinstance(error, StoreError) and not isinstance(error, RuleError)  # not a rules error
    assert str(error) == "There is already a player called Anna. Choose another name."
    assert (
        error.translated(Translator("de"))
        == "Es gibt schon einen Spieler namens Anna. Wähle einen anderen Namen."
    )
    assert pickle.loads(pickle.dumps(error)).translated(Translator("nl")).startswith("Er is al een speler")
    store.close()


def test_recovery_messages_are_english_strings_that_translate(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.add_player("Anna")
    store.close()
    (tmp_path / "settings.json").write_text("", encoding="utf-8")
    (tmp_path / "settings.json.bak").unlink(missing_ok=True)
    for snapshot in (tmp_path / "backups").glob("*.json"):
        snapshot.unlink()
    fresh = Store.open(tmp_path)
    [message] = fresh.recovery_messages
    assert isinstance(message, str) and message.startswith(
        "Your settings could not be read (the file is empty)"
    )
    german = message.translated(Translator("de"))
    assert german.startswith("Deine Einstellungen: nicht lesbar (die Datei ist leer)")
    assert "Es werden die Standardeinstellungen verwendet." in german
    fresh.close()


def test_an_import_problem_names_the_record_in_the_players_language(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    document = json.loads(export_json_text(store))
    document["players"] = [{"name": "Cleo"}]
    with pytest.raises(StoreError) as caught:
        import_json_text(store, json.dumps(document))
    assert str(caught.value) == (
        "The file cannot be imported: Player 1 (Cleo): a player needs an id and a name. Nothing was changed."
    )
    assert caught.value.translated(Translator("de")) == (
        "Die Datei kann nicht importiert werden: Spieler 1 (Cleo): ein Spieler braucht eine ID und einen Namen. "
        "Es wurde nichts geändert."
    )
    store.close()


# -------------------------------------------------------------------------------------------- UI


def test_the_ui_describes_errors_and_recovery_messages_in_its_language() -> None:
    from scorekeeper.ui.context import AppContext

    ctx = AppContext(page=None, store=None, t=Translator("de"))  # type: ignore[arg-type]
    assert ctx.describe(RuleError("The round is over.")) == "Die Runde ist vorbei."
    assert ctx.describe(Message("the file is empty")) == "die Datei ist leer"
    assert ctx.describe(OSError("disk on fire")) == "disk on fire"  # not ours: shown as it is
    assert ctx.describe("plain text") == "plain text"
