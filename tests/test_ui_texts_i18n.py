"""Every text the app shows is in all four languages: the texts of scorekeeper/ui as Babel's extraction finds
them (babel.cfg: the first argument of `t(...)`, `ctx.t(...)` (any `.t(...)`) and `N_(...)` (a text kept as data
and translated later), the two arguments of `.plural(singular, plural, n)`; a literal, either branch of
`a if c else b`, or a name given such a text earlier in the function). English is the text itself; de, nl and
fr need an entry in their catalog (`scorekeeper/ui/locales/<language>/LC_MESSAGES/messages.po`) with the same
{fields}: test_catalogs_i18n.py checks it for every message of the code, and that no catalog keeps an entry no
code uses. Here: the scan sees the screens' ways of marking a text, switch labels fit a phone, German says du.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from babel.messages.catalog import Message as BabelMessage
from test_messages_i18n import EXTRACTED

from scorekeeper.ui.i18n import Translator, catalog, catalog_path, plural_catalog
from scorekeeper.ui.i18n_extract import literals

UI = Path(__file__).resolve().parents[1] / "scorekeeper" / "ui"
LANGUAGES = ("en", "de", "nl", "fr")


def _marker(call: ast.Call) -> str | None:
    """ "t" for a text, "plural" for a count message, None for any other call."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name in ("t", "N_"):
        return "t"
    if name == "plural" and isinstance(func, ast.Attribute) and len(call.args) >= 2:
        return "plural"
    return None


def _ui_module(message: BabelMessage) -> str | None:
    """The first module of scorekeeper/ui a message is marked in ("ui/context.py"); None outside ui/."""
    paths = sorted(path.removeprefix("scorekeeper/") for path, _ in message.locations)
    return next((path for path in paths if path.startswith("ui/")), None)


TEXTS: dict[str, str] = {
    str(m.id): where for m in EXTRACTED if isinstance(m.id, str) and (where := _ui_module(m))
}
"""Every text marked in scorekeeper/ui -> the first module of ui/ it is in (Babel's extraction)."""
PLURALS: dict[tuple[str, str], str] = {
    (str(m.id[0]), str(m.id[1])): where
    for m in EXTRACTED
    if isinstance(m.id, tuple) and (where := _ui_module(m))
}
"""Every count message marked in scorekeeper/ui -> the first module of ui/ it is in."""


def test_the_scan_sees_every_kind_of_marked_text() -> None:
    where = set(TEXTS.values())
    for module in (
        "ui/digital/racko_panel.py",
        "ui/views/digital/game.py",
        "ui/views/digital/setup.py",
        "ui/views/table/keep.py",
    ):
        assert module in where, module  # modules the hand-kept lists of modules used to miss
    assert TEXTS["Red"] == "ui/context.py"  # N_: a player colour, kept as data
    assert "ascending {count} · run {run}" in TEXTS  # t(...): a translator passed along as `t`
    assert "Still to check their part: {names}." in TEXTS  # a name given the text first
    assert ("{n} exact bid", "{n} exact bids") in PLURALS
    assert len(TEXTS) > 400


def test_the_catalogs_are_where_the_translator_reads_them() -> None:
    for language in LANGUAGES[1:]:
        assert catalog_path(language).is_file() and catalog(language), language


SWITCH_LABEL_MAX = 36
"""A switch's own label is drawn on one line and cut off at the screen's edge: on a 390-pixel phone about this
many characters fit beside the switch. A longer text sits beside the switch in a text of its own, which wraps."""


def _switch_labels() -> dict[str, str]:
    """text -> module for every text given as a switch's own label (`ft.Switch(label=...)`, `yes_switch(...)`)."""
    found: dict[str, str] = {}
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            labels = [k.value for k in node.keywords if k.arg == "label"] if name == "Switch" else []
            labels += node.args[:1] if name == "yes_switch" else []
            for label in labels:
                if isinstance(label, ast.Call) and _marker(label) == "t":
                    for text in literals(label.args[0]):
                        found[text] = path.name
    return found


def test_the_scan_finds_the_switch_labels() -> None:
    assert {"Offer hints", "Blitz-Racko right after the deal"} <= set(_switch_labels())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_switch_label_fits_on_a_phone(language: str) -> None:
    from scorekeeper.ui.components.setup_form import GAME_OPTIONS

    t = Translator(language)
    labels = {text: where for text, where in _switch_labels().items()}
    labels |= {
        o.label: "game options" for fields in GAME_OPTIONS.values() for o in fields if o.kind == "bool"
    }
    long = {t(text): where for text, where in labels.items() if len(t(text)) > SWITCH_LABEL_MAX}
    assert not long, f"switch labels cut off on a phone in {language}: {long}"


def test_german_says_du_throughout() -> None:
    """The app speaks to a player as "du" (the form of the game rules and of the play screens): a formal "Sie" in
    one screen beside "du" in the next reads as two apps. "Sie" after a colon as "it" or "they" is not formal."""
    import re

    formal = re.compile(r"\b\w+en Sie\b|\bSie \w+en\b|\b(Ihnen|Ihre[mnrs]?|Ihr)\b")
    plural = plural_catalog("de").values()
    texts = list(catalog("de").values()) + [form for forms in plural for form in forms]
    found = [text for text in texts if formal.search(text) and not re.search(r": Sie (ist|enthält)\b", text)]
    assert not found, "formal address in German:\n" + "\n".join(found)
