"""Make assets/index.html: Flet's own web page plus one line that sends Flutter's fallback fonts to Google Fonts,
and a few that take an owner link's token out of the address before the app starts.

Why: the web app is served with `no_cdn` (CanvasKit from our own server), because otherwise the page waits
forever for CanvasKit where there is no internet. Flet's `no_cdn` also sets Flutter's `fontFallbackBaseUrl` to
`assets/fonts/`, where we ship only the emoji font, so names in other scripts ("李") found no font even online.
Flet 1.0.5 serves `index.html` from the app's assets folder when there is one (`FletStaticFiles`) and still
injects its config at `<!-- fletAppConfig -->`; `flutter_bootstrap.js` passes `flet.fontFallbackBaseUrl` to the
engine whatever `noCdn` says. So our copy sets that value again right after Flet's config: CanvasKit, Roboto and
the emoji font stay local, the Noto fallbacks for other scripts come from fonts.gstatic.com (Flutter's own
default) where the device is online; offline such text stays boxes of the same width and nothing waits for it.

The owner link (`/#owner=<token>`, see scorekeeper/server/owner_devices.py) carries a one-time token. The page moves it
into the browser's storage, under the key Flet's `SharedPreferences` reads as `scorekeeper.owner_link` (Flutter
prefixes `flutter.` and stores JSON), and replaces the address without it (`history.replaceState`): the token is
never in the address bar or the history, and, being after `#`, never sent to a server or a proxy's log. The app
redeems it from there when the session starts (scorekeeper/server/owner_session.py). `?owner=` works the same way, and so
does a member link (`#member=`).
It also loads `assets/scorekeeper.js` before Flet's client starts: Flet's client fetches its Rive runtime
(`rive_native.js`) from cdn.jsdelivr.net even with `no_cdn`, and the script points that at a local stand-in
(the app draws no Rive animation), so an offline app calls no third-party host; and while the connection to the
host is lost (Flet shows only "Working...") it says so, and that it is being retried.

While the page loads, it shows the app's own splash (`SPLASH`, instead of Flet's animated logo): the icon, the
name and a moving bar in the app's colours, light or dark as the device is, drawn by the browser from the page
itself within its first paint (nothing to fetch but the icon), until Flutter draws its first frame.

Regenerate after upgrading Flet (a test fails when the copy is stale):

    python -m scorekeeper.server.web_index
"""

from __future__ import annotations

import re
from pathlib import Path

# Flutter's default fallback-font location (engine configuration `fontFallbackBaseUrl`).
FONT_FALLBACK_BASE_URL = "https://fonts.gstatic.com/s/"
MARKER = "<!-- fletAppConfig -->"
OWNER_LINK_STORAGE_KEY = "flutter.scorekeeper.owner_link"
"""Where the page leaves an owner link's token: `SharedPreferences` key `scorekeeper.owner_link` on the web (a
member link's: `scorekeeper.member_link`)."""
SCRIPT = "scorekeeper.js"
"""assets/scorekeeper.js: keeps the Rive runtime from loading off a CDN, and says when the host is lost."""
OVERRIDE = (
    "<script>\n"
    "    // scorekeeper (scorekeeper/server/web_index.py): fallback fonts for other scripts from Google Fonts,\n"
    "    // CanvasKit and the bundled emoji font stay local (set after Flet's no_cdn config above).\n"
    f'    flet.fontFallbackBaseUrl = "{FONT_FALLBACK_BASE_URL}";\n'
    "  </script>\n"
    "  <script>\n"
    "    // scorekeeper (scorekeeper/server/web_index.py): an owner or member link's token goes to storage, not\n"
    "    // into history.\n"
    "    (function () {\n"
    "      var url = new URL(window.location.href);\n"
    '      var hash = new URLSearchParams(url.hash.replace(/^#/, ""));\n'
    "      var found = false;\n"
    '      ["owner", "member"].forEach(function (kind) {\n'
    "        var token = hash.get(kind) || url.searchParams.get(kind);\n"
    "        if (!token) return;\n"
    "        found = true;\n"
    '        var key = "flutter.scorekeeper." + kind + "_link";\n'
    "        try { localStorage.setItem(key, JSON.stringify(token)); } catch (e) {}\n"
    "        url.searchParams.delete(kind);\n"
    "        hash.delete(kind);\n"
    "      });\n"
    "      if (!found) return;\n"
    "      var rest = hash.toString();\n"
    '      history.replaceState(history.state, "", url.pathname + url.search + (rest ? "#" + rest : ""));\n'
    "    })();\n"
    "  </script>\n"
    f'  <script src="{SCRIPT}"></script>'
)
SPLASH = """<div id="loading" role="status" aria-label="Scorekeeper is starting">
    <style>
      #loading {
        position: fixed;
        inset: 0;
        display: flex;
        flex-direction: column;
        align-items: center;
        justify-content: center;
        gap: 20px;
        background: #ffffff;
        color: #3f51b5;
        font-family: Roboto, system-ui, sans-serif;
      }
      #loading img { width: 96px; height: 96px; border-radius: 22px; }
      #loading .name { font-size: 28px; font-weight: 500; letter-spacing: 0.02em; }
      #loading .bar { width: 160px; height: 4px; border-radius: 2px; background: #c5cae9; overflow: hidden; }
      #loading .bar::after {
        content: "";
        display: block;
        width: 40%;
        height: 100%;
        background: #3f51b5;
        animation: sk-progress 1.2s ease-in-out infinite;
      }
      @keyframes sk-progress { from { transform: translateX(-100%); } to { transform: translateX(250%); } }
      @media (prefers-color-scheme: dark) {
        #loading { background: #1b1b1f; color: #bac3ff; }
        #loading .bar { background: #3f4759; }
        #loading .bar::after { background: #bac3ff; }
      }
      @media (prefers-reduced-motion: reduce) {
        #loading .bar::after { animation: none; width: 100%; }
      }
    </style>
    <img src="icon.png" alt="">
    <div class="name">Scorekeeper</div>
    <div class="bar"></div>
  </div>"""
"""The page's splash: Flet's `#loading` element (which Flutter's bootstrap removes at the first frame) with the
app's icon, name and colours (the theme's seed, #3F51B5; a light tone of it in dark mode) and a bar that moves,
or stands still where the device asks for reduced motion."""
FLET_SPLASH = re.compile(r'<div id="loading".*?</div>', re.DOTALL)

TARGET = Path(__file__).resolve().parents[2] / "assets" / "index.html"


def flet_index() -> str:
    """The index.html of the installed flet-web (the page Flet would serve without our copy)."""
    import flet_web

    return (Path(flet_web.__file__).parent / "web" / "index.html").read_text(encoding="utf-8")


def patched(source: str) -> str:
    """`source` with OVERRIDE right after Flet's config marker (which Flet replaces by its config script), and
the app's splash for Flet's."""
    if source.count(MARKER) != 1:
        raise ValueError(f"Flet's index.html no longer has exactly one {MARKER}: check the font fallback fix")
    if len(FLET_SPLASH.findall(source)) != 1:
        raise ValueError("Flet's index.html no longer has one loading element: check the splash")
    return FLET_SPLASH.sub(lambda _: SPLASH, source.replace(MARKER, f"{MARKER}\n  {OVERRIDE}"))


def main() -> None:
    TARGET.write_text(patched(flet_index()), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
