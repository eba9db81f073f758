"""What makes the static build start sooner: Pyodide started with the page, and the Python it runs compiled
ahead, by the very runtime that runs it.

`early_python` patches Flet's `python.js` and `python-worker.js` (copied into the site) so that the worker and
Pyodide's start begin as the page loads, beside Flutter's client, instead of when the client connects.

The app's archive holds sources: without bytecode the browser compiles every module it imports that the build's
snapshot of the started interpreter (scorekeeper/static/snapshot.py) has not imported yet. The host's Python
(3.11) cannot write the bytecode of Pyodide's Python (3.14, another magic number), but Pyodide itself runs under
Node.js: `precompile` starts the site's own Pyodide in Node and has it

- compile the package `scorekeeper` into `__pycache__/*.cpython-314.pyc` beside its sources, as *unchecked*
  hash-based files: the import system takes them without reading or hashing the source (the archive's files
  have no meaningful dates), and the sources stay for tracebacks;
- compile the libraries (`__pypackages__` and `__pyzip__`, which the build zips) to `.pyc` files in place of
  their sources (fewer and smaller files to write at every start).

The standard library stays as Pyodide ships it, sources: what the app imports at its start is in the snapshot
already, compiled (its bytecode would only make the site bigger: bytecode compresses worse than source).

Without Node.js the build still works: the site keeps sources only and starts slower (`precompile` says so).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from scorekeeper.static.trim import GZIPPED

NODE_DRIVER = """
import { loadPyodide } from %(pyodide)s;
const pyodide = await loadPyodide({ indexURL: %(index)s });
pyodide.mountNodeFS("/build", %(build)s);
pyodide.mountNodeFS("/app", %(app)s);
pyodide.runPython(%(code)s);
"""

COMPILE = """
import compileall, py_compile

unchecked = py_compile.PycInvalidationMode.UNCHECKED_HASH
ok = compileall.compile_dir("/app/scorekeeper", quiet=1, workers=1, invalidation_mode=unchecked)
for libraries in ("/app/__pypackages__", "/app/__pyzip__"):
    ok &= compileall.compile_dir(libraries, quiet=1, workers=1, invalidation_mode=unchecked, legacy=True)
if not ok:
    raise SystemExit("some module of the app does not compile")
"""


def node() -> str | None:
    return shutil.which("node") or shutil.which("nodejs")


def precompile(pyodide_dir: Path, app_dir: Path) -> bool:
    """Write `__pycache__` bytecode into `app_dir`, with the Pyodide in `pyodide_dir` run by Node.js. Returns
    False (and changes nothing) where Node.js is missing."""
    runner = node()
    if runner is None:
        print("no Node.js: the site keeps Python sources only (it starts slower)")
        return False
    with tempfile.TemporaryDirectory(prefix="static-pyc-") as folder:
        build = Path(folder)
        script = build / "compile.mjs"
        script.write_text(
            NODE_DRIVER
            % {
                "pyodide": json.dumps((pyodide_dir / "pyodide.mjs").resolve().as_uri()),
                "index": json.dumps(str(pyodide_dir.resolve()) + "/"),
                "build": json.dumps(str(build)),
                "app": json.dumps(str(app_dir.resolve())),
                "code": json.dumps(COMPILE),
            },
            encoding="utf-8",
        )
        done = subprocess.run([runner, str(script)], capture_output=True, text=True, timeout=600)
        if done.returncode != 0:  # Node prints the whole minified runtime before the error: keep the end
            raise RuntimeError(f"precompiling with Pyodide failed: {done.stderr[-2000:]}")
    for libraries in ("__pypackages__", "__pyzip__"):
        for compiled in (app_dir / libraries).rglob("*.pyc"):
            compiled.with_suffix(".py").unlink(missing_ok=True)  # the libraries travel as bytecode only
    return True


EARLY_PAGE = """// scorekeeper (scorekeeper/static/build.py): the Python worker, and Pyodide in it, start with the page, while
// Flutter's client loads; the client's connect (jsConnect below) then takes this worker instead of a new one.
let _earlyWorker = new Worker(
    (flet.entrypointBaseUrl.endsWith("/") ? flet.entrypointBaseUrl.slice(0, -1) : flet.entrypointBaseUrl) +
    "/python-worker.js", { type: "module" });
_earlyWorker.postMessage({
    preload: true,
    pyodideUrl: flet.pyodideUrl,
    appPackageUrl: flet.appPackageUrl,
    controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
});
function _takeEarlyWorker() { const worker = _earlyWorker; _earlyWorker = null; return worker; }
"""

BOOT_WORKER = Path(__file__).with_name("boot.js")
"""Prepended to Flet's python-worker.js: a first message {preload: true} starts Python at once (from the build's
snapshot of the started interpreter, scorekeeper/static/snapshot.py, where the site has one) and writes the app's
archive into its file system; the app's init message then awaits that start instead of its own."""

WORKER_PATCHES = (
    (
        "const pyodideModule = await import(self.pyodideUrl);",
        "const pyodideModule = self.preloaded ? null : await import(self.pyodideUrl);",
    ),
    (
        "const loadPyodide = pyodideModule.loadPyodide || self.loadPyodide;",
        "const loadPyodide = self.preloaded ? () => self.preloaded"
        " : pyodideModule.loadPyodide || self.loadPyodide;",
    ),
    (  # the boot script has written the archive's files already: no second unpacking in Python
        'if "script" not in py_args:',
        'if getattr(flet_js, "appUnpacked", False):\n            pass\n        elif "script" not in py_args:',
    ),
    (
        "self.onmessage = async (event) => {",
        "self.onmessage = async (event) => {\n    if (event.data && event.data.preload) {\n"
        "        self.preload(event.data);\n        return;\n    }",
    ),
)


def patch_text(path: Path, head: str, patches: tuple[tuple[str, str], ...], error: type[Exception]) -> None:
    """Prepend `head` and make each replacement, each marker found exactly once (else BuildError)."""
    text = path.read_text(encoding="utf-8")
    for marker, replacement in patches:
        if text.count(marker) != 1:
            raise error(f"{path.name} no longer has one {marker!r}: check the early start")
        text = text.replace(marker, replacement)
    path.write_text(head + text, encoding="utf-8")


def early_python(out: Path, error: type[Exception]) -> None:
    """Start Pyodide as the page loads, beside Flutter's client, not after it (Flet starts the worker only
    when the client connects, ~2 s later at a first load): the page creates the worker at once and asks it to
    load Pyodide; the client's connect takes that worker, and its init awaits the load already under way."""
    patch_text(
        out / "python.js",
        EARLY_PAGE,
        (("app.worker = new Worker(", "app.worker = _takeEarlyWorker() || new Worker("),),
        error,
    )
    boot = BOOT_WORKER.read_text(encoding="utf-8").replace("__GZIPPED__", json.dumps(GZIPPED))
    patch_text(out / "python-worker.js", boot, WORKER_PATCHES, error)
