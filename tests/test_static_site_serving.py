"""The owner's server serves the static build at /app/ (scorekeeper/server/static_site.py): a file the build keeps
gzipped only is answered under its plain name, gzip-encoded, so the page needs no `blob:` script there."""

from __future__ import annotations

import gzip
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient

from scorekeeper.server.static_site import PrecompressedFiles

SCRIPT = b"console.log('the client');\n" * 200


def client(site: Path) -> TestClient:
    return TestClient(Starlette(routes=[Mount("/app", PrecompressedFiles(directory=site, html=True))]))


def test_a_plain_name_is_answered_with_its_gzipped_file(tmp_path: Path) -> None:
    (tmp_path / "main.dart.js.gz").write_bytes(gzip.compress(SCRIPT))
    (tmp_path / "canvaskit").mkdir()
    (tmp_path / "canvaskit" / "canvaskit.wasm.gz").write_bytes(gzip.compress(b"\0asm" + bytes(100)))
    (tmp_path / "index.html").write_text("<html></html>", encoding="utf-8")
    with client(tmp_path) as http:
        script = http.get("/app/main.dart.js")
        assert script.status_code == 200 and script.content == SCRIPT  # the client inflated it
        assert script.headers["content-encoding"] == "gzip"
        assert script.headers["content-type"].startswith("text/javascript")
        head = http.head("/app/main.dart.js")
        assert head.status_code == 200  # what the page's probe asks
        wasm = http.get("/app/canvaskit/canvaskit.wasm")
        assert wasm.headers["content-type"] == "application/wasm" and wasm.content.startswith(b"\0asm")
        packed = http.get("/app/main.dart.js.gz")  # asked by its own name: the file as it is
        assert "content-encoding" not in packed.headers and gzip.decompress(packed.content) == SCRIPT
        assert http.get("/app/").status_code == 200
        assert http.get("/app/missing.js").status_code == 404
        assert http.get("/app/missing.js.gz").status_code == 404
