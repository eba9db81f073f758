"""A browser tab as an attacker drives it: a websocket client speaking Flet's protocol to the real served app
(as tests/test_hosting_routes.py's `Visit`), kept open, that learns the ids of the controls the server sends
(tagged ones by their identifier, services by their type) and sends events to any of them, also to controls
its screen no longer shows. The server's calls to the browser are answered (storage from `storage`; the file
picker's `upload` is recorded, its file then PUT as a browser does)."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
from websockets.sync.client import ClientConnection, connect

REGISTER, PATCH, EVENT, UPDATE, INVOKE = 1, 2, 3, 4, 5


class Tab:
    """One tab registered on `route` at the server `url`, with the browser storage `storage`."""

    def __init__(self, url: str, route: str, storage: dict[str, str] | None = None) -> None:
        self.url, self.storage = url.rstrip("/"), dict(storage or {})
        self.tagged: dict[str, int] = {}  # identifier -> the id of the control it tags
        self.services: dict[str, list[int]] = {}  # service type -> ids, in the order first seen
        self.uploads: list[dict[str, Any]] = []  # the files the server asked the picker to upload
        self.texts: list[str] = []
        socket_url = self.url.replace("http://", "ws://") + "/ws"
        self.connected = connect(socket_url, max_size=None, open_timeout=20)
        self.socket: ClientConnection = self.connected.__enter__()
        page = {"route": route, "width": 390.0, "height": 844.0, "web": True, "platform": "android"}
        self.send([REGISTER, {"session_id": None, "page_name": "", "page": page}])

    def send(self, message: list[Any]) -> None:
        self.socket.send(b"\x00" + msgpack.packb(message))

    def close(self) -> None:
        self.connected.__exit__(None, None, None)

    # ------------------------------------------------------------------ reading what the server sends
    def pump(self, until: Callable[[], bool], seconds: float = 30.0) -> bool:
        """Read and learn from frames until `until()` holds (True) or `seconds` passed (False)."""
        deadline = time.monotonic() + seconds
        while not until():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                frame = self.socket.recv(timeout=min(0.5, left))
            except TimeoutError:
                continue
            if isinstance(frame, bytes) and frame[:1] == b"\x00":
                self.learn(msgpack.unpackb(frame[1:], strict_map_key=False))
        return True

    def wait_for(self, identifier: str, seconds: float = 30.0) -> int:
        assert self.pump(lambda: identifier in self.tagged, seconds), (identifier, sorted(self.tagged))
        return self.tagged[identifier]

    def learn(self, message: Any) -> None:
        if not isinstance(message, list) or len(message) != 2:
            return
        action, body = message
        if action == INVOKE and isinstance(body, dict):
            self.answer(body)
        self.walk(body)

    def walk(self, value: Any) -> None:
        if isinstance(value, dict):
            kind, ident = value.get("_c"), value.get("_i")
            if isinstance(kind, str) and isinstance(ident, int):
                if kind in ("FilePicker", "SharedPreferences") and ident not in self.services.get(kind, []):
                    self.services.setdefault(kind, []).append(ident)
                identifier, content = value.get("identifier"), value.get("content")
                if isinstance(identifier, str) and isinstance(content, dict):
                    inner = content
                    # a tappable Container is wrapped in a button node of its own (widgets.tag)
                    while inner.get("_c") == "Semantics" and "identifier" not in inner:
                        if not isinstance(inner.get("content"), dict):
                            break
                        inner = inner["content"]
                    if isinstance(inner.get("_i"), int):
                        self.tagged[identifier] = inner["_i"]
            for item in value.values():
                self.walk(item)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, str):
                    self.texts.append(item)
                else:
                    self.walk(item)
        elif isinstance(value, str):
            self.texts.append(value)

    def answer(self, body: dict[str, Any]) -> None:
        name, args = body.get("name"), body.get("args") or {}
        result: Any = None
        if name == "get":
            result = self.storage.get(str(args.get("key")))
        elif name in ("set", "remove"):
            result = True
        elif name == "upload":
            self.uploads.extend(args.get("files") or [])
        reply = {
            "control_id": body["control_id"],
            "call_id": body["call_id"],
            "result": result,
            "error": None,
        }
        self.send([INVOKE, reply])

    def seen(self, text: str) -> bool:
        return any(text in item for item in self.texts)

    # ------------------------------------------------------------------ acting
    def event(self, control_id: int, name: str, data: Any = None) -> None:
        self.send([EVENT, {"target": control_id, "name": name, "data": data}])

    def tap(self, identifier: str) -> None:
        self.event(self.tagged[identifier], "click")

    def put(self, upload: dict[str, Any], content: bytes) -> int:
        """PUT `content` to an upload URL the server handed out, as Flet's web client does; the status."""
        url = str(upload["upload_url"])
        if url.startswith("/"):
            url = self.url + url
        request = urllib.request.Request(url, data=content, method="PUT")
        request.add_header("Content-Type", "application/octet-stream")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return int(error.code)


def log_count(log: Path, text: str) -> int:
    return log.read_text(encoding="utf-8", errors="replace").count(text)
