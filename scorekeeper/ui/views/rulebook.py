"""Rules: a short reference for each game, in the app's language.

The texts are Markdown files, one per game and language (`scorekeeper/ui/rulebook_text/<lang>/<game>.md`),
condensed from RULES.md for players; a language without its own text falls back to English.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import flet as ft

from scorekeeper.ui.components.extras_common import GAME_ORDER, language, pills
from scorekeeper.ui.components.layout import screen
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext

RULES_DIR = Path(__file__).resolve().parents[1] / "rulebook_text"


@cache
def rules_text(game: str, lang: str) -> str:
    """The rules of `game` in `lang` (English if that language has none)."""
    for candidate in (lang, "en"):
        path = RULES_DIR / candidate / f"{game}.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return ""


def build(ctx: AppContext, game: str | None = None, **_: str) -> ft.View:
    chosen = game if game in GAME_ORDER else GAME_ORDER[0]
    choices = pills(
        [(g, game_title(ctx, g)) for g in GAME_ORDER],
        chosen,
        lambda g: ctx.navigate(f"/rules?game={g}"),
        prefix="rules-game",
    )
    text = ft.Markdown(
        rules_text(chosen, language(ctx)),
        selectable=False,  # selectable Markdown hides its text from screen readers (and browser tests)
        extension_set=ft.MarkdownExtensionSet.GITHUB_WEB,
    )
    controls: list[ft.Control] = [
        choices,
        tag(f"rules-text-{chosen}", ft.Container(text, padding=ft.Padding.only(bottom=24))),
    ]
    return screen(ctx, "/rules", ctx.t("Rules"), controls)
