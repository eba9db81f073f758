"""French typography for the French catalog: `python -m scorekeeper.ui.french_typography` rewrites the
translations (msgstr lines) of locales/fr/LC_MESSAGES/messages.po in place; `make messages` runs it after
`pybabel update`, so entries a translator typed get their spaces.

French puts a non-breaking space (U+00A0) before : ; ? ! and », and after «, and uses one apostrophe, the
typographic ’. Translators type plain spaces and ' ; this applies the rule to every entry, so the catalog passes
tests/test_catalogs_i18n.py. `{fields}` are left alone, and so are card codes such as W:g (no space).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

NBSP = "\u00a0"
FRENCH_DIR = Path(__file__).with_name("locales") / "fr" / "LC_MESSAGES"
_QUOTED = re.compile(r'^(msgstr(?:\[\d+\])? |)"(.*)"$')


def french(text: str) -> str:
    """`text` with French spacing and apostrophes (fields such as {points:+d} untouched)."""
    parts = re.split(r"(\{[^}]*\})", text)
    return "".join(part if part.startswith("{") else _plain(part) for part in parts)


def _plain(text: str) -> str:
    text = re.sub(r"[ \u202f\u00a0]*([;?!»])", lambda m: NBSP + m.group(1), text)
    text = re.sub(r"[ \u202f\u00a0]*:(?![A-Za-z0-9])", NBSP + ":", text)  # "W:g" stays a card code
    text = re.sub(r" :(?=[A-Za-z0-9])", NBSP + ":", text)
    text = re.sub(r"«[ \u202f\u00a0]*", "«" + NBSP, text)
    return text.replace("'", "’")


def rewrite(path: Path) -> bool:
    """Apply `french` to the msgstr lines (and their continuation lines) of one .po file; True if it changed."""
    lines = path.read_text(encoding="utf-8").split("\n")
    in_msgstr = False
    for index, line in enumerate(lines):
        if line.startswith(("msgid", "#")):
            in_msgstr = False
        if line.startswith("msgstr"):
            header = line == 'msgstr ""' and index > 0 and lines[index - 1] == 'msgid ""'
            in_msgstr = not header  # the header's "Language: fr" lines are no translation
        match = _QUOTED.match(line)
        if in_msgstr and match:
            lines[index] = f'{match.group(1)}"{french(match.group(2))}"'
    text = "\n".join(lines)
    changed = text != path.read_text(encoding="utf-8")
    if changed:
        path.write_text(text, encoding="utf-8")
    return changed


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else FRENCH_DIR
    for po_file in sorted(folder.glob("*.po")):
        if rewrite(po_file):
            print(f"rewritten: {po_file}")
