"""docs/RULES*.md: the in-app rules texts as documents readable in the repository itself.

The rules the app follows are the rules screen's texts (scorekeeper/ui/rulebook_text/<lang>/<game>.md). This
script joins them into one document per language, so that a person who clones the repository can read them
without starting the app. tests/test_rulebook_docs.py fails when a document is out of date.

    python -m scorekeeper.ui.rulebook_docs          # write docs/RULES.md, docs/RULES.de.md, ...
"""

from __future__ import annotations

import re
from pathlib import Path

from scorekeeper.games.spec import KEYS
from scorekeeper.ui.i18n import LANGUAGES
from scorekeeper.ui.views.rulebook import RULES_DIR

DOCS_DIR = Path(__file__).resolve().parents[2] / "docs"
GAMES = KEYS  # the registry's order
TITLES = {
    "en": "The rules the app follows",
    "de": "Die Regeln, nach denen die App zählt",
    "nl": "De regels die de app volgt",
    "fr": "Les règles que suit l’application",
}


def doc_name(language: str) -> str:
    return "RULES.md" if language == "en" else f"RULES.{language}.md"


def document(language: str) -> str:
    """The rules of every game in `language`, each game's headings one level down under the document title."""
    others = " · ".join(
        f"[{name}]({doc_name(code)})" if code != language else name for code, name in LANGUAGES.items()
    )
    parts = [
        f"# {TITLES[language]}\n",
        f"<!-- Generated from scorekeeper/ui/rulebook_text/{language}/ by `python -m scorekeeper.ui.rulebook_docs`: "
        "edit those files, not this one. -->\n",
        f"{others}\n",
    ]
    for game in GAMES:
        text = (RULES_DIR / language / f"{game}.md").read_text(encoding="utf-8").strip()
        parts.append(re.sub(r"^(#+) ", r"#\1 ", text, flags=re.MULTILINE) + "\n")
    return "\n".join(parts)


def write(folder: Path = DOCS_DIR) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for language in LANGUAGES:
        path = folder / doc_name(language)
        path.write_text(document(language), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write():
        print(path)
