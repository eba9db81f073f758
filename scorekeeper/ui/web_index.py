"""Make assets/index.html: Flet's own web page plus one line that sends Flutter's fallback fonts to Google Fonts.

Why: the web app is served with `no_cdn` (CanvasKit from our own server), because otherwise the page waits
forever for CanvasKit where there is no internet. Flet's `no_cdn` also sets Flutter's `fontFallbackBaseUrl` to
`assets/fonts/`, where we ship only the emoji font, so names in other scripts ("李") found no font even online.
Flet 1.0.5 serves `index.html` from the app's assets folder when there is one (`FletStaticFiles`) and still
injects its config at `<!-- fletAppConfig -->`; `flutter_bootstrap.js` passes `flet.fontFallbackBaseUrl` to the
engine whatever `noCdn` says. So our copy sets that value again right after Flet's config: CanvasKit, Roboto and
the emoji font stay local, the Noto fallbacks for other scripts come from fonts.gstatic.com (Flutter's own
default) where the device is online; offline such text stays boxes of the same width and nothing waits for it.

It also loads `assets/scorekeeper.js` before Flet's client starts: Flet's client fetches its Rive runtime
(`rive_native.js`) from cdn.jsdelivr.net even with `no_cdn`, and the script points that at a local stand-in
(the app draws no Rive animation), so an offline app calls no third-party host; and while the connection to the
host is lost (Flet shows only "Working...") it says so, and that it is being retried.

Regenerate after upgrading Flet (a test fails when the copy is stale):

    python -m scorekeeper.ui.web_index
"""

from __future__ import annotations

from pathlib import Path

# Flutter's default fallback-font location (engine configuration `fontFallbackBaseUrl`).
FONT_FALLBACK_BASE_URL = "https://fonts.gstatic.com/s/"
MARKER = "<!-- fletAppConfig -->"
SCRIPT = "scorekeeper.js"
"""assets/scorekeeper.js: keeps the Rive runtime from loading off a CDN, and says when the host is lost."""
OVERRIDE = (
    "<script>\n"
    "    // scorekeeper (scorekeeper/ui/web_index.py): fallback fonts for other scripts from Google Fonts,\n"
    "    // CanvasKit and the bundled emoji font stay local (set after Flet's no_cdn config above).\n"
    f'    flet.fontFallbackBaseUrl = "{FONT_FALLBACK_BASE_URL}";\n'
    "  </script>\n"
    f'  <script src="{SCRIPT}"></script>'
)
TARGET = Path(__file__).resolve().parents[2] / "assets" / "index.html"


def flet_index() -> str:
    """The index.html of the installed flet-web (the page Flet would serve without our copy)."""
    import flet_web

    return (Path(flet_web.__file__).parent / "web" / "index.html").read_text(encoding="utf-8")


def patched(source: str) -> str:
    """`source` with OVERRIDE right after Flet's config marker (which Flet replaces by its config script)."""
    if source.count(MARKER) != 1:
        raise ValueError(f"Flet's index.html no longer has exactly one {MARKER}: check the font fallback fix")
    return source.replace(MARKER, f"{MARKER}\n  {OVERRIDE}")


def main() -> None:
    TARGET.write_text(patched(flet_index()), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
