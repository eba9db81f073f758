"""assets/index.html is Flet's own page plus the font-fallback line (scorekeeper/server/web_index.py).

A stale copy would serve an old Flet page to a newer Flet client, so the copy must be exactly what the generator
makes from the installed flet-web."""

from __future__ import annotations

from pathlib import Path

import pytest
from flet_web.patch_index import patch_index_html

from scorekeeper.server import web_index


def test_assets_index_is_flets_page_with_the_font_fallback_line() -> None:
    expected = web_index.patched(web_index.flet_index())
    assert web_index.TARGET.read_text(encoding="utf-8") == expected, (
        "run: python -m scorekeeper.server.web_index"
    )
    assert f'flet.fontFallbackBaseUrl = "{web_index.FONT_FALLBACK_BASE_URL}";' in expected
    # after Flet's config (which sets assets/fonts/ under no_cdn), so ours wins
    assert expected.index(web_index.MARKER) < expected.index(web_index.FONT_FALLBACK_BASE_URL)
    assert expected.index(web_index.FONT_FALLBACK_BASE_URL) < expected.index("flutter_bootstrap.js")


def test_a_changed_flet_page_is_refused() -> None:
    with pytest.raises(ValueError):
        web_index.patched("<html></html>")


def test_flet_puts_its_config_before_ours(tmp_path: Path) -> None:
    """Flet replaces the marker by its config script; ours follows it, so the served page sets the URL last."""
    page = tmp_path / "index.html"
    page.write_text(web_index.TARGET.read_text(encoding="utf-8"), encoding="utf-8")
    patch_index_html(str(page), "/", no_cdn=True)
    served = page.read_text(encoding="utf-8")
    flet_line = served.index('flet.fontFallbackBaseUrl="assets/fonts/"')
    assert flet_line < served.index(f'flet.fontFallbackBaseUrl = "{web_index.FONT_FALLBACK_BASE_URL}"')
    assert 'flet.canvasKitBaseUrl="/canvaskit/"' in served
