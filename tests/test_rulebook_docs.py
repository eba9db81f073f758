"""The rules the app follows are readable from the repository: docs/RULES*.md, generated from the in-app texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.ui.i18n import LANGUAGES
from scorekeeper.ui.rulebook_docs import DOCS_DIR, doc_name, document

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_rules_document_is_up_to_date(language: str) -> None:
    path = DOCS_DIR / doc_name(language)
    assert path.is_file(), f"run: python -m scorekeeper.ui.rulebook_docs ({path} is missing)"
    assert path.read_text(encoding="utf-8") == document(language), (
        "run: python -m scorekeeper.ui.rulebook_docs"
    )


def test_the_document_holds_every_game_under_one_title() -> None:
    text = document("en")
    assert text.count("\n# ") == 0 and text.startswith("# ")
    for game in ("## Racko", "## Ruck Zuck", "## Rage"):
        assert game in text
    assert "\n### " in text  # each game's sections sit under the game


def test_the_readme_points_into_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    assert "docs/RULES.md" in readme
