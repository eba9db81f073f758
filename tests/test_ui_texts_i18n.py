"""Every text the app shows is in all four languages: one scan of every module under scorekeeper/ui.

A text is marked where the code says it: the first argument of `t(...)`, `ctx.t(...)` (any `.t(...)`) and
`N_(...)` (a text kept as data and translated later), and the two arguments of `.plural(singular, plural, n)`;
a literal or either branch of `a if c else b`. English is the text itself; de, nl and fr need an entry in
their catalog (`scorekeeper/ui/locales/<language>/LC_MESSAGES/*.po`) with the same {fields}. The engine's and
the store's messages are checked by test_messages_i18n.py, the count messages' plural forms by
test_catalogs_i18n.py.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from test_messages_i18n import _literals

from scorekeeper.ui.i18n import LOCALES_DIR, Translator, catalog, plural_catalog

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


def _named_literals(tree: ast.AST) -> dict[str, list[str]]:
    """Names given a text within a function (`template = "a" if asked else "b"` before `ctx.t(template)`)."""
    named: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            named.setdefault(node.targets[0].id, []).extend(_literals(node.value))
    return named


def _texts_of(node: ast.expr, named: dict[str, list[str]]) -> list[str]:
    return named.get(node.id, []) if isinstance(node, ast.Name) else _literals(node)


def _collect(
    call: ast.Call,
    named: dict[str, list[str]],
    where: str,
    texts: dict[str, str],
    plurals: dict[tuple[str, str], str],
) -> None:
    kind = _marker(call)
    if kind == "t":
        for text in _texts_of(call.args[0], named):
            if text.strip():
                texts.setdefault(text, where)
    elif kind == "plural":
        for singular in _texts_of(call.args[0], named):
            for plural in _texts_of(call.args[1], named):
                plurals.setdefault((singular, plural), where)


def ui_texts() -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """(text -> the module it is in, (singular, plural) -> the module) for every marked text in scorekeeper/ui."""
    texts: dict[str, str] = {}
    plurals: dict[tuple[str, str], str] = {}
    for path in sorted(UI.rglob("*.py")):
        where = path.relative_to(UI.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for scope, named in [(tree, {}), *((f, _named_literals(f)) for f in functions)]:
            for node in ast.walk(scope):
                if isinstance(node, ast.Call) and node.args:
                    _collect(node, named, where, texts, plurals)
    return texts, plurals


TEXTS, PLURALS = ui_texts()


def _fields(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def test_the_scan_sees_every_kind_of_marked_text() -> None:
    where = set(TEXTS.values())
    for module in (
        "ui/play/racko_panel.py",
        "ui/views/play.py",
        "ui/views/play_setup.py",
        "ui/views/table_keep.py",
    ):
        assert module in where, module  # modules the hand-kept lists of modules used to miss
    assert TEXTS["Red"] == "ui/context.py"  # N_: a player colour, kept as data
    assert "ascending {count} · run {run}" in TEXTS  # t(...): a translator passed along as `t`
    assert "Still to check their part: {names}." in TEXTS  # a name given the text first
    assert ("{n} exact bid", "{n} exact bids") in PLURALS
    assert len(TEXTS) > 400


def test_the_catalogs_are_where_the_translator_reads_them() -> None:
    for language in LANGUAGES[1:]:
        assert sorted((LOCALES_DIR / language / "LC_MESSAGES").glob("*.po")), language


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_ui_text_is_translated_with_the_same_fields(language: str) -> None:
    missing = Translator(language).missing(sorted(TEXTS))
    assert not missing, f"{len(missing)} texts without a {language} translation:\n" + "\n".join(
        f"  {TEXTS[text]}: {text!r}" for text in missing
    )
    if language == "en":
        return
    known = catalog(language)
    wrong = [text for text in TEXTS if _fields(known[text]) != _fields(text)]
    assert not wrong, f"{language} translations with other fields: {wrong}"


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_ui_count_message_has_its_plural_entry(language: str) -> None:
    known = plural_catalog(language)
    missing = [
        f"  {where}: {singular!r}" for (singular, _), where in PLURALS.items() if singular not in known
    ]
    assert not missing, f"count messages without a {language} plural entry:\n" + "\n".join(missing)


def _code_literals() -> set[str]:
    """Every string literal in the package (a catalog entry is used where its text is written in code)."""
    package = UI.parent
    return {
        node.value
        for path in package.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_no_catalog_keeps_a_text_the_app_no_longer_shows(language: str) -> None:
    """A text reworded in code leaves its old entry behind, and a translator then keeps translating it."""
    used = _code_literals()
    stale = sorted(text for text in catalog(language) if text and text not in used)
    stale += sorted(text for text in plural_catalog(language) if text not in used)
    assert not stale, f"{language} entries no code uses:\n" + "\n".join(f"  {text!r}" for text in stale)


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
                    for text in _literals(label.args[0]):
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
