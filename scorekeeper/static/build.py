"""Build the static web app (`make static`): `dist/` is a site that any static host serves, where Python runs in
the browser (Pyodide) and nothing is fetched from another origin, also not at the first load.

    python -m scorekeeper.static.build [--out dist]

What goes in (see docs/STATIC.md for why each piece is needed):
- Flet's prebuilt web client from the installed `flet-web` wheel, with the Pyodide runtime it carries
  (`web/pyodide`), less what this app never loads (the dart2wasm build, the skwasm renderers, symbol files).
- `index.html`: the app's own page (assets/index.html: no Rive runtime from a CDN, emoji font local) with
  Flet's Pyodide configuration, the runtime's address as a path (`./pyodide/pyodide.mjs`: a bare
  `pyodide/...` is no module address inside the worker) and no Flutter service worker (it unregisters itself
  and would replace ours).
- `app.tar.gz`: the package `scorekeeper` and, in `__pypackages__`, the pure-Python libraries it imports, copied
  from this environment (no wheel is downloaded, so the build is offline). No requirements file: at run time
  micropip installs nothing.
- `manifest.json` (name, icons, theme colour) and `sw.js`, a service worker that caches every file of the
  site at the first load and answers from that cache, so the app opens offline afterwards.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import io
import json
import re
import shutil
import tarfile
from dataclasses import dataclass
from pathlib import Path

from scorekeeper.static import snapshot as static_snapshot
from scorekeeper.static import start as static_start
from scorekeeper.static import trim as static_trim

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets"
ENTRY_MODULE = "scorekeeper.static.entry"
"""The module the Pyodide worker runs (`runpy.run_module`): scorekeeper/static/worker.py's `start`, which mounts
the browser's storage, then runs the app."""
APP_ARCHIVE = "app.tar.gz"
SERVICE_WORKER = "sw.js"
PAGE_HELPER = "page.js"
"""The page's answer to the gzipped files until the service worker controls it (scorekeeper/static/page.js)."""
THEME_COLOUR = "#3F51B5"  # indigo, the seed of the app's theme (scorekeeper/ui/app.py)
BACKGROUND_COLOUR = "#FFFFFF"
PURE_DISTRIBUTIONS = (
    "flet",
    "repath",
    "six",
    "msgpack",
    "tinydb",
    "platformdirs",
    "babel",
    "qrcode",
)
"""What the app imports in the browser, all pure Python (msgpack's C speed-up is left out: it falls back to its
own `fallback.py`). Flet's `httpx` and `oauthlib` are not required under Emscripten. flet-charts stays out: the
prebuilt client lacks the extension, so `scorekeeper/ui/charts/draw.py` draws the same charts on Flet's own canvas
there and never imports it."""
UNZIPPED_DISTRIBUTIONS = ("babel", "msgpack")
"""Libraries unpacked as files into `__pypackages__`: Babel opens its locale data as files, and Flet's worker
imports msgpack before the app runs. The others travel in one zip (`LIBRARIES_ZIP`) that the entry module puts
on `sys.path` (zipimport): one archive member for the worker to unpack instead of hundreds."""
LIBRARIES_ZIP = "libraries.zip"
LOCALES = ("root", "en", "de", "nl", "fr")
"""Babel's locale data kept: exactly the app's languages (scorekeeper.ui.i18n.LANGUAGES, which Babel is given as
they are) and their parent; the rest (regional variants included) is 31 MB."""
WEB_LEFT_OUT = (
    "main.dart.wasm",
    "main.dart.mjs",
    "flutter_service_worker.js",
    "pyodide/python",
    "pyodide/python.bat",
    "pyodide/python.exe",
    "pyodide/python_cli_entry.mjs",
    "pyodide/pyodide.js",
    "pyodide/ffi.d.ts",
    "pyodide/pyodide.d.ts",
    "pyodide/micropip-0.11.1-py3-none-any.whl",
    "pyodide/packaging-26.1-py3-none-any.whl",
    "canvaskit/experimental_webparagraph",
    "canvaskit/chromium",
    "assets/packages/flutter_math_fork",
    "assets/packages/media_kit",
    "assets/packages/cupertino_icons",
    "pyodide/package.json",
)
"""Parts of Flet's web client this app never loads: the dart2wasm build (the page asks for the CanvasKit
renderer, which runs the dart2js one), Flutter's self-removing service worker, Pyodide's command-line runner
and type files, micropip (nothing is installed at run time); CanvasKit's Chromium build (5.9 MB: every browser
gets the full build, which Safari and Firefox need anyway, `ONE_CANVASKIT`), the KaTeX fonts of Markdown's
maths (the rules' Markdown has none; Flutter would load all 20 at every start), the Cupertino icons (no
adaptive controls), media_kit's HLS player (no video) and Pyodide's npm metadata."""
ONE_CANVASKIT = (
    "var flutterConfig = {",
    'var flutterConfig = {\n    canvasKitVariant: "full",  // scorekeeper: one CanvasKit',
)
WEB_LEFT_OUT_PATTERNS = (r"^canvaskit/(skwasm|skwasm_heavy|wimp)\.", r"\.symbols$", r"\.map$")
PACKAGE_LEFT_OUT = ("bench", "__pycache__")
"""Parts of the package the app in the browser never imports (the benchmarks need a host and a browser)."""


class BuildError(RuntimeError):
    """The installed Flet no longer looks as this build expects (a marker moved): nothing half-built is kept."""


@dataclass(frozen=True)
class Built:
    """What a build made: the folder, its size, the version its service worker caches under."""

    out: Path
    files: int
    bytes: int
    version: str

    @property
    def megabytes(self) -> float:
        return round(self.bytes / 1_000_000, 1)


def flet_web_dir() -> Path:
    """The prebuilt web client inside the installed flet-web wheel."""
    import flet_web

    return Path(flet_web.__file__).parent / "web"


def left_out(relative: str) -> bool:
    """Whether a file of Flet's web client stays out of the site."""
    if any(relative == part or relative.startswith(part + "/") for part in WEB_LEFT_OUT):
        return True
    return any(re.search(pattern, relative) for pattern in WEB_LEFT_OUT_PATTERNS)


def copy_client(out: Path) -> None:
    web = flet_web_dir()
    for source in sorted(web.rglob("*")):
        relative = source.relative_to(web).as_posix()
        if source.is_file() and not left_out(relative):
            target = out / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def copy_assets(out: Path) -> None:
    """The app's assets at the site's root, as Flet's server serves them (fonts, the page, its scripts)."""
    for source in sorted(ASSETS.rglob("*")):
        if source.is_file():
            target = out / source.relative_to(ASSETS)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def kept_distribution_file(distribution: str, relative: str) -> bool:
    """Files of a library that travel: Python sources and data, no compiled extension, no bytecode."""
    if "__pycache__" in relative or relative.endswith((".so", ".pyd", ".pyc", ".pyi")):
        return False
    if ".dist-info/" in relative:
        return relative.endswith(("METADATA", "top_level.txt"))
    if distribution == "babel" and relative.startswith("babel/locale-data/"):
        name = relative.rsplit("/", 1)[1].removesuffix(".dat")
        return name in LOCALES
    return True


def add_file(tar: tarfile.TarFile, path: Path, name: str) -> None:
    """One file, dated 0 and owned by nobody in particular: the same sources give the same archive."""
    info = tar.gettarinfo(path, arcname=name)
    info.mtime = 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    with path.open("rb") as stream:
        tar.addfile(info, stream)


def stage(source: Path, staged: Path, name: str) -> None:
    target = staged / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def stage_distribution(staged: Path, distribution: str) -> None:
    folder = "__pypackages__" if distribution in UNZIPPED_DISTRIBUTIONS else "__pyzip__"
    found = importlib.metadata.distribution(distribution)
    for file in found.files or ():
        relative = file.as_posix()
        if relative.startswith("..") or not kept_distribution_file(distribution, relative):
            continue
        path = Path(str(file.locate()))
        if path.is_file():
            stage(path, staged, f"{folder}/{relative}")


def stage_package(staged: Path) -> None:
    package = ROOT / "scorekeeper"
    for source in sorted(package.rglob("*")):
        relative = source.relative_to(ROOT)
        parts = relative.parts
        if not source.is_file() or parts[1] in PACKAGE_LEFT_OUT or "__pycache__" in parts:
            continue
        # .pot: the translations' template, which only `make messages` reads (the app reads the catalogs)
        if source.suffix in (".pyc", ".so", ".pot"):
            continue
        stage(source, staged, relative.as_posix())


def app_archive(out: Path, *, compiled: bool = True) -> None:
    """`app.tar.gz`: the package and its libraries (Flet's worker unpacks it and puts `__pypackages__` on
    `sys.path`), with their bytecode for Pyodide's Python when `compiled` (scorekeeper/static/start.py, which
    also turns the site's standard library into bytecode). Members are sorted and dated 0 so the same sources
    give the same archive."""
    import gzip
    import tempfile

    buffer = io.BytesIO()
    with tempfile.TemporaryDirectory(prefix="static-app-") as folder:
        staged = Path(folder)
        stage_package(staged)
        for distribution in PURE_DISTRIBUTIONS:
            stage_distribution(staged, distribution)
        if compiled:
            static_start.precompile(out / "pyodide", staged)
        zip_folder(staged / "__pyzip__", staged / LIBRARIES_ZIP)
        with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
            for path in sorted(staged.rglob("*")):
                if path.is_file():
                    add_file(tar, path, path.relative_to(staged).as_posix())
    (out / APP_ARCHIVE).write_bytes(gzip.compress(buffer.getvalue(), compresslevel=9, mtime=0))


def zip_folder(folder: Path, target: Path) -> None:
    """The folder's files in a zip (sorted, dated 1980), the folder removed. Stored, not deflated: the archive
    around it is gzipped as a whole (smaller than file by file), and zipimport then reads without inflating."""
    import zipfile

    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                entry = zipfile.ZipInfo(path.relative_to(folder).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
                archive.writestr(entry, path.read_bytes())
    shutil.rmtree(folder)


PAGE_SCRIPT = """<script src="{page}"></script>
  <script>
    // scorekeeper static build (scorekeeper/static/build.py): the app runs in the browser.
    flet.pythonModuleName = "{module}";
    flet.pyodideUrl = "./pyodide/pyodide.mjs";
    flet.fontFallbackBaseUrl = "assets/fonts/";
    // The offline copy once the app is on screen: installing it downloads the whole site again, which a first
    // load's start would otherwise share its network and processors with.
    if ("serviceWorker" in navigator) {{
      window.addEventListener("flutter-first-frame", function () {{
        var register = function () {{
          navigator.serviceWorker.register("{worker}").catch(function (error) {{
            console.warn("scorekeeper: no offline copy:", error);
          }});
        }};
        if (window.requestIdleCallback) {{
          window.requestIdleCallback(register, {{ timeout: 5000 }});
        }} else {{
          window.setTimeout(register, 1000);
        }}
      }}, {{ once: true }});
    }}
    // Ask the browser to keep the data (IndexedDB) under storage pressure; the app reads the answer from
    // SharedPreferences ("scorekeeper.storage_persisted": true, false, or absent where the browser cannot).
    if (navigator.storage && navigator.storage.persist) {{
      navigator.storage.persist().then(function (granted) {{
        try {{ localStorage.setItem("flutter.scorekeeper.storage_persisted", JSON.stringify(granted)); }} catch (e) {{}}
      }});
    }}
  </script>"""


def write_page(out: Path) -> None:
    """index.html: the app's page with Flet's Pyodide configuration and ours after it."""
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web import patch_index_html

    index = out / "index.html"
    loader = '<script src="python.js"></script>'
    source = index.read_text(encoding="utf-8")
    if source.count(loader) != 1:
        raise BuildError(f"{index} has no single {loader}")
    page_script = PAGE_SCRIPT.format(module=ENTRY_MODULE, worker=SERVICE_WORKER, page=PAGE_HELPER)
    index.write_text(source.replace(loader, page_script + "\n  " + loader), encoding="utf-8")
    patch_index_html(
        index_path=str(index),
        base_href="/",
        app_name="Scorekeeper",
        app_description="Score keeping and digital play for Racko, Ruck Zuck and Rage",
        pyodide=True,
        pyodide_script_path="main.py",
        pyodide_version="bundled",
        app_package_url=APP_ARCHIVE,
        web_renderer=WebRenderer.CANVAS_KIT,
        route_url_strategy=RouteUrlStrategy.HASH,
        no_cdn=True,
    )
    # the base is "./": the site works in any folder of a static host
    text = index.read_text(encoding="utf-8").replace('<base href="/">', '<base href="./">')
    text = text.replace('flet.entrypointBaseUrl="/";', 'flet.entrypointBaseUrl="./";')
    text = text.replace('flet.assetBase="/";', 'flet.assetBase="./";')
    text = text.replace('flet.canvasKitBaseUrl="/canvaskit/";', 'flet.canvasKitBaseUrl="canvaskit/";')
    index.write_text(text, encoding="utf-8")


def no_flutter_service_worker(out: Path) -> None:
    """Flutter's loader would register its own service worker over ours (and that one unregisters itself); and
    it gets the one CanvasKit the site holds (the full build) in every browser."""
    bootstrap = out / "flutter_bootstrap.js"
    text = bootstrap.read_text(encoding="utf-8")
    changed = re.sub(r"serviceWorkerSettings:\s*\{[^}]*\},", "", text, count=1)
    if changed == text:
        raise BuildError(
            "flutter_bootstrap.js no longer passes serviceWorkerSettings: check the offline worker"
        )
    marker, replacement = ONE_CANVASKIT
    if changed.count(marker) != 1:
        raise BuildError(f"flutter_bootstrap.js no longer has one {marker!r}: check the CanvasKit variant")
    bootstrap.write_text(changed.replace(marker, replacement), encoding="utf-8")


def write_manifest(out: Path) -> None:
    """The web app manifest: what a phone shows when the site is added to its home screen."""
    icons = out / "icons"
    icons.mkdir(exist_ok=True)
    entries = []
    try:
        from PIL import Image

        with Image.open(ASSETS / "icon.png") as image:
            for size in (192, 512):
                image.resize((size, size), Image.Resampling.LANCZOS).save(icons / f"scorekeeper-{size}.png")
                entries.append(
                    {"src": f"icons/scorekeeper-{size}.png", "sizes": f"{size}x{size}", "type": "image/png"}
                )
    except ImportError:  # without Pillow: the 1024-pixel icon itself
        shutil.copy2(ASSETS / "icon.png", icons / "scorekeeper-1024.png")
        entries.append({"src": "icons/scorekeeper-1024.png", "sizes": "1024x1024", "type": "image/png"})
    manifest = {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": "Score keeping and digital play for Racko, Ruck Zuck and Rage",
        "start_url": ".",
        "scope": ".",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "prefer_related_applications": False,
        "icons": [*entries, *({**entry, "purpose": "maskable"} for entry in entries)],
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    shutil.copy2(icons / Path(entries[0]["src"]).name, out / "favicon.png")


SERVICE_WORKER_SOURCE = Path(__file__).with_name("sw.js")


def write_page_helper(out: Path) -> None:
    """`page.js` with the list of gzipped files."""
    source = Path(__file__).with_name(PAGE_HELPER).read_text(encoding="utf-8")
    (out / PAGE_HELPER).write_text(source.replace("__GZIPPED__", json.dumps(static_trim.GZIPPED)), "utf-8")


def site_files(out: Path) -> list[str]:
    return sorted(path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file())


def write_service_worker(out: Path) -> str:
    """`sw.js`: the template with the site's file list and a version that changes with any file's content."""
    files = site_files(out)
    digest = hashlib.sha256()
    for relative in files:
        digest.update(relative.encode())
        digest.update(hashlib.sha256((out / relative).read_bytes()).digest())
    version = digest.hexdigest()[:16]
    template = SERVICE_WORKER_SOURCE.read_text(encoding="utf-8")
    precached = ["./", *(name for name in files if name != "index.html")]
    source = (
        template.replace('"__VERSION__"', json.dumps(version))
        .replace("__FILES__", json.dumps(precached))
        .replace("__GZIPPED__", json.dumps(static_trim.GZIPPED))
    )
    (out / SERVICE_WORKER).write_text(source, encoding="utf-8")
    return version


def patch_font_manifest_json(path: str) -> None:
    from flet_web import patch_font_manifest_json as patch

    patch(manifest_path=path)


def build(out: Path) -> Built:
    """Build the site into `out` (emptied first)."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    copy_client(out)
    copy_assets(out)
    write_page(out)
    no_flutter_service_worker(out)
    static_trim.fonts_without_maths(out)
    static_trim.slim_pyodide(out / "pyodide")
    static_start.early_python(out, BuildError)
    patch_font_manifest_json(
        str(out / "assets" / "FontManifest.json")
    )  # Roboto from the site, as `flet publish`
    write_manifest(out)
    app_archive(out)
    imported = static_snapshot.make_snapshot(out / "pyodide", out / APP_ARCHIVE)
    if imported:
        static_snapshot.without_bytecode_of(out / APP_ARCHIVE, imported)
    static_trim.gzipped(out)  # after the snapshot, which Node made with the plain runtime
    write_page_helper(out)
    version = write_service_worker(out)
    files = site_files(out)
    size = sum((out / name).stat().st_size for name in files)
    return Built(out=out, files=len(files), bytes=size, version=version)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m scorekeeper.static.build", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="the site's folder (default: dist)")
    args = parser.parse_args(argv)
    built = build(args.out)
    print(f"built {built.out}: {built.files} files, {built.megabytes} MB (offline copy {built.version})")
    print(f"serve it with: python -m http.server --directory {built.out} 8000")


if __name__ == "__main__":
    main()
