"""What the running Python can do, so the app chooses by capability rather than by copies of screens.

`IN_BROWSER`: Python runs inside the browser (the static build, Pyodide under Emscripten): no threads, no
processes, no sockets, no server; the data folder is the browser's IndexedDB (scorekeeper/static/worker.py). What
needs a host there (hosting a live table, joining one, WebDAV sync) is shown as unavailable, with how to get it.
"""

from __future__ import annotations

import sys

IN_BROWSER = sys.platform == "emscripten"
HOST_NEEDED = (
    "This needs the app served by a computer: run `make web` (or `make table`) and open its address."
)
"""The line shown where a feature needs a host."""


def can_start_threads() -> bool:
    """Whether `threading.Thread.start` works here (not in Pyodide)."""
    return not IN_BROWSER
