"""Translations: gettext catalogs (.po) per language, read with Babel.

English is the source language: a message id *is* the English text, so English needs no catalog. Each part of
the UI keeps its own domain file (`locales/<lang>/LC_MESSAGES/<domain>.po`) so that catalogs stay small and
people translating one screen don't touch another's. All domains of a language are merged at load time; a
message id lives in exactly one domain file (tests/test_messages_i18n.py checks it).

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
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "fr": "Français"}
DEFAULT_LANGUAGE = "en"


def _messages(language: str) -> Iterator[Message]:
    """Babel's translated, not fuzzy messages of every domain of `language`."""
    folder = LOCALES_DIR / language / "LC_MESSAGES"
    for po_file in sorted(folder.glob("*.po")):
        with po_file.open("rb") as handle:
            yield from (m for m in read_po(handle, locale=language) if m.id and m.string and not m.fuzzy)


@cache
def catalog(language: str) -> dict[str, str]:
    """Every translated message of `language` (all domains), id -> text. Untranslated entries are left out."""
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
