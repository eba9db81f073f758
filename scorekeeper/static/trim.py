"""What the static site leaves out of Flet's web client and Pyodide, or keeps smaller (`make static`: the size
counts at a phone's first load and in its storage).

- `fonts_without_maths`: FontManifest.json without the KaTeX families and the Cupertino icons (Flutter fetches
  every listed font at its start; the app draws no maths and uses no Cupertino (adaptive) controls; the files
  stay out of the site, `static.build.WEB_LEFT_OUT`).
- `slim_pyodide`: the standard library without what cannot run or is never used in a browser tab
  (`STDLIB_LEFT_OUT`: debuggers, test runners, the REPL, mail and FTP clients, servers, processes), and a
  package list (`pyodide-lock.json`) without the 357 packages of Pyodide's CDN, none of which is in the site or
  used (an import of one then fails as any missing module does, not with a hint to install it).
- `gzipped`: the largest files kept gzipped (`GZIPPED`: CanvasKit, Pyodide's runtime, the icon font, the
  licence notices; 20 MB as 7 MB), so that the site, the snapshot of the started interpreter included, stays
  within 40 MB. Nothing asks for a `.gz` by name: the page and the worker ask for the plain names. The service
  worker (sw.js) inflates each once, when it installs, and answers the plain names from that copy (no inflating
  at every start); until it controls the page (the first load, a browser without service workers), the page's
  script (page.js, its `fetch`) and the Python worker's (boot.js) fetch the `.gz` and inflate it, unless the
  host answers the plain names itself (the owner's server does, scorekeeper/server/static_site.py).
"""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

FONT_FAMILIES_LEFT_OUT = ("packages/flutter_math_fork/", "packages/cupertino_icons/")
STDLIB_LEFT_OUT = [
    "_pyrepl",
    "bdb",
    "cmd",
    "code",
    "doctest",
    "ftplib",
    "idlelib",
    "imaplib",
    "mailbox",
    "modulefinder",
    "multiprocessing",
    "pdb",
    "poplib",
    "profile",
    "pstats",
    "pydoc",
    "pydoc_data",
    "smtplib",
    "sqlite3",
    "tabnanny",
    "timeit",
    "trace",
    "tkinter",
    "turtle",
    "turtledemo",
    "unittest",
    "venv",
    "ensurepip",
    "wsgiref",
    "xmlrpc",
    "_pyio",
    "pickletools",
    "plistlib",
    "socketserver",
    "wave",
]
"""Top-level modules and packages of the standard library the site leaves out (none is imported by the app,
Flet or the libraries in a tab; `multiprocessing` needs processes, which a browser has not)."""
GZIPPED = {
    "canvaskit/canvaskit.wasm": "application/wasm",
    "assets/fonts/MaterialIcons-Regular.otf": "font/otf",
    "assets/NOTICES": "text/plain; charset=utf-8",
    "pyodide/pyodide.asm.wasm": "application/wasm",
    "pyodide/pyodide.asm.mjs": "text/javascript",
    "pyodide/snapshot.bin": "application/octet-stream",
}
"""The site's files kept as `<name>.gz` only, with the type they are answered with when inflated
(`application/wasm` for streaming compilation, a JavaScript type for a module import). The snapshot is written
gzipped by scorekeeper/static/snapshot.py; `gzipped` packs the others. Flutter's `main.dart.js` (9.6 MB) stays
plain: answered inflated, it started 0.5 s slower at every warm start (the browser keeps no compiled code for a
script the service worker made up), where the wasm files cost little; and it would need a `blob:` script at a
first load."""


def fonts_without_maths(out: Path) -> None:
    manifest = out / "assets" / "FontManifest.json"
    families = json.loads(manifest.read_text(encoding="utf-8"))
    kept = [family for family in families if not family["family"].startswith(FONT_FAMILIES_LEFT_OUT)]
    manifest.write_text(json.dumps(kept, indent=2), encoding="utf-8")


def stdlib_kept(name: str) -> bool:
    top = name.split("/", 1)[0].removesuffix(".py")
    return top not in STDLIB_LEFT_OUT


def slim_pyodide(pyodide: Path) -> None:
    stdlib = pyodide / "python_stdlib.zip"
    slim = stdlib.with_suffix(".slim")
    with zipfile.ZipFile(stdlib) as old, zipfile.ZipFile(slim, "w") as new:
        for info in old.infolist():
            if stdlib_kept(info.filename):
                new.writestr(info, old.read(info), compress_type=info.compress_type, compresslevel=9)
    slim.replace(stdlib)
    lock_path = pyodide / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    lock["packages"] = {}
    lock_path.write_text(json.dumps(lock, separators=(",", ":")), encoding="utf-8")


def gzipped(out: Path) -> None:
    """Replace each file of GZIPPED the site holds by `<name>.gz`."""
    for name in GZIPPED:
        plain = out / name
        if plain.exists():
            packed = plain.with_name(plain.name + ".gz")
            packed.write_bytes(gzip.compress(plain.read_bytes(), compresslevel=9, mtime=0))
            plain.unlink()
