"""Translations: gettext catalogs (.po) per language, read with Babel.

English is the source language: a message id *is* the English text, so English needs no catalog. Each part of
the UI keeps its own domain file (`locales/<lang>/LC_MESSAGES/<domain>.po`) so that catalogs stay small and
people translating one screen don't touch another's. All domains of a language are merged at load time.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).with_name("locales")
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "fr": "Français"}
DEFAULT_LANGUAGE = "en"


@cache
def catalog(language: str) -> dict[str, str]:
    """Every translated message of `language` (all domains), id -> text. Untranslated entries are left out."""
    messages: dict[str, str] = {}
    folder = LOCALES_DIR / language / "LC_MESSAGES"
    for po_file in sorted(folder.glob("*.po")):
        with po_file.open("rb") as handle:
            for message in read_po(handle, locale=language):
                if message.id and isinstance(message.id, str) and message.string and not message.fuzzy:
                    messages[message.id] = str(message.string)
    return messages


class Translator:
    """Turns an English message id into the chosen language; `{name}` fields are filled from keywords."""

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE

    def __call__(self, message: str, /, **fields: object) -> str:
        text = catalog(self.language).get(message, message) if self.language != "en" else message
        return text.format(**fields) if fields else text

    def missing(self, messages: list[str]) -> list[str]:
        """The messages among `messages` that have no translation in this language."""
        if self.language == "en":
            return []
        known = catalog(self.language)
        return [m for m in messages if m not in known]
