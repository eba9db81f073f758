"""By hand, not in CI: import a big export in a real browser through the upload route, and report the time and
the server's memory peak (`VmHWM`). Not a test (pytest does not collect it).

    .venv/bin/python tests/browser/measure_big_import.py --games 277000   # an export of about 250 MB
    .venv/bin/python tests/browser/measure_big_import.py --file export.json

Playwright cannot do this: its driver dies ("Cannot create a string longer than 0x1fffffe8 characters") when
Chromium reports a request body of hundreds of megabytes over CDP. So Chromium is driven over a plain CDP
websocket without the Network domain: tap "Import a file", answer the file chooser, poll the import status.
Screenshots (phone size) go to the work folder: the first one showing the upload's progress, and the end."""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[2])]

import websockets  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_FLAGS, free_port, running, wait_http  # noqa: E402

STATUS = (
    "(() => { const n = document.querySelector('[flt-semantics-identifier=\"import-progress\"]');"
    " return n ? n.getAttribute('aria-label') || n.innerText : null; })()"
)


def node(identifier: str) -> str:
    return f"document.querySelector('[flt-semantics-identifier=\"{identifier}\"]')"


class CDP:
    """The smallest CDP client: calls by id, events in a queue."""

    def __init__(self, socket: Any) -> None:
        self.socket, self.count, self.waiting = socket, 0, {}
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def read(self) -> None:
        async for raw in self.socket:
            message = json.loads(raw)
            if "id" in message:
                self.waiting.pop(message["id"]).set_result(message)
            else:
                await self.events.put(message)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.count += 1
        answer = asyncio.get_running_loop().create_future()
        self.waiting[self.count] = answer
        await self.socket.send(json.dumps({"id": self.count, "method": method, "params": params}))
        message = await answer
        if "error" in message:
            raise RuntimeError(message["error"])
        return message["result"]

    async def js(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def shot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode((await self.call("Page.captureScreenshot", format="png"))["data"]))


def memory(pid: int) -> str:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return ", ".join(line.replace("\t", " ") for line in lines if line.startswith(("VmHWM", "VmRSS")))


async def drive(url: str, export: Path, work: Path, server_pid: int) -> None:
    port = free_port()
    chrome = subprocess.Popen(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--remote-debugging-port={port}", "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_http(f"http://127.0.0.1:{port}/json/version")
        pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json"))
        target = next(t for t in pages if t["type"] == "page")
        async with websockets.connect(target["webSocketDebuggerUrl"], max_size=None) as socket:
            cdp = CDP(socket)
            reader = asyncio.create_task(cdp.read())
            await cdp.call("Page.enable")
            await cdp.call(
                "Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=False
            )
            await cdp.call("Page.navigate", url=url)
            for ready in ("flt-semantics-placeholder", '[flt-semantics-identifier="import-file"]'):
                while not await cdp.js(f"!!document.querySelector('{ready}')"):
                    await asyncio.sleep(0.1)
                await cdp.js("document.querySelector('flt-semantics-placeholder').click()")
            await asyncio.sleep(1)
            print("server before:", memory(server_pid), flush=True)
            await cdp.call("Page.setInterceptFileChooserDialog", enabled=True)
            x, y = await cdp.js(
                f"(() => {{ const r = {node('import-file')}.getBoundingClientRect();"
                " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
            )
            for kind in ("mousePressed", "mouseReleased"):
                await cdp.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
            event = await cdp.events.get()
            while event["method"] != "Page.fileChooserOpened":
                event = await cdp.events.get()
            start = time.monotonic()
            await cdp.call(
                "DOM.setFileInputFiles", files=[str(export)], backendNodeId=event["params"]["backendNodeId"]
            )
            shown = ""
            while not await cdp.js(f"!!{node('import-result')}"):
                status = await cdp.js(STATUS)
                phase = (status or "").split("…")[0]
                if status and phase != shown:
                    shown = phase
                    print(f"{time.monotonic() - start:7.1f} s  {status}", flush=True)
                    await asyncio.sleep(0.5)
                    await cdp.shot(work / f"during-{phase.split()[0].lower()}.png")
                await asyncio.sleep(0.3)
            result = await cdp.js(node("import-result") + ".innerText")
            print(f"{time.monotonic() - start:7.1f} s  {result}", flush=True)
            await asyncio.sleep(1)
            await cdp.shot(work / "after.png")
            print("server after:", memory(server_pid), flush=True)
            reader.cancel()
    finally:
        chrome.terminate()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=277_000, help="games in a generated export (277000: ~250 MB)"
    )
    parser.add_argument("--file", type=Path, default=None, help="an export file to import instead")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="scorekeeper-big-import-"))
    export = args.file
    if export is None:
        from scorekeeper.bench.store import export_text

        export = work / "export.json"
        document = json.loads(export_text(args.games))
        export.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")  # as exported
    print(f"file: {export} ({export.stat().st_size / 1e6:.1f} MB); work folder {work}", flush=True)
    data = work / "data"
    data.mkdir()
    port = free_port()
    try:
        with running(data, port, timeout=30) as server:
            asyncio.run(drive(f"http://127.0.0.1:{port}/settings", export, work, server.pid))
            print("left in the upload folder:", sorted(p.name for p in (data / "import-uploads").iterdir()))
    finally:
        if args.file is None:
            export.unlink()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
