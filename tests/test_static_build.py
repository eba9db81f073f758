"""The static web build (scorekeeper/static/build.py) and the browser's storage flush (scorekeeper/static/worker.py),
checked on the host: what the site holds, that it names no other origin, and that the last write always
reaches IndexedDB. The site itself is driven in Chromium by tests/browser/test_static_site.py."""

from __future__ import annotations

import gzip
import importlib.util
import io
import json
import re
import shutil
import tarfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.static import build as static_build
from scorekeeper.static import start as static_start
from scorekeeper.static import trim as static_trim
from scorekeeper.static.worker import Flusher
from scorekeeper.store import storage
from tests.run_alone import run_alone


@pytest.fixture(scope="module")
def site(static_site: Path) -> Path:
    return static_site


def test_page_runs_the_app_in_the_browser_from_the_site(site: Path) -> None:
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "flet.pyodide = true;" in page
    assert 'flet.pythonModuleName = "scorekeeper.static.entry";' in page
    assert 'flet.pyodideUrl = "./pyodide/pyodide.mjs";' in page  # a path: a bare `pyodide/...` does not load
    assert 'register("sw.js")' in page
    # our settings come after Flet's and the app page's (the last assignment wins)
    assert page.rindex("flet.pyodideUrl") == page.index('flet.pyodideUrl = "./pyodide')
    assert page.rindex("flet.fontFallbackBaseUrl") == page.index('flet.fontFallbackBaseUrl = "assets/fonts/"')


def test_flutter_registers_no_service_worker_of_its_own(site: Path) -> None:
    bootstrap = (site / "flutter_bootstrap.js").read_text(encoding="utf-8")
    call = bootstrap[bootstrap.index("_flutter.loader.load({") :]
    assert "serviceWorker" not in call
    assert not (site / "flutter_service_worker.js").exists()


def test_the_service_worker_caches_every_file_of_the_site(site: Path) -> None:
    source = (site / "sw.js").read_text(encoding="utf-8")
    listed = json.loads(re.search(r"const FILES = (\[.*?\]);", source, flags=re.S).group(1))  # type: ignore[union-attr]
    files = {path.relative_to(site).as_posix() for path in site.rglob("*") if path.is_file()}
    assert set(listed) == (files - {"index.html", "sw.js"}) | {"./"}
    assert "__VERSION__" not in source


def test_the_archive_holds_the_app_and_its_pure_python_libraries(site: Path) -> None:
    with tarfile.open(site / "app.tar.gz") as tar:
        names = set(tar.getnames())
        libraries = tar.extractfile(static_build.LIBRARIES_ZIP)
        assert libraries is not None
        zipped = set(zipfile.ZipFile(io.BytesIO(libraries.read())).namelist())
    assert (
        "scorekeeper/static/worker.py" in names and "scorekeeper/ui/app.py" in names
    )  # sources stay: tracebacks
    for module in ("flet/__init__", "tinydb/__init__", "platformdirs/__init__", "qrcode/__init__"):
        assert {f"{module}.py", f"{module}.pyc"} & zipped, module  # bytecode only where Node.js compiled
    for module in ("msgpack/fallback", "babel/dates"):
        assert {f"__pypackages__/{module}.py", f"__pypackages__/{module}.pyc"} & names, module
    assert not [name for name in names | zipped if name.endswith(".so")]
    assert not [name for name in names if name.startswith(("scorekeeper/bench/", "__pyzip__"))]
    assert "requirements.txt" not in names and "pyproject.toml" not in names  # micropip installs nothing
    # the catalogs the app reads (ui.i18n), not the template they are made from
    for language in ("de", "nl", "fr"):
        assert f"scorekeeper/ui/locales/{language}/LC_MESSAGES/messages.po" in names, language
    assert not [name for name in names if name.endswith(".pot")]
    assert "__pypackages__/babel/locale-data/de.dat" in names
    assert "__pypackages__/babel/locale-data/ja.dat" not in names
    assert "__pypackages__/babel/locale-data/de_AT.dat" not in names  # the app gives Babel "de" itself


@pytest.mark.skipif(static_start.node() is None, reason="precompiling needs Node.js")
def test_python_travels_as_bytecode_of_pyodides_python(site: Path) -> None:
    """Bytecode of the site's own Python (not the host's), hash-based and unchecked: taken without the source. The
    standard library stays source (what the start imports is in the snapshot, compiled)."""
    with tarfile.open(site / "app.tar.gz") as tar:
        member = tar.extractfile("scorekeeper/static/__pycache__/entry.cpython-314.pyc")
        assert member is not None
        app = member.read()
        names = set(tar.getnames())
        flet = tar.extractfile("libraries.zip")
        assert flet is not None
        with zipfile.ZipFile(io.BytesIO(flet.read())) as libraries:
            control = libraries.read("flet/controls/page.pyc")
    if static_start.node() is not None:  # imported in the snapshot: its bytecode is never read, only its source
        assert "scorekeeper/ui/__pycache__/app.cpython-314.pyc" not in names
        assert "scorekeeper/ui/app.py" in names
    with zipfile.ZipFile(site / "pyodide" / "python_stdlib.zip") as stdlib:
        assert "asyncio/events.py" in stdlib.namelist()
    for pyc in (app, control):
        assert pyc[:4] != importlib.util.MAGIC_NUMBER  # not the host's 3.11 bytecode
        assert int.from_bytes(pyc[4:8], "little") == 0b01  # hash-based, not checked against the source
    assert app[:4] == control[:4]


def test_pyodide_starts_with_the_page_not_after_flutters_client(site: Path) -> None:
    page = (site / "python.js").read_text(encoding="utf-8")
    worker = (site / "python-worker.js").read_text(encoding="utf-8")
    assert page.index("preload: true,") < page.index("globalThis.jsConnect")
    assert "app.worker = _takeEarlyWorker() || new Worker(" in page
    assert "self.preloaded ? () => self.preloaded" in worker


def test_the_manifest_makes_the_site_installable(site: Path) -> None:
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "Scorekeeper" and manifest["display"] == "standalone"
    assert manifest["theme_color"] == static_build.THEME_COLOUR
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert sizes & {"192x192", "1024x1024"} and sizes & {"512x512", "1024x1024"}
    for icon in manifest["icons"]:
        assert (site / icon["src"]).is_file()


def test_the_site_names_no_other_origin_to_load_from(site: Path) -> None:
    """No script or setting of the page points the client at a CDN (CanvasKit, Pyodide, fonts)."""
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "cdn.jsdelivr.net/pyodide" not in page
    assert 'flet.canvasKitBaseUrl="canvaskit/"' in page
    assert (site / "pyodide" / "pyodide.mjs").is_file() and (
        site / "canvaskit" / "canvaskit.wasm.gz"
    ).is_file()


def test_the_site_leaves_out_what_it_never_loads(site: Path) -> None:
    assert not (site / "main.dart.wasm").exists()
    assert not list(site.rglob("*.symbols"))
    assert not (site / "pyodide" / "python").exists()


def test_a_durable_write_is_announced_and_a_derived_one_is_not(tmp_path: Path) -> None:
    seen: list[Path] = []
    storage.WRITTEN.append(seen.append)
    try:
        storage.atomic_write_bytes(tmp_path / "a.json", b"{}")
        storage.atomic_write_bytes(tmp_path / "index.json", b"{}", durable=False)
    finally:
        storage.WRITTEN.remove(seen.append)
    assert seen == [tmp_path / "a.json"]


@given(st.lists(st.sampled_from(["write", "finish", "fail"]), max_size=40))
def test_the_last_write_always_reaches_lasting_storage(steps: list[str]) -> None:
    """Whatever the order of writes and copies ending, once every copy has ended, one copy started after the
    last write; never two copies at once."""
    pending: list = []
    started_at: list[int] = []
    clock = [0]

    def sync(done) -> None:  # type: ignore[no-untyped-def]
        assert not pending, "two copies at once"
        started_at.append(clock[0])
        pending.append(done)

    flusher = Flusher(sync)
    last_write = -1
    for step in steps:
        clock[0] += 1
        if step == "write":
            last_write = clock[0]
            flusher.written()
        elif pending:
            pending.pop()(None if step == "finish" else "quota")
    while pending:
        clock[0] += 1
        pending.pop()(None)
    if last_write >= 0:
        assert max(started_at) >= last_write
    assert not flusher.running


@given(st.lists(st.sampled_from(["write", "frame", "finish", "fail"]), max_size=60))
def test_the_screen_never_shows_a_write_before_lasting_storage_has_it(steps: list[str]) -> None:
    """A frame sent after a write reaches the page only once a copy started after that write has ended; frames
    keep their order; none is lost or sent twice; and once the copies have settled, nothing is left waiting (a
    failed copy releases the frames too: the screen must not freeze)."""
    from scorekeeper.static.worker import HeldFrames

    pending: list = []
    started_at: list[int] = []
    ended_at: dict[int, int] = {}  # a copy's start -> when it ended
    delivered: list[tuple[int, int]] = []  # (frame number, when it reached the page)
    clock = [0]

    def sync(done) -> None:  # type: ignore[no-untyped-def]
        start = clock[0]
        started_at.append(start)

        def end(error: str | None) -> None:
            ended_at[start] = clock[0]
            done(error)

        pending.append(end)

    flusher = Flusher(sync)
    frames = HeldFrames(lambda frame: delivered.append((frame, clock[0])), flusher)
    last_write_before: dict[int, int] = {}  # frame -> the last write before it was sent
    last_write = -1
    for step in [*steps, *["finish"] * 3]:
        clock[0] += 1
        if step == "write":
            last_write = clock[0]
            flusher.written()
        elif step == "frame":
            last_write_before[clock[0]] = last_write
            frames.send(clock[0])
        elif pending:
            pending.pop()(None if step == "finish" else "quota")
    while pending:
        clock[0] += 1
        pending.pop()(None)
    assert [frame for frame, _ in delivered] == sorted(last_write_before), (
        "a frame lost, repeated or reordered"
    )
    assert frames.waiting == []
    for frame, when in delivered:
        write = last_write_before[frame]
        if write >= 0:
            assert any(start >= write and ended_at.get(start, when + 1) <= when for start in started_at), (
                f"frame {frame} shown before the write at {write} was copied"
            )


def test_the_sessions_frames_go_through_the_held_frames() -> None:
    """What `browser_main` does to the session's connection: every frame it posts waits while a copy runs."""
    from types import SimpleNamespace

    from scorekeeper.static.worker import HeldFrames, hold_frames

    posted: list[bytes] = []
    copies: list = []
    flusher = Flusher(copies.append)
    connection = SimpleNamespace(send_callback=posted.append)
    checks: list = []
    hold_frames(
        SimpleNamespace(session=SimpleNamespace(connection=connection)),
        flusher,
        lambda delay, check: checks.append((delay, check)),
    )
    connection.send_callback(b"before")
    flusher.written()
    connection.send_callback(b"after the save")
    assert posted == [b"before"]
    copies.pop()(None)
    assert posted == [b"before", b"after the save"]
    checks.pop()[1]()  # the limit's check of a hold already over does nothing
    assert posted == [b"before", b"after the save"]

    # a copy that never answers: after the limit the screen goes on, unheld, until the copies settle again
    flusher.written()
    connection.send_callback(b"a")
    delay, check = checks.pop()
    assert delay == HeldFrames.HOLD_LIMIT_S and posted[-1] == b"after the save"
    check()
    connection.send_callback(b"b")
    assert posted[-2:] == [b"a", b"b"]
    copies.pop()(None)
    flusher.written()
    connection.send_callback(b"c")
    assert posted[-1] == b"b"  # held again
    copies.pop()(None)
    assert posted[-1] == b"c"


def test_a_failed_copy_is_told_once_until_a_copy_works_again() -> None:
    from types import SimpleNamespace

    from scorekeeper.ui.components.host_needed import copy_failure_teller
    from scorekeeper.ui.i18n import Translator

    told: list[tuple[str, bool]] = []
    settled = copy_failure_teller(
        SimpleNamespace(t=Translator("de"), notify=lambda text, error=False: told.append((text, error)))  # type: ignore[arg-type]
    )
    for error in (None, "QuotaExceededError", "QuotaExceededError", None, None, "AbortError"):
        settled(error)
    assert len(told) == 2 and all(error for _, error in told)
    assert told[0][0].startswith("Der Browser hat die letzte Änderung nicht gespeichert")


def test_a_backup_is_copied_where_the_platform_has_no_hard_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pyodide's `os` has no `link` at all: the last good version is copied to `.bak` instead."""
    target = tmp_path / "players.json"
    storage.atomic_write_bytes(target, b'{"v": 1}')
    monkeypatch.delattr("os.link")
    storage.atomic_write_bytes(target, b'{"v": 2}', keep_backup=True)
    assert target.read_bytes() == b'{"v": 2}'
    assert storage.backup_path(target).read_bytes() == b'{"v": 1}'


@pytest.mark.parametrize("without_host", [False, True], ids=["host", "browser"])
def test_what_needs_a_host_is_shown_as_such_in_the_browser_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, without_host: bool
) -> None:
    """Home's "Host a table": live on a host; in the static build switched off, with how. Settings' sync is
    there in both, in the static build as the browser's own (a WebDAV server or the owner's server, the secret
    kept in this browser only: sync_static.py)."""
    from test_ui_core_harness import App, close_all

    from scorekeeper.ui.components import host_needed
    from scorekeeper.ui.views.settings import sync as sync_view

    monkeypatch.setattr(host_needed, "IN_BROWSER", without_host)
    monkeypatch.setattr(sync_view, "IN_BROWSER", without_host)
    app = App(tmp_path)
    try:
        assert app.has("host-table-unavailable") is without_host
        assert app.has("host-table") is not without_host
        app.go("/table/new")
        assert ("make table" in app.screen_text()) is without_host
        app.go("/settings")
        assert app.has("sync-section")
        assert app.has("sync-kind") is without_host
        assert ("Kept in this browser only" in app.screen_text()) is without_host
    finally:
        close_all()


def test_statistics_are_drawn_on_flets_canvas_where_the_client_has_no_flet_charts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The static build's client has no flet-charts: the same charts on Flet's own canvas, the numbers as tables,
    and no flet-charts control that the client could not draw."""
    import flet.canvas as cv
    from test_history_stats_data import seed_store
    from test_ui_core_harness import App, close_all, walk

    from scorekeeper.store import Store
    from scorekeeper.ui.charts import draw

    monkeypatch.setattr(draw, "FLET_CHARTS", False)
    with Store.open(tmp_path) as store:
        seeded = seed_store(store)
    app = App(tmp_path)
    try:
        app.go("/stats")
        text = app.text()
        assert "Ann · wins: 2 (66.7%)" in text and "Bob · wins: 1 (33.3%)" in text
        assert app.has("win-share-chart") and app.has("progression-chart") and app.has("win-share-table")
        assert [node for node in walk(app.view) if isinstance(node, cv.Canvas)]
        app.go(f"/history/{seeded.racko}")
        assert app.has("progression-chart")
        assert not [node for node in walk(app.view) if type(node).__module__.startswith("flet_charts")]
    finally:
        close_all()


@pytest.mark.parametrize(
    ("problem", "granted", "said"),
    [
        ("no IndexedDB", None, "lost when the tab closes"),
        (None, False, "may clear the app's data"),
        (None, True, None),
        (None, None, None),  # the browser has not answered yet (or cannot): nothing to say
    ],
)
def test_the_app_says_when_the_browser_keeps_the_data_only_for_a_while(
    problem: str | None, granted: bool | None, said: str | None
) -> None:
    """Said at the first start; the refused-persistence notice is then remembered and not said again (no
    IndexedDB at all is said at every start: nothing is kept, not even that it was said)."""
    from types import SimpleNamespace

    from scorekeeper.ui.components.host_needed import NOTICE_SHOWN_KEY, PERSISTED_KEY, tell_storage
    from scorekeeper.ui.i18n import Translator

    told: list[tuple[str, bool]] = []
    kept: dict[str, object] = {PERSISTED_KEY: granted}

    async def get(key: str) -> object:
        assert key in (PERSISTED_KEY, NOTICE_SHOWN_KEY)
        return kept.get(key)

    async def set_(key: str, value: object) -> bool:
        kept[key] = value
        return True

    ctx = SimpleNamespace(
        t=Translator("en"),
        notify=lambda text, error=False: told.append((text, error)),
        browser_storage=lambda: SimpleNamespace(get=get, set=set_),
    )
    run_alone(tell_storage(ctx, problem))  # type: ignore[arg-type]
    if said is None:
        assert told == []
    else:
        assert len(told) == 1 and said in told[0][0]
        assert told[0][1] is (problem is not None)
    run_alone(tell_storage(ctx, problem))  # type: ignore[arg-type]  # the next start
    assert len(told) == (2 if problem is not None else 1 if said else 0)


def test_the_site_leaves_out_what_the_app_never_loads(site: Path) -> None:
    """One CanvasKit (the full build, for every browser), no maths or Cupertino fonts, a slim Pyodide."""
    assert (site / "canvaskit" / "canvaskit.wasm.gz").exists() and not (
        site / "canvaskit" / "chromium"
    ).exists()
    assert 'canvasKitVariant: "full"' in (site / "flutter_bootstrap.js").read_text(encoding="utf-8")
    fonts = json.loads((site / "assets" / "FontManifest.json").read_text(encoding="utf-8"))
    assert [family["family"] for family in fonts] == ["MaterialIcons", "Roboto"]
    for family in fonts:
        for font in family["fonts"]:
            asset = site / "assets" / font["asset"]
            assert asset.exists() or asset.with_name(asset.name + ".gz").exists(), font
    assert json.loads((site / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"] == {}
    with zipfile.ZipFile(site / "pyodide" / "python_stdlib.zip") as stdlib:
        tops = {name.split("/")[0].removesuffix(".py").removesuffix(".pyc") for name in stdlib.namelist()}
    assert not tops & {"unittest", "pdb", "multiprocessing", "_pyrepl", "xmlrpc"}
    assert {"asyncio", "json", "encodings", "zipfile", "csv", "_pyodide", "pyodide"} <= tops
    notices = gzip.decompress((site / "assets" / "NOTICES.gz").read_bytes()).decode("utf-8")
    assert "Apache License" in notices


def test_the_largest_files_travel_gzipped_and_are_asked_for_by_their_plain_names(site: Path) -> None:
    """Each file of GZIPPED is in the site as `.gz` only; the service worker caches it inflated under its plain
    name, and the page's and the worker's scripts inflate it until the service worker controls the page."""
    listed = json.dumps(static_trim.GZIPPED)
    for name in static_trim.GZIPPED:
        assert not (site / name).exists(), name
        if name == "pyodide/snapshot.bin" and static_start.node() is None:
            continue
        assert gzip.decompress((site / (name + ".gz")).read_bytes()), name
    for script in ("sw.js", "page.js", "python-worker.js"):
        assert listed in (site / script).read_text(encoding="utf-8"), script
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", (site / "sw.js").read_text("utf-8")).group(1))
    assert "canvaskit/canvaskit.wasm.gz" in files and "canvaskit/canvaskit.wasm" not in files
    assert "main.dart.js" in files  # plain: the browser keeps its compiled code only for a file as it came
    page = (site / "index.html").read_text(encoding="utf-8")
    assert page.index('<script src="page.js">') < page.index('<script src="python.js">')


SNAPSHOT_RUNS = """
import { loadPyodide } from %(pyodide)s;
import fs from "node:fs";
const bytes = new Uint8Array(fs.readFileSync(%(snapshot)s));
const create = (await import(%(asm)s)).default;
const results = [];
for (const fresh of [false, false, true, true]) {
    const pyodide = await loadPyodide({
        indexURL: %(index)s,
        _loadSnapshot: bytes,
        createPyodideModule: async (settings) => {
            const created = await create(settings);
            created.growMemory(bytes.length);
            return created;
        },
    });
    results.push(pyodide.runPython(`
import json, random, sys
import scorekeeper.static.worker as worker
if ${fresh ? "True" : "False"}:
    worker.fresh_state()
json.dumps([random.random(), "scorekeeper.ui.app" in sys.modules, "flet.controls.page" in sys.modules])
`));
}
console.log(JSON.stringify(results));
"""


@pytest.mark.skipif(static_start.node() is None, reason="the snapshot is made and loaded by Node.js")
def test_the_snapshot_starts_with_the_app_imported_and_deals_fresh_cards(site: Path, tmp_path: Path) -> None:
    """The site's snapshot of the started interpreter (scorekeeper/static/snapshot.py) has the app and Flet's
    controls imported; two starts from it draw the same random numbers (the build machine's seed, frozen in it)
    until the worker's `fresh_state` reseeds: then each start deals its own cards."""
    import subprocess

    runtime = tmp_path / "pyodide"
    shutil.copytree(site / "pyodide", runtime)
    for packed in runtime.glob("*.gz"):
        packed.with_suffix("").write_bytes(gzip.decompress(packed.read_bytes()))
    script = tmp_path / "runs.mjs"
    script.write_text(
        SNAPSHOT_RUNS
        % {
            "pyodide": json.dumps((runtime / "pyodide.mjs").as_uri()),
            "asm": json.dumps((runtime / "pyodide.asm.mjs").as_uri()),
            "index": json.dumps(str(runtime) + "/"),
            "snapshot": json.dumps(str(runtime / "snapshot.bin")),
        },
        encoding="utf-8",
    )
    node = static_start.node()
    assert node is not None
    done = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    runs = [json.loads(run) for run in json.loads(done.stdout.strip().splitlines()[-1])]
    assert all(imported and controls for _, imported, controls in runs)
    frozen, fresh = [draw for draw, _, _ in runs[:2]], [draw for draw, _, _ in runs[2:]]
    assert frozen[0] == frozen[1]
    assert fresh[0] != fresh[1]
