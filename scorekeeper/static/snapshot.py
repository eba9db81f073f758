"""The started interpreter, saved by the build: the static build's Python starts from a memory snapshot.

Starting Pyodide means initialising the interpreter and importing what home needs (Flet's 300 modules, the
app's 180, Babel, the catalogs read): about two seconds of a warm start on a phone-class machine, at every
start. Pyodide can save the whole memory of a started interpreter (`loadPyodide({_makeSnapshot: true})`, then
`pyodide.makeMemorySnapshot()`) and start from those bytes (`_loadSnapshot`), as Cloudflare's Python workers do.
`make_snapshot` does that at build time, with the site's own Pyodide run by Node.js: it unpacks the app's archive
as the browser's worker does, imports `IMPORTED` and reads the catalogs of every language (`warm_up`), and
writes the memory gzipped to `pyodide/snapshot.bin.gz` (45 MB of memory, mostly empty, 12 MB gzipped).

What a snapshot may hold, and what the browser must redo (scorekeeper/static/boot.js, worker.py):
- Files are not in the memory (Emscripten keeps them in JavaScript): the boot script writes the app's archive
  into the file system while the interpreter starts, at the same paths, so modules imported later and the
  zip importer's open archive (`libraries.zip`, read by offset) find exactly the bytes they saw at build time.
- State seeded at import time would be the build machine's: `random`'s generator (every phone would deal the
  same cards), the time zone `time` read at import. The worker reseeds and rereads them first thing
  (`scorekeeper.static.worker.fresh_state`).
- Nothing that holds a JavaScript object of the page may be imported before the snapshot (Flet's Pyodide
  connection holds `flet_js`, the page's bridge; it is imported when the app runs).
- The snapshot fits one build of the runtime only (Pyodide checks its build id): it is made from the very files
  the site holds, at every build.

Without Node.js the site has no snapshot and starts as Flet's worker does (and the boot script falls back to
that whenever a snapshot cannot be loaded).
"""

from __future__ import annotations

import gzip
import json
import subprocess
import tempfile
from pathlib import Path

from scorekeeper.static.start import node

SNAPSHOT = "snapshot.bin"
"""In the runtime's folder (`pyodide/`), beside the runtime it was made with; the site holds it gzipped only
(`snapshot.bin.gz`, scorekeeper/static/trim.py GZIPPED)."""
IMPORTED = (
    "msgpack",
    "flet",
    "scorekeeper.static.worker",
    "scorekeeper.ui.app",
    "scorekeeper.ui.views.home",
    "scorekeeper.ui.views.match.scoreboard",
    "scorekeeper.ui.views.rounds.host",
    "scorekeeper.ui.views.match.new_game",
    "scorekeeper.ui.views.players",
    "scorekeeper.ui.views.history",
    "scorekeeper.server.sync_runtime",
    "scorekeeper.sync.fetch_runner",
    "scorekeeper.store.canvas_photos",
    "pyodide.http",
    "concurrent.futures.thread",
    *(
        f"flet.{name}"
        for name in (
            "app",
            "components.public_utils",
            "messaging.connection",
            "messaging.protocol",
            "messaging.session",
            "messaging.session_store",
            "pubsub.pubsub_client",
            "pubsub.pubsub_hub",
            "utils.pip",
            "controls.page",
            "controls.base_page",
            "controls.multi_view",
            "controls.object_patch",
            "controls.query_string",
            "controls.scrollable_control",
            "controls.device_info",
            "controls.dialog_control",
            "controls.events",
            "controls.geometry",
            "controls.keys",
            "controls.theme",
            "controls.core.autofill_group",
            "controls.core.column",
            "controls.core.icon",
            "controls.core.row",
            "controls.core.semantics",
            "controls.core.view",
            "controls.core.window",
            "controls.services.shared_preferences",
            "controls.services.url_launcher",
            "controls.services.wakelock",
            *(
                f"controls.material.{control}"
                for control in (
                    "app_bar",
                    "bottom_app_bar",
                    "card",
                    "container",
                    "expansion_tile",
                    "filled_button",
                    "filled_tonal_button",
                    "floating_action_button",
                    "form_field_control",
                    "list_tile",
                    "menu_bar",
                    "navigation_bar",
                    "navigation_drawer",
                    "navigation_rail",
                    "outlined_button",
                    "popup_menu_button",
                    "slider",
                    "snack_bar",
                    "tabs",
                    "textfield",
                )
            ),
        )
    ),
)
"""What the snapshot imports (with everything they import): what home needs, and the screens of keeping score,
which a player opens next; Flet imports its controls when first named (`ft.Column`), so those home shows are
listed. Other screens are imported when opened, from the archive's bytecode. Flet's Pyodide connection is left
out: it holds the page's bridge (`flet_js`), which exists only in the browser."""

WARM_UP = """
import gc, importlib, os, sys

# the same sys.path entries the browser's worker adds (Flet's for __pypackages__, ours for the zip)
sys.path.insert(0, "__pypackages__")
sys.path.insert(1, os.path.abspath("libraries.zip"))
missing = []
for name in %(imported)s:
    try:
        importlib.import_module(name)
    except ImportError as error:
        missing.append(f"{name}: {error}")
if missing:
    raise SystemExit("the snapshot cannot import " + "; ".join(missing))
# every language's catalog read and Babel's data of its locale loaded (both cached for the process): a player
# in German does not wait for 1,200 messages to be parsed at start
import datetime
from babel.dates import format_date
from babel.numbers import format_decimal
from scorekeeper.ui import i18n
for language in i18n.LANGUAGES:
    if language != i18n.DEFAULT_LANGUAGE:
        i18n.catalog(language), i18n.plural_catalog(language), i18n.plural_rule(language)
    format_date(datetime.date(2026, 1, 1), locale=language), format_decimal(1.5, locale=language)
gc.collect()
print("IMPORTED " + " ".join(sorted(name for name in sys.modules if name.startswith("scorekeeper"))))
"""

NODE_DRIVER = """
import { loadPyodide } from %(pyodide)s;
import fs from "node:fs";
const pyodide = await loadPyodide({ indexURL: %(index)s, _makeSnapshot: true });
pyodide.unpackArchive(new Uint8Array(fs.readFileSync(%(archive)s)), "gztar");
pyodide.runPython(%(code)s);
fs.writeFileSync(%(target)s, pyodide.makeMemorySnapshot());
"""


def make_snapshot(pyodide_dir: Path, archive: Path) -> set[str] | None:
    """Write `pyodide_dir/SNAPSHOT.gz` from the runtime in `pyodide_dir` and the app's `archive`. Returns the
    app's modules it has imported, or None (and writes nothing) where Node.js is missing."""
    runner = node()
    if runner is None:
        print("no Node.js: the site has no snapshot of the started interpreter (it starts slower)")
        return None
    with tempfile.TemporaryDirectory(prefix="static-snapshot-") as folder:
        raw = Path(folder) / "snapshot.bin"
        script = Path(folder) / "snapshot.mjs"
        script.write_text(
            NODE_DRIVER
            % {
                "pyodide": json.dumps((pyodide_dir / "pyodide.mjs").resolve().as_uri()),
                "index": json.dumps(str(pyodide_dir.resolve()) + "/"),
                "archive": json.dumps(str(archive.resolve())),
                "code": json.dumps(WARM_UP % {"imported": IMPORTED}),
                "target": json.dumps(str(raw)),
            },
            encoding="utf-8",
        )
        done = subprocess.run([runner, str(script)], capture_output=True, text=True, timeout=600)
        if done.returncode != 0:  # Node prints the whole minified runtime before the error: keep the end
            raise RuntimeError(f"the snapshot of the started interpreter failed: {done.stderr[-2000:]}")
        target = pyodide_dir / (SNAPSHOT + ".gz")
        # level 6: within 2 % of level 9's size, in a third of the time
        target.write_bytes(gzip.compress(raw.read_bytes(), compresslevel=6, mtime=0))
    [listed] = [line for line in done.stdout.splitlines() if line.startswith("IMPORTED ")]
    return set(listed.split()[1:])


def without_bytecode_of(archive: Path, modules: set[str]) -> None:
    """Rewrite the app's `archive` (a .tar.gz) without the bytecode of `modules`: the snapshot has them imported
    already, so nothing reads those files again (the sources stay, for tracebacks). About 1 MB less to fetch."""
    import io
    import tarfile

    def imported(name: str) -> bool:
        folder, _, file = name.rpartition("/__pycache__/")
        if not folder or not file.endswith(".pyc"):
            return False
        stem = file.split(".", 1)[0]
        module = folder.replace("/", ".") + ("" if stem == "__init__" else "." + stem)
        return module in modules

    kept = io.BytesIO()
    with tarfile.open(archive) as old, tarfile.open(fileobj=kept, mode="w", format=tarfile.GNU_FORMAT) as new:
        for member in old.getmembers():
            if not imported(member.name):
                new.addfile(member, old.extractfile(member) if member.isfile() else None)
    archive.write_bytes(gzip.compress(kept.getvalue(), compresslevel=9, mtime=0))
