"""A WebDAV server as a sync `Target` (Nextcloud, ownCloud, a NAS, `rclone serve webdav`), spoken over plain httpx.

Plain httpx rather than a WebDAV client library: every request needs its own conditional header (`If-Match` with
the ETag read before, `If-None-Match: *` for a file that must be new) and every answer its status mapped to a
player's sentence; httpx comes with Flet and has no native parts, so it runs in a packaged phone app too.

Rules:
- read = GET (the ETag is the version tag); write = PUT with `If-Match`/`If-None-Match`; a missing parent folder
  (409, or 404 on some servers) is made with MKCOL and the PUT is tried once more; list = PROPFIND depth 1;
  check = a probe file written, read back and deleted.
- Every failure is a `SyncError`. No network (a name that does not resolve *for now*, an unreachable network,
  a refused connection: the server is switched off or the laptop is offline) is "offline", so the app retries
  later; a name that does not exist is "not_found". The password is in no message, log, repr or exception: the
  httpx error is kept only as text in `detail`, never chained (its request carries the Authorization header).
- Whole files: a PUT replaces the file at once on Nextcloud, Apache and nginx (they store the upload aside and
  rename it), which is what "a reader never sees half a file" relies on.
"""

from __future__ import annotations

import errno
import socket
import ssl
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, unquote, urlsplit
from xml.etree import ElementTree

import httpx

from scorekeeper.sync.target import Problem, SyncError, status_problem

_PROPFIND_BODY = (
    b'<?xml version="1.0" encoding="utf-8"?>'
    b'<d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/></d:prop></d:propfind>'
)
_DAV = "{DAV:}"
_RETRY_LATER_OS_ERRORS = {errno.ECONNREFUSED, errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN}
_SCHEMES = {
    "http": "http",
    "https": "https",
    "dav": "http",
    "davs": "https",
    "webdav": "http",
    "webdavs": "https",
}


def is_webdav_address(address: str) -> bool:
    """True for an http(s):// address (and the dav(s):// spellings some apps show)."""
    scheme, sep, _ = address.partition("://")
    return bool(sep) and scheme.lower() in _SCHEMES


class WebDavTarget:
    """A folder on a WebDAV server; paths are relative to `url`. Counts its requests and bytes (`requests`,
    `bytes_sent`, `bytes_received`) for the sync benchmark."""

    def __init__(
        self,
        url: str,
        user: str | None = None,
        password: str | None = None,
        timeout: float = 20.0,
        *,
        transport: httpx.BaseTransport | None = None,
        verify: ssl.SSLContext | str | bool = True,
    ) -> None:
        parts = urlsplit(url.strip())
        scheme = _SCHEMES.get(parts.scheme.lower(), parts.scheme.lower())
        # A user and password written into the address move to the auth (and out of every name and message).
        user = user if user else (unquote(parts.username) if parts.username else None)
        password = password if password else (unquote(parts.password) if parts.password else None)
        host = parts.hostname or ""
        netloc = f"[{host}]" if ":" in host else host
        try:
            port = parts.port
        except ValueError:  # "nas.local:50o6": an address no server can have
            raise SyncError("not_found", host or "WebDAV", "the port is not a number") from None
        if port:
            netloc += f":{port}"
        path = parts.path if parts.path.endswith("/") else parts.path + "/"
        self.url = f"{scheme}://{netloc}{path}"
        self.name = host or self.url
        self.user = user
        self.requests = 0
        self.bytes_sent = 0
        self.bytes_received = 0
        self._made: set[str] = set()  # folders known to exist: no MKCOL for them again
        self._client = httpx.Client(
            auth=httpx.BasicAuth(user, password or "") if user else None,
            timeout=httpx.Timeout(timeout),
            verify=verify,
            follow_redirects=False,
            # Unpacked answers: a server that compresses a GET changes its ETag (Apache adds "-gzip"), and a
            # PUT guarded with that tag would then never match.
            headers={"Accept-Encoding": "identity"},
            transport=transport,
            event_hooks={"request": [self._count_request], "response": [self._count_response]},
        )

    def __repr__(self) -> str:
        return f"WebDavTarget({self.url!r}, user={self.user!r})"

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> WebDavTarget:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # The Target protocol

    def read(self, path: str) -> tuple[bytes, str] | None:
        response = self._send("GET", path)
        if response.status_code == 404:
            return None
        if response.status_code != 200:
            raise self._error(response, writing=False)
        return response.content, self._etag(response, path)

    def write(self, path: str, data: bytes, expect: str | None = None) -> str:
        headers = {"Content-Type": "application/octet-stream"}
        if expect == "":
            headers["If-None-Match"] = "*"
        elif expect is not None:
            # A weak tag (W/"...") never matches If-Match (strong comparison): "*" still needs the file there.
            headers["If-Match"] = "*" if expect.startswith("W/") else expect
        response = self._send("PUT", path, content=data, headers=headers)
        if response.status_code in (404, 409):
            # The parent folder is missing (409 says so; some servers answer 404): make it, try once more.
            self._made.clear()  # a folder made earlier may have been removed since
            self._make_folders(_parent(path))
            response = self._send("PUT", path, content=data, headers=headers)
        if response.status_code not in (200, 201, 204):
            raise self._error(response, writing=True)
        self._made.add(_parent(path))
        return self._etag(response, path)

    def list(self, folder: str) -> list[str]:
        response = self._send(
            "PROPFIND",
            _folder(folder),
            content=_PROPFIND_BODY,
            headers={"Depth": "1", "Content-Type": "application/xml; charset=utf-8"},
        )
        if response.status_code == 404:
            return []
        if response.status_code != 207:
            raise self._error(response, writing=False)
        own = unquote(urlsplit(self._url(_folder(folder))).path).rstrip("/")
        names = (path.rpartition("/") for path in _hrefs(response, self.name))
        return sorted(name for parent, _, name in names if name and parent == own)

    def check(self) -> None:
        response = self._send("PROPFIND", "", content=_PROPFIND_BODY, headers={"Depth": "0"})
        if response.status_code == 404:
            raise SyncError("not_found", self.name, "404 on the root folder")
        if response.status_code != 207:
            raise self._error(response, writing=False)
        probe = f".scorekeeper-probe-{uuid.uuid4().hex[:12]}"
        self.write(probe, b"probe", expect="")
        try:
            if self.read(probe) is None:
                raise SyncError("server", self.name, "a file just written is not there")
        finally:
            self.delete(probe)

    # Beyond the protocol

    def delete(self, path: str) -> None:
        """Removes a file (a missing one is fine)."""
        response = self._send("DELETE", path)
        if response.status_code not in (200, 204, 404):
            raise self._error(response, writing=True)

    # Requests and answers

    def _url(self, path: str) -> str:
        return (
            self.url
            + "/".join(quote(part, safe="") for part in path.strip("/").split("/") if part)
            + ("/" if path.endswith("/") else "")
        )

    def _send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            return self._client.request(method, self._url(path), **kwargs)
        except httpx.TimeoutException as exc:
            raise SyncError("timeout", self.name, f"{method} {path}: {type(exc).__name__}") from None
        except httpx.HTTPError as exc:  # the text of an httpx error holds no header, so no password
            raise SyncError(_network_problem(exc), self.name, f"{method} {path}: {exc}") from None

    def _make_folders(self, folder: str) -> None:
        """MKCOL `folder`, making its missing parents first (a 409 says the parent is missing). The target's own
        folder is never made: a missing one is "not_found" (a typing error in the address must not leave a
        stray folder on the server)."""
        if not folder:
            response = self._send("PROPFIND", "", content=_PROPFIND_BODY, headers={"Depth": "0"})
            if response.status_code in (404, 409):
                raise SyncError("not_found", self.name, f"{response.status_code} on the root folder")
            return
        if folder in self._made:
            return
        response = self._send("MKCOL", _folder(folder))
        if response.status_code in (404, 409):
            self._make_folders(_parent(folder))
            response = self._send("MKCOL", _folder(folder))
        # 405: the folder is there already (a second device or an earlier sync made it).
        if response.status_code not in (200, 201, 204, 405):
            raise self._error(response, writing=True)
        self._made.add(folder)

    def _etag(self, response: httpx.Response, path: str) -> str:
        etag = response.headers.get("ETag")
        if not etag:  # some servers send no ETag with a PUT: ask for it
            etag = self._send("HEAD", path).headers.get("ETag")
        # Without any ETag "*" still guards "the file must exist"; a server that keeps none cannot do better.
        return etag or "*"

    def _error(self, response: httpx.Response, writing: bool) -> SyncError:
        status = response.status_code
        detail = f"{status} {response.request.method} {unquote(response.request.url.path)}"
        return SyncError(status_problem(status, writing), self.name, detail)

    def _count_request(self, request: httpx.Request) -> None:
        self.requests += 1
        self.bytes_sent += len(request.content) + _header_bytes(request.headers)

    def _count_response(self, response: httpx.Response) -> None:
        response.read()
        self.bytes_received += len(response.content) + _header_bytes(response.headers)


def _network_problem(exc: BaseException) -> Problem:
    """The rule for a request that got no HTTP answer: a name that does not exist is "not_found", a name that
    cannot be looked up now, a refused or unreachable host is "offline", a certificate is "certificate"."""
    for cause in _causes(exc):
        if isinstance(cause, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in str(cause):
            return "certificate"
        if isinstance(cause, socket.gaierror):
            return "offline" if cause.errno in (socket.EAI_AGAIN,) else "not_found"
        if isinstance(cause, OSError) and cause.errno in _RETRY_LATER_OS_ERRORS:
            return "offline"
    text = str(exc)
    if "Name or service not known" in text or "nodename nor servname" in text:
        return "not_found"
    if isinstance(exc, httpx.ConnectError):
        return "offline"
    return "server"  # the server closed the connection or answered something that is not HTTP


def _causes(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    stack: list[BaseException | None] = [exc]
    while stack:
        item = stack.pop()
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        stack.extend((item.__cause__, item.__context__))
        stack.extend(arg for arg in getattr(item, "args", ()) if isinstance(arg, BaseException))


def _hrefs(response: httpx.Response, name: str) -> Iterator[str]:
    """The path of every resource in a PROPFIND answer, decoded, without a trailing "/" (the folder itself
    included: a server may write an href as a full URL or as a path)."""
    try:
        root = ElementTree.fromstring(response.content)
    except ElementTree.ParseError:
        raise SyncError("server", name, "PROPFIND answer is not XML") from None
    for item in root.iter(f"{_DAV}response"):
        href = item.findtext(f"{_DAV}href") or ""
        yield unquote(urlsplit(href).path).rstrip("/")


def _header_bytes(headers: httpx.Headers) -> int:
    return sum(len(key) + len(value) + 4 for key, value in headers.raw)


def _parent(path: str) -> str:
    return path.strip("/").rpartition("/")[0]


def _folder(path: str) -> str:
    return path.strip("/") + "/" if path.strip("/") else ""
