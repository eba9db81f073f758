"""WebDAV spoken through an asynchronous `fetch` (the browser's, in the static build; httpx's on the host in tests
and the benchmark): `DavClient`, the asynchronous twin of `webdav.WebDavTarget`, with the same rules.

- read = GET (the ETag is the version tag; a tag already held is sent as `If-None-Match`, and a 304 means "the
  same as held": `SAME`); write = PUT with `If-Match` / `If-None-Match: *`; a missing parent folder (409, or 404
  on some servers) is made with MKCOL and the PUT tried once more; list = PROPFIND depth 1; check = a probe file
  written, read back and deleted.
- Every failure is a `SyncError`, with the problems of target.py mapped from the HTTP status as for the WebDAV
  target. A request that gets no answer at all is "offline" when the browser is offline or the server cannot be
  reached; when the server answers a request made without CORS (a `no-cors` probe) but refuses the app's own
  request, the server does not let this site's origin in: `CrossOriginRefused`, whose one sentence says what to
  change on that kind of server.
- In a browser a cross-origin answer shows only the headers the server exposes: a server that keeps `ETag`
  hidden (no `Access-Control-Expose-Headers: ETag`) still gives the tag in a PROPFIND's `getetag` (one request
  more per write).
- The password or device token travels only in the Authorization header: never in a name, a message or `detail`.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import quote, unquote, urlsplit
from xml.etree import ElementTree

from scorekeeper.games.messages import N_, TranslatableError
from scorekeeper.sync.target import Problem, SyncError, status_problem

PROPFIND_BODY = (
    b'<?xml version="1.0" encoding="utf-8"?>'
    b'<d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/></d:prop></d:propfind>'
)
_DAV = "{DAV:}"


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: its status, its headers as the page may read them (names in lower case), its body."""

    status: int
    headers: dict[str, str]
    body: bytes = b""


NoAnswerKind = Literal["offline", "timeout", "cross_origin", "not_found", "certificate", "server"]


class NoAnswer(Exception):
    """The request got no HTTP answer; `kind` says what the fetch layer found out about why."""

    def __init__(self, kind: NoAnswerKind, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind: NoAnswerKind = kind
        self.detail = detail


Fetch = Callable[[str, str, dict[str, str], bytes | None], Awaitable[Answer]]
"""`fetch(method, url, headers, body)`: one request, its answer, or NoAnswer."""

SAME: tuple[bytes, str] = (b"", "")
"""What `read` gives when the file still has the tag the caller holds (a 304); compare with `is`."""


class CrossOriginRefused(SyncError):
    """The server answers, but not to a page from another origin (no CORS for this site): a setting there."""

    def __init__(self, target: str, origin: str, hub: bool) -> None:
        # its own sentence (what to change there), instead of the general "the server had a problem"
        TranslatableError.__init__(
            self, HUB_REFUSES if hub else WEBDAV_REFUSES, target=target, origin=origin or "*"
        )
        self.problem: Problem = "server"
        self.detail = "cross-origin request refused"

    @property
    def retry_later(self) -> bool:
        return False


WEBDAV_REFUSES = N_(
    "{target} refuses requests from this web app: allow the origin {origin} there (rclone: serve webdav "
    "--allow-origin {origin}; Nextcloud: a CORS app or setting for WebDAV; a NAS: its WebDAV CORS setting)."
)
HUB_REFUSES = N_(
    "{target} refuses requests from this web app: open the app from your server's own address instead, or "
    "update the app on the server (it allows its paired devices from any address)."
)


_SCHEMES = {
    "http": "http",
    "https": "https",
    "dav": "http",
    "davs": "https",
    "webdav": "http",
    "webdavs": "https",
}


def is_http_address(address: str) -> bool:
    """An http(s):// address (or dav(s)://, as some apps show it): a WebDAV server, not a folder."""
    scheme, sep, _ = address.strip().partition("://")
    return bool(sep) and scheme.lower() in _SCHEMES


def dav_url(address: str) -> str:
    """The address as fetch takes it: http(s), ending in "/", without a user or password written into it."""
    parts = urlsplit(address.strip())
    host = parts.hostname or ""
    netloc = (f"[{host}]" if ":" in host else host) + (f":{parts.port}" if parts.port else "")
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return f"{_SCHEMES.get(parts.scheme.lower(), parts.scheme.lower())}://{netloc}{path}"


def hub_url(address: str) -> str:
    """The owner's server's sync folder: its address with `/sync/` (the address as typed, if it names it)."""
    url = dav_url(address)
    for tail in ("app/", "sync/"):  # the static build served by that server lives under /app/
        if url.endswith("/" + tail):
            url = url[: -len(tail)]
    return url + "sync/"


def basic_auth(user: str, password: str) -> str:
    """The Authorization header's value for a user name and password (UTF-8, as the WebDAV target sends)."""
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")


@dataclass
class Counts:
    """Requests and bytes on the wire (bodies and headers as sent and read), for the benchmark."""

    requests: int = 0
    sent: int = 0
    received: int = 0


@dataclass
class DavClient:
    """A folder on a WebDAV server, reached with `fetch`; paths are relative to `url` (which ends in "/")."""

    url: str
    fetch: Fetch
    authorization: str | None = None
    hub: bool = False
    """The owner's own server (a device token): its refusal of a cross-origin request says other words."""
    origin: str = ""
    counts: Counts = field(default_factory=Counts)
    name: str = ""
    _made: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not self.url.endswith("/"):
            self.url += "/"
        parts = urlsplit(self.url)
        self.name = self.name or parts.hostname or self.url

    def __repr__(self) -> str:  # never the authorization
        return f"DavClient({self.url!r})"

    # ------------------------------------------------------------------ the target's four calls, awaited
    async def read(self, path: str, held: str | None = None) -> tuple[bytes, str] | None:
        """The file and its tag; None when there is none; `SAME` when its tag is still `held`."""
        headers = {"If-None-Match": held} if held and not held.startswith("W/") and held != "*" else {}
        answer = await self._send("GET", path, headers=headers)
        if answer.status == 304 and headers:
            return SAME
        if answer.status == 404:
            return None
        if answer.status != 200:
            raise self._error(answer, "GET", path, writing=False)
        return answer.body, await self._etag(answer, path)

    async def write(self, path: str, data: bytes, expect: str | None = None) -> str:
        headers = {"Content-Type": "application/octet-stream"}
        if expect == "":
            headers["If-None-Match"] = "*"
        elif expect is not None:
            headers["If-Match"] = "*" if expect.startswith("W/") else expect
        answer = await self._send("PUT", path, body=data, headers=headers)
        if answer.status in (404, 409):  # the parent folder is missing: made, then once more
            self._made.clear()
            await self._make_folders(_parent(path))
            answer = await self._send("PUT", path, body=data, headers=headers)
        if answer.status not in (200, 201, 204):
            raise self._error(answer, "PUT", path, writing=True)
        self._made.add(_parent(path))
        return await self._etag(answer, path)

    async def list(self, folder: str) -> list[str]:
        answer = await self._propfind(_folder(folder), "1")
        if answer.status == 404:
            return []
        if answer.status != 207:
            raise self._error(answer, "PROPFIND", folder, writing=False)
        own = unquote(urlsplit(self._url(_folder(folder))).path).rstrip("/")
        names = (href.rpartition("/") for href, _ in _hrefs(answer, self.name))
        return sorted(name for parent, _, name in names if name and parent == own)

    async def check(self) -> None:
        answer = await self._propfind("", "0")
        if answer.status == 404:
            raise SyncError("not_found", self.name, "404 on the root folder")
        if answer.status != 207:
            raise self._error(answer, "PROPFIND", "", writing=False)
        probe = f".scorekeeper-probe-{uuid.uuid4().hex[:12]}"
        await self.write(probe, b"probe", expect="")
        try:
            if await self.read(probe) is None:
                raise SyncError("server", self.name, "a file just written is not there")
        finally:
            await self.delete(probe)

    async def delete(self, path: str) -> None:
        answer = await self._send("DELETE", path)
        if answer.status not in (200, 204, 404):
            raise self._error(answer, "DELETE", path, writing=True)

    # ------------------------------------------------------------------ requests
    def _url(self, path: str) -> str:
        return (
            self.url
            + "/".join(quote(part, safe="") for part in path.strip("/").split("/") if part)
            + ("/" if path.endswith("/") else "")
        )

    async def _send(
        self, method: str, path: str, *, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> Answer:
        headers = dict(headers or {})
        if self.authorization:
            headers["Authorization"] = self.authorization
        self.counts.requests += 1
        self.counts.sent += len(body or b"") + sum(len(k) + len(v) + 4 for k, v in headers.items())
        try:
            answer = await self.fetch(method, self._url(path), headers, body)
        except NoAnswer as missing:
            where = f"{method} {path}: {missing.detail}"
            if missing.kind == "cross_origin":
                raise CrossOriginRefused(self.name, self.origin, self.hub) from None
            raise SyncError(missing.kind, self.name, where) from None
        self.counts.received += len(answer.body) + sum(len(k) + len(v) + 4 for k, v in answer.headers.items())
        return answer

    async def _propfind(self, path: str, depth: str) -> Answer:
        headers = {"Depth": depth, "Content-Type": "application/xml; charset=utf-8"}
        return await self._send("PROPFIND", path, body=PROPFIND_BODY, headers=headers)

    async def _make_folders(self, folder: str) -> None:
        """MKCOL `folder`, its missing parents first; the target's own folder is never made (a mistyped
        address must not leave a stray folder on the server)."""
        if not folder:
            answer = await self._propfind("", "0")
            if answer.status in (404, 409):
                raise SyncError("not_found", self.name, f"{answer.status} on the root folder")
            return
        if folder in self._made:
            return
        answer = await self._send("MKCOL", _folder(folder))
        if answer.status in (404, 409):
            await self._make_folders(_parent(folder))
            answer = await self._send("MKCOL", _folder(folder))
        if answer.status not in (200, 201, 204, 405):  # 405: there already
            raise self._error(answer, "MKCOL", folder, writing=True)
        self._made.add(folder)

    async def _etag(self, answer: Answer, path: str) -> str:
        """The answer's ETag; where the page may not read that header, the PROPFIND's `getetag`; else "*"
        (which still guards "the file must exist")."""
        etag = answer.headers.get("etag")
        if etag:
            return etag
        found = await self._propfind(path, "0")
        if found.status == 207:
            tags = [tag for _, tag in _hrefs(found, self.name) if tag]
            if tags:
                return tags[0]
        return "*"

    def _error(self, answer: Answer, method: str, path: str, *, writing: bool) -> SyncError:
        return SyncError(
            status_problem(answer.status, writing), self.name, f"{answer.status} {method} {path}"
        )


def _hrefs(answer: Answer, name: str) -> list[tuple[str, str]]:
    """(path without a trailing "/", getetag or "") of every resource in a PROPFIND answer."""
    try:
        root = ElementTree.fromstring(answer.body)
    except ElementTree.ParseError:
        raise SyncError("server", name, "PROPFIND answer is not XML") from None
    found = []
    for item in root.iter(f"{_DAV}response"):
        href = unquote(urlsplit(item.findtext(f"{_DAV}href") or "").path).rstrip("/")
        found.append((href, (item.findtext(f".//{_DAV}getetag") or "").strip()))
    return found


def _parent(path: str) -> str:
    return path.strip("/").rpartition("/")[0]


def _folder(path: str) -> str:
    return path.strip("/") + "/" if path.strip("/") else ""
