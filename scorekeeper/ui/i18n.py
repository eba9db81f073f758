"""Translations: one gettext catalog per language (`locales/<lang>/LC_MESSAGES/messages.po`), read with Babel.

English is the source language: a message id *is* the English text, so English needs no catalog. The catalogs
follow the code: `make messages` extracts every marked message into the template `locales/messages.pot`
(Babel's extract, babel.cfg, `ui/i18n_extract.py`) and updates each catalog from it (`pybabel update`); a
translator fills in the new entries (locales/README.md). tests/test_catalogs_i18n.py fails while a message of
the code has no translation or a catalog keeps one no code uses.

Counts ("1 exact bid", "3 exact bids") are plural entries (msgid / msgid_plural / msgstr[i]): each language
picks its form with its own gettext plural rule (French says "0 carte", English "0 cards").
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).with_name("locales")
DOMAIN = "messages"
"""The catalogs' one domain: `locales/<lang>/LC_MESSAGES/messages.po`, made from `locales/messages.pot`."""
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "fr": "Français"}
DEFAULT_LANGUAGE = "en"


def catalog_path(language: str) -> Path:
    """Where the catalog of `language` lives."""
    return LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def _messages(language: str) -> Iterator[Message]:
    """Babel's translated, not fuzzy messages of the catalog of `language` (none for a language without one)."""
    path = catalog_path(language)
    if not path.is_file():
        return
    with path.open("rb") as handle:
        yield from (m for m in read_po(handle, locale=language) if m.id and m.string and not m.fuzzy)


@cache
def catalog(language: str) -> dict[str, str]:
    """Every translated message of `language`, id -> text. Untranslated entries are left out."""
    return {m.id: str(m.string) for m in _messages(language) if isinstance(m.id, str)}


@cache
def plural_catalog(language: str) -> dict[str, tuple[str, ...]]:
    """Every translated plural entry of `language`: singular msgid -> the forms (msgstr[0], msgstr[1], ...)."""
    return {
        str(m.id[0]): tuple(str(form) for form in m.string)
        for m in _messages(language)
        if isinstance(m.id, tuple) and isinstance(m.string, tuple | list) and all(m.string)
    }


@cache
def plural_rule(language: str) -> Callable[[int], int]:
    """Which plural form (index into msgstr[]) a count takes in `language`, after CLDR's gettext rules."""
    return gettext.c2py(get_plural(language).plural_expr)


_ELISION = re.compile(r"\b([Dd]e|[Qq]ue) \{(\w+)\}")
_VOWELS = "aeiouyàâäéèêëîïôöûüæœ"


def elided(text: str, fields: dict[str, object]) -> str:
    """French drops the vowel of "de" and "que" before a vowel: "le Rack de {who}" with Anna is "le Rack
    d’Anna". The template cannot know the name, so the apostrophe goes in where the field's value needs it."""

    def elide(match: re.Match[str]) -> str:
        value = str(fields.get(match.group(2), ""))
        if value[:1].lower() in _VOWELS and value[:1]:
            return f"{match.group(1)[:-1]}’{{{match.group(2)}}}"
        return match.group(0)

    return _ELISION.sub(elide, text)


class Translator:
    """Turns an English message id into the chosen language; `{name}` fields are filled from keywords."""

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE

    def __call__(self, message: str, /, **fields: object) -> str:
        text = catalog(self.language).get(message, message) if self.language != "en" else message
        if self.language == "fr" and fields:
            text = elided(text, fields)
        return text.format(**fields) if fields else text

    def plural(self, singular: str, plural: str, n: int, /, **fields: object) -> str:
        """The form of a count message for `n` (gettext's ngettext); `{n}` is filled with `n` unless a field
        of that name is given. A message without a translation falls back to English."""
        forms = plural_catalog(self.language).get(singular) if self.language != "en" else None
        if forms:
            index = plural_rule(self.language)(n)
            text = forms[min(index, len(forms) - 1)]
        else:
            text = singular if n == 1 else plural
        if self.language == "fr":
            text = elided(text, fields)
        return text.format(**{"n": n, **fields})

    def missing(self, messages: list[str]) -> list[str]:
        """The messages among `messages` that have no translation in this language."""
        if self.language == "en":
            return []
        known = catalog(self.language)
        return [m for m in messages if m not in known]
