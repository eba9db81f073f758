"""The catalogs as a whole and the in-app rules texts: every message of the code translated in every language
and no entry that no code uses (the code's messages are Babel's extraction, as `make messages` makes the
template), one catalog per language with one entry per message, the same fields in every language, plural
entries complete for each language's plural rule, French typography, one quote style, the rule sheets' own game
words, the app's translated name, dates and places written per language, no internal option keys.

(The per-message checks of the engine's and the store's templates are in test_messages_i18n.py.)
"""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest
from test_messages_i18n import EXTRACTED, LANGUAGES, MESSAGE_CLASSES, PLURALS, ROOT, TEMPLATES, field_names

from scorekeeper.games.base import RuleError
from scorekeeper.model.match import Match
from scorekeeper.ui.i18n import LOCALES_DIR, Translator, catalog, catalog_path, plural_catalog

ALL_LANGUAGES = ("en", *LANGUAGES)
NBSP = "\u00a0"


def _po_entries(language: str) -> list[tuple[str, object, object]]:
    """(catalog, msgid, msgstr) of every entry of the catalog of `language`; plural ids/strs are tuples."""
    from babel.messages.pofile import read_po

    with catalog_path(language).open("rb") as handle:
        return [("messages", m.id, m.string) for m in read_po(handle, locale=language) if m.id]


def _texts(language: str) -> list[tuple[str, str]]:
    """(msgid, translation) pairs, a plural entry giving one pair per form (its msgid_plural for forms > 0)."""
    pairs = []
    for _, msgid, msgstr in _po_entries(language):
        if isinstance(msgid, tuple):
            pairs += [(msgid[min(i, 1)], str(form)) for i, form in enumerate(msgstr)]
        else:
            pairs.append((str(msgid), str(msgstr)))
    return pairs


def _classes_in_code(*roots: str) -> set[str]:
    """The classes of the package that are one of `roots` or derive from one, by their definitions (a subclass
    of a subclass counts too), whether or not a test imported their module."""
    found = set(roots)
    classes = [
        (
            node.name,
            {base.id if isinstance(base, ast.Name) else getattr(base, "attr", "") for base in node.bases},
        )
        for path in sorted(ROOT.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    ]
    grown = True
    while grown:
        before = len(found)
        found |= {name for name, bases in classes if bases & found}
        grown = len(found) > before
    return found


def test_babel_cfg_marks_every_message_and_error_class_for_extraction() -> None:
    # A new kind of error or message whose first argument is a template is found by `make messages` only when
    # babel.cfg names it (SyncError's and its subclasses' first argument is a problem code, their texts are
    # N_-marked or Message(...)s).
    from babel.messages.frontend import parse_mapping_cfg

    from scorekeeper.ui.i18n_extract import CONFIG

    with CONFIG.open(encoding="utf-8") as handle:
        _, options = parse_mapping_cfg(handle, str(CONFIG))
    keywords = {name for option in options.values() for name in option.get("keywords", {})}
    classes = _classes_in_code("Message", "TranslatableError") - _classes_in_code("SyncError")
    assert classes >= MESSAGE_CLASSES and {"TooManyTries", "PhotoError", "Plural"} <= classes
    assert classes - keywords == set(), "babel.cfg's keywords lack these classes"
    assert {"t", "N_", "plural", "_refuse"} <= keywords


def test_the_extraction_finds_every_way_a_message_is_marked() -> None:
    assert "scorekeeper/ui/context.py" in {path for path, _ in EXTRACTED["Red"].locations}  # N_ in a table
    assert "ascending {count} · run {run}" in TEMPLATES  # t(...): a translator passed along as `t`
    assert "Still to check their part: {names}." in TEMPLATES  # a name given the text first
    assert "{who} must follow {colour}: play one of {cards}." in TEMPLATES  # a helper (_refuse)
    assert "Round {number}: {reason}" in TEMPLATES  # RuleError(...)
    assert ("{n} exact bid", "{n} exact bids") in PLURALS  # t.plural(...)
    assert ("{who} may bid 0 to {size} trick.", "{who} may bid 0 to {size} tricks.") in PLURALS  # _refuse
    assert len(TEMPLATES) > 1000


def test_the_games_declare_every_text_of_their_specs_for_extraction() -> None:
    # Game names, option labels and choices, statistics figures and what a phone asks at a live table are
    # declared as data (GameSpec, OptionField): each is marked where it is declared (N_, Message), so the
    # extraction finds it without a hand-kept list.
    from scorekeeper.games.base import Message
    from scorekeeper.games.spec import GAMES

    def text(value: object) -> str:
        return value.template if isinstance(value, Message) else str(value)

    declared: list[tuple[str, str]] = []
    for game in GAMES:
        declared += [(game.key, text(value)) for value in (game.title, game.about, game.unit)]
        for option in game.option_fields:
            declared += [(option.name, option.label), (option.name, option.help)]
            declared += [(option.name, text(label)) for _, label in option.choices]
        declared += [(game.key, figure.label) for figure in game.stat_figures]
        part = game.table_part
        if part is not None:
            declared += [(game.key, label) for _, label in part.fields.values()]
            declared += [(game.key, label) for label in (*part.public.values(), *part.stage_titles)]
            declared += [(game.key, question) for question in part.callers.values()]
    assert len(declared) > 40
    unmarked = [(where, label) for where, label in declared if label not in TEMPLATES]
    assert not unmarked, f"declared texts the extraction does not find (mark them with N_): {unmarked}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_in_the_code_has_a_translation(language: str) -> None:
    """A message the code marks without an entry in the language's catalog, or with an empty or fuzzy one, is
    shown in English: `make messages` adds it to the catalogs empty, a translator fills it in."""
    known, counts = catalog(language), plural_catalog(language)
    missing = [f"  {where}: {text!r}" for text, where in TEMPLATES.items() if text not in known]
    missing += [
        f"  {where}: {one!r} / {many!r}" for (one, many), where in PLURALS.items() if one not in counts
    ]
    assert not missing, f"{len(missing)} messages without a {language} translation:\n" + "\n".join(missing)
    wrong = [
        f"{text!r} -> {known[text]!r}" for text in TEMPLATES if field_names(known[text]) != field_names(text)
    ]
    assert not wrong, "fields differ:\n" + "\n".join(wrong)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalog_keeps_a_message_no_code_uses(language: str) -> None:
    """A text reworded or removed in the code leaves its old entry behind, and a translator then keeps
    translating it: `make messages` drops it (`pybabel update --ignore-obsolete`)."""
    from babel.messages.pofile import read_po

    with catalog_path(language).open("rb") as handle:
        entries = read_po(handle, locale=language)
    used = set(TEMPLATES) | set(PLURALS)
    ids = [m.id for m in entries if m.id] + list(entries.obsolete)
    stale = [
        msgid for msgid in ids if (tuple(msgid) if isinstance(msgid, tuple | list) else msgid) not in used
    ]
    assert not stale, f"{language} entries no code uses:\n" + "\n".join(f"  {msgid!r}" for msgid in stale)


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_catalog_per_language_with_one_entry_per_message(language: str) -> None:
    import re

    assert [path.name for path in catalog_path(language).parent.iterdir()] == ["messages.po"]
    text = catalog_path(language).read_text(encoding="utf-8")
    written = len(re.findall(r"^msgid ", text, flags=re.MULTILINE)) - 1  # the header is an empty msgid
    assert written == len(_po_entries(language)), "a message written twice (Babel keeps one of them)"
    assert sorted(path.name for path in LOCALES_DIR.iterdir() if path.is_file()) == [
        "README.md",
        "messages.pot",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_entry_keeps_the_fields_of_its_message(language: str) -> None:
    wrong = [
        (msgid, text) for msgid, text in _texts(language) if text and field_names(text) != field_names(msgid)
    ]
    assert not wrong, "fields differ:\n" + "\n".join(f"{m!r} -> {t!r}" for m, t in wrong)


def _option_keys() -> set[str]:
    """Internal option names and values a player never sees as such ("chip_basis", "payer", "caller")."""
    import dataclasses

    from scorekeeper.games.racko.options import CHIP_BASES, RackoOptions
    from scorekeeper.games.rage.rules import RageOptions
    from scorekeeper.games.ruckzuck.rules import RuckZuckOptions

    names = {f.name for cls in (RackoOptions, RageOptions, RuckZuckOptions) for f in dataclasses.fields(cls)}
    return {name for name in names if "_" in name} | set(CHIP_BASES)


def test_no_internal_option_key_appears_in_a_message() -> None:
    import re

    keys = _option_keys()
    assert {"payer", "caller", "chip_basis"} <= keys
    pattern = re.compile(r"\b(" + "|".join(sorted(keys)) + r")\b")
    english = [m for m in TEMPLATES if pattern.search(re.sub(r"\{[^}]*\}", "", m.replace("'s", "")))]
    assert not [m for m in english if re.search(r"\((payer|caller)", m)], english
    for language in LANGUAGES:
        leaked = [(m, t) for m, t in _texts(language) if pattern.search(t)]
        assert not leaked, f"{language}: {leaked}"


def test_french_puts_a_non_breaking_space_before_high_punctuation_and_inside_guillemets() -> None:
    import re

    wrong = []
    for msgid, text in _texts("fr"):
        plain = re.sub(r"\{[^}]*\}", "x", text)  # a field's format spec ({points:+d}) is no punctuation
        for match in re.finditer(r"(.)([:;?!»])(.?)", plain):
            code = match.group(2) == ":" and match.group(1).isalnum() and match.group(3).isalnum()  # W:g
            if match.group(1) != NBSP and not code:
                wrong.append((msgid, text))
        if re.search(r"«(?!\u00a0)", plain):
            wrong.append((msgid, text))
    assert not wrong, f"{len(wrong)} French texts without U+00A0:\n" + "\n".join(repr(t) for _, t in wrong)
    doubled = [
        text for _, text in _texts("fr") if NBSP * 2 in text or f" {NBSP}" in text or f"{NBSP} " in text
    ]
    assert not doubled, doubled


QUOTES = {"de": "„“", "nl": "„”", "fr": "«»"}
"""Each language's quotation marks: German „…“, Dutch „…”, French « … »."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_apostrophe_and_quote_style_per_language(language: str) -> None:
    import re

    texts = " ".join(text for _, text in _texts(language))
    other_quotes = set('"“”„«»‘‚') - set(QUOTES[language])
    assert not other_quotes & set(texts), f"{language}: quotation marks other than {QUOTES[language]}"
    assert not re.findall(r"(?<![A-Za-z])'[^']*'(?![A-Za-z])", texts), "quoted with apostrophes"
    if language == "fr":
        assert "'" not in texts, "French uses one apostrophe: the typographic ’"


def test_the_scan_finds_the_count_messages() -> None:
    assert ("{n} exact bid", "{n} exact bids") in PLURALS
    assert any(singular.startswith("{who} took {cards}") for singular, _ in PLURALS)
    assert ("{who} may bid 0 to {size} trick.", "{who} may bid 0 to {size} tricks.") in PLURALS  # via _refuse
    assert len(PLURALS) >= 20


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_count_message_has_all_plural_forms_of_the_language(language: str) -> None:
    from babel.messages.plurals import get_plural

    forms = get_plural(language).num_plurals
    entries = {msgid: msgstr for _, msgid, msgstr in _po_entries(language) if isinstance(msgid, tuple)}
    for (singular, plural), where in PLURALS.items():
        assert (singular, plural) in entries, f"{where}: no plural entry for {singular!r} in {language}"
        translated = entries[(singular, plural)]
        assert len(translated) == forms and all(translated), (language, singular, translated)
        assert all(field_names(str(text)) <= field_names(plural) | {"n"} for text in translated), singular
    stale = set(entries) - set(PLURALS)
    assert not stale, f"plural entries no code uses: {stale}"


@pytest.mark.parametrize(
    ("language", "one", "many", "zero"),
    [
        ("en", "1 exact bid", "2 exact bids", "0 exact bids"),
        ("de", "1 genaue Ansage", "2 genaue Ansagen", "0 genaue Ansagen"),
        ("nl", "1 bod precies gehaald", "2 biedingen precies gehaald", "0 biedingen precies gehaald"),
        ("fr", "1 annonce exacte", "2 annonces exactes", "0 annonce exacte"),  # French: 0 takes the singular
    ],
)
def test_counts_take_the_plural_form_of_each_language(language: str, one: str, many: str, zero: str) -> None:
    t = Translator(language)
    assert [t.plural("{n} exact bid", "{n} exact bids", n) for n in (1, 2, 0)] == [one, many, zero]


def test_an_engine_count_message_picks_its_form_in_english_and_when_translated() -> None:
    match = Match.new("rage", {"players": 3}, ["a", "b", "c"], names=["Anna", "Ben", "Cleo"])
    match = match.with_round({"bids": [3, 3, 3], "tricks": [4, 3, 3], "bonus": [0, 0, 0], "minus": [0, 0, 0]})
    nine = {"bids": [1, 2, 3], "tricks": [1, 2, 6], "bonus": [0, 2, 0], "minus": [0, 0, 0]}
    nine["bonus"] = [2, 0, 0]  # Anna took 2 +5 cards but won 1 trick
    with pytest.raises(RuleError) as caught:
        match = match.with_round(nine)
    assert str(caught.value) == "Round 2: Anna took 2 +5 cards but won only 1 trick (one counts per trick)."
    assert caught.value.translated(Translator("de")) == (
        "Runde 2: Anna hat 2 +5-Karten genommen, aber nur 1 Stich gewonnen (pro Stich zählt eine)."
    )
    one_card = {"bids": [1, 0, 0], "tricks": [0, 5, 4], "bonus": [1, 0, 0], "minus": [0, 0, 0]}
    with pytest.raises(RuleError) as caught:
        match = match.with_round(one_card)
    assert str(caught.value) == "Round 2: Anna took 1 +5 card but won only 0 tricks (one counts per trick)."
    french = pickle.loads(pickle.dumps(caught.value)).translated(Translator("fr"))
    assert (
        french
        == f"Manche 2{NBSP}: Anna a pris 1 carte +5 mais n’a gagné que 0 pli (une seule compte par pli)."
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_app_is_named_in_the_language_of_its_title(language: str) -> None:
    title = catalog(language)["Scorekeeper"]
    assert title != "Scorekeeper"
    untranslated = [text for _, text in _texts(language) if "Scorekeeper" in text]
    assert not untranslated, untranslated
    assert title in Translator(language)("Scorekeeper version {version}", version="1.0")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "the Rage game of Anna and Ben (started May 1, 2026)"),
        ("de", "das Spiel Rage von Anna und Ben (begonnen am 01.05.2026)"),
        ("nl", "het Rage-spel van Anna en Ben (begonnen op 1 mei 2026)"),
        ("fr", "la partie de Rage d’Anna et Ben (commencée le 1er mai 2026)"),
    ],
)
def test_dates_inside_messages_are_written_the_way_the_language_writes_dates(
    language: str, expected: str
) -> None:
    from scorekeeper.store.repo import describe_match

    described = describe_match({"names": ["Anna", "Ben"], "game": "rage", "created": "2026-05-01T10:00:00"})
    shown = str(described) if language == "en" else described.translated(Translator(language))
    assert shown == expected
    assert "2026-05-01" not in pickle.loads(pickle.dumps(described)).translated(Translator(language))


def test_french_elides_de_before_a_name_that_starts_with_a_vowel() -> None:
    t = Translator("fr")
    assert t("Enter the rack of {who}.", who="Anna") == "Saisissez le Rack d’Anna."
    assert t("Enter the rack of {who}.", who="Ben") == "Saisissez le Rack de Ben."
    assert t("Enter the tricks of {name}.", name="Émile") == "Saisissez les plis d’Émile."


@pytest.mark.parametrize(
    ("language", "called", "went_out"),
    [
        (
            "de",
            ("Wer hat Racko gesagt?", "Ich habe Racko gesagt"),
            ("Wer hat alle Karten abgelegt?", "Ich habe alle Karten abgelegt"),
        ),
        ("nl", ("Wie riep Racko?", "Ik heb Racko geroepen"), ("Wie ging uit?", "Ik ben uitgegaan")),
        ("fr", ("Qui a fait Rack-O\u00a0?", "J’ai fait Rack-O"), ("Qui a fini\u00a0?", "J’ai fini")),
    ],
)
def test_a_phone_at_the_table_claims_a_round_in_the_words_the_round_form_asks_with(
    language: str, called: tuple[str, str], went_out: tuple[str, str]
) -> None:
    # The round form asks "Who called Racko?" / "Who went out?"; a phone keeping score at a live table answers
    # "I called Racko" / "I went out": the same game words (French also without a gendered "sorti").
    t = Translator(language)
    assert (t("Who called Racko?"), t("I called Racko")) == called
    assert (t("Who went out?"), t("I went out")) == went_out


def test_dutch_speaks_to_the_player_as_je_throughout() -> None:
    # The app says "je/jij/jouw" to the player on every screen; a formal "u/uw" here and there (a phone's seat
    # and name at a live table, sync) read as two voices on one screen ("Uw naam" above "Jouw bod").
    import re

    formal = re.compile(r"\b(u|uw|U|Uw|uzelf)\b")
    assert [text for _, text in _texts("nl") if formal.search(text)] == []


def test_french_names_a_human_seat_without_the_word_for_nobody() -> None:
    # The setup's seat chip says "You" over "Person"; alone under a name, French "Personne" reads "nobody".
    assert Translator("fr")("Person") == "Joueur humain"


@pytest.mark.parametrize(
    ("language", "first", "second"),
    [("en", "1.", "2."), ("de", "1.", "2."), ("nl", "1e", "2e"), ("fr", "1er", "2e")],
)
def test_places_are_written_per_language(language: str, first: str, second: str) -> None:
    from scorekeeper.ui.components.score_table import place_label
    from scorekeeper.ui.context import AppContext

    ctx = AppContext(page=None, store=None, t=Translator(language))  # type: ignore[arg-type]
    assert place_label(ctx, 1, False) == first
    assert place_label(ctx, 2, True) == f"{second}="


# ------------------------------------------------------------------ the rule sheets' own words

RULES_TEXT = ROOT / "ui" / "rulebook_text"
GAME_WORDS = {
    "de": (
        ["Schlitz", "Abwurfstoß", "Racko sagen", "Kartenhalter"],
        r"\bFach\b|Fächer|Ablagestapel|Racko (ge)?ruf|\bRufer",
    ),
    "nl": (["rekje", "gleuf", "stok", "aflegstapel"], r"\brek\b|\brekken\b|\bvak\b|\bvakken\b|rondeuitslag"),
    "fr": (
        ["Rack", "fente", "faire Rack-O", "défausse"],
        r"\bsupports?\b|annonceur|annonce[rz]? Racko|\b(tu|ton|tes|ta)\b",
    ),
}
"""Per language: words the rule sheets use (each must appear) and words they don't (none may appear)."""


def _all_text(language: str) -> str:
    rules = "\n".join(
        path.read_text(encoding="utf-8") for path in sorted((RULES_TEXT / language).glob("*.md"))
    )
    return rules + "\n" + "\n".join(text for _, text in _texts(language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogs_and_rules_use_the_rule_sheets_words(language: str) -> None:
    import re

    wanted, unwanted = GAME_WORDS[language]
    text = _all_text(language)
    assert [word for word in wanted if word not in text] == []
    wrong = sorted({line.strip() for line in text.splitlines() if re.search(unwanted, line)})
    assert not wrong, "\n".join(wrong)


def test_french_rules_text_follows_french_typography() -> None:
    import re

    for path in sorted((RULES_TEXT / "fr").glob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            assert "'" not in line, line
            for match in re.finditer(r"(.)([:;?!»])(.?)", line):
                assert match.group(1) == NBSP, line


def test_the_french_typography_tool_fixes_a_new_catalog_and_leaves_the_others_alone(tmp_path: Path) -> None:
    import shutil

    from babel.messages.pofile import read_po

    from scorekeeper.ui.french_typography import FRENCH_DIR, rewrite

    new = tmp_path / "new.po"
    new.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
        'msgid "Who? {n}: see"\nmsgstr "Qui ? {n} : voir l\'écran « Règles »; W:g !"\n\n'
        'msgid "{n} game"\nmsgid_plural "{n} games"\nmsgstr[0] "{n} partie: l\'une"\nmsgstr[1] "{n} parties:"\n',
        encoding="utf-8",
    )
    assert rewrite(new)
    with new.open("rb") as handle:
        texts = [m.string for m in read_po(handle, locale="fr") if m.id]
    assert texts[0] == f"Qui{NBSP}? {{n}}{NBSP}: voir l’écran «{NBSP}Règles{NBSP}»{NBSP}; W:g{NBSP}!"
    assert list(texts[1]) == [f"{{n}} partie{NBSP}: l’une", f"{{n}} parties{NBSP}:"]
    assert "Language: fr" in new.read_text(encoding="utf-8")
    copy = tmp_path / "fr"
    shutil.copytree(FRENCH_DIR, copy)
    assert not any(rewrite(path) for path in sorted(copy.glob("*.po")))  # the catalogs already follow it


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [("en", "1 exact bid", "2 exact bids"), ("de", "1 genaue Ansage", "2 genaue Ansagen")],
)
def test_the_scoreboard_counts_exact_bids_with_the_languages_plural(
    tmp_path: Path, language: str, one: str, two: str
) -> None:
    from test_ui_core_harness import App

    app = App(tmp_path / "data")
    app.ctx.update_settings(language=language)
    match = Match.new("rage", {"players": 3}, ["a", "b", "c"], names=["Anna", "Ben", "Cleo"])
    match = match.with_round({"bids": [4, 3, 4], "tricks": [4, 3, 3], "bonus": [0, 0, 0], "minus": [0, 0, 0]})
    match = match.with_round({"bids": [3, 2, 3], "tricks": [3, 3, 3], "bonus": [0, 0, 0], "minus": [0, 0, 0]})
    match = app.store.save_match(match)
    app.go(f"/match/{match.id}")
    shown = app.screen_text()
    assert two in shown and one in shown  # Anna made both bids, Ben and Cleo one each
    assert "1 exact bids" not in shown and "1 genaue Ansagen" not in shown


def test_the_extraction_method_reads_what_babels_python_extractor_cannot() -> None:
    import io

    from babel.messages.extract import extract
    from babel.messages.frontend import parse_keywords

    source = b"""
def view(ctx, shown, n):
    template = "Still {n} to go." if n else "Done."
    # TRANSLATORS: the button that folds the list
    ctx.t("Hide" if shown else "Show")
    ctx.t(template, n=n)
    ctx.t(other_text)
    Capitalized("{what}", what=1)
    ctx.t.plural("{n} card" if shown else "{n} stone", "{n} cards" if shown else "{n} stones", n)
    raise RuleError(f"not {n} marked")
"""
    keywords = parse_keywords(["t", "plural:1,2", "Capitalized", "RuleError"])
    found = [
        (message, comments)
        for _, message, comments, _ in extract(
            "scorekeeper.ui.i18n_extract:extract", io.BytesIO(source), keywords, ["TRANSLATORS:"]
        )
    ]
    assert [message for message, _ in found] == [
        "Hide",
        "Show",
        "Still {n} to go.",
        "Done.",
        ("{n} card", "{n} cards"),
        ("{n} stone", "{n} stones"),
    ]
    assert found[0][1] == ["TRANSLATORS: the button that folds the list"]
