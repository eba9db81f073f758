"""Security headers for a server on the internet, fitted to what Flet's web page needs.

Every HTTP response gets:

- `X-Content-Type-Options: nosniff`: a file is only ever what its content type says (no script sniffed out of
  an upload or a JSON answer);
- `X-Frame-Options: DENY` and CSP `frame-ancestors 'none'`: no other site can show the app in a frame and trick
  a player into tapping (clickjacking); the old header for old browsers, the CSP one for the rest;
- `Referrer-Policy: no-referrer`: a link followed from the app tells the other site nothing (no join code, no
  token that was ever in an address);
- `Cross-Origin-Opener-Policy: same-origin`: a page that opened the app in a window keeps no handle on it;
- `Permissions-Policy`: no camera, microphone, location or payment, which the app never uses;
- `Strict-Transport-Security` when the request came over https (through a trusted proxy): browsers keep to
  https afterwards.

The page itself (`text/html`) also gets a Content-Security-Policy that Flet's page actually works with (checked
in Chromium, tests/browser/test_hosting_caddy.py): scripts only from the app's own origin plus the page's inline
scripts by their SHA-256 (Flet writes its config into the page, so the hashes are taken from each page as it is
sent), WebAssembly compilation for CanvasKit (`'wasm-unsafe-eval'`), styles inline (Flutter adds style elements
at run time), images and fonts from the app and `data:`/`blob:` (the QR code, Flutter's own), fallback fonts
for other scripts from fonts.gstatic.com (see web_index.py), the websocket to the app's own origin, nothing
else: no plugins, no `<base>` elsewhere, no form posts elsewhere.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from scorekeeper.server.web_index import FONT_FALLBACK_BASE_URL

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]

FONTS_ORIGIN = "https://" + FONT_FALLBACK_BASE_URL.split("/")[2]
COMMON: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
)
HSTS = (b"strict-transport-security", b"max-age=31536000")
INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL | re.IGNORECASE)


def script_hashes(html: bytes) -> list[str]:
    """CSP sources for the inline scripts of `html` ('sha256-...'), in page order."""
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'"
        for body in INLINE_SCRIPT.findall(html)
    ]


def content_security_policy(html: bytes) -> str:
    """The policy for a page (see the module docstring)."""
    directives = {
        "default-src": "'self'",
        "script-src": " ".join(["'self'", "'wasm-unsafe-eval'", *script_hashes(html)]),
        "style-src": "'self' 'unsafe-inline'",
        "img-src": "'self' data: blob:",
        "font-src": f"'self' data: {FONTS_ORIGIN}",
        "connect-src": f"'self' {FONTS_ORIGIN}",
        "worker-src": "'self' blob:",
        "object-src": "'none'",
        "base-uri": "'self'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
    }
    return "; ".join(f"{name} {value}" for name, value in directives.items())


class SecurityHeaders:
    """ASGI middleware adding the headers above; an HTML page is held until complete (Flet's page is ~10 KB)
    so that its inline scripts can be hashed into its policy."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [*COMMON, HSTS] if scope.get("scheme") == "https" else list(COMMON)
        held: list[Message] = []

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in dict(extra)]
                message["headers"] = headers + extra
                if _is_html(headers) and scope.get("method") != "HEAD":
                    held.append(message)
                    return
            elif held:
                held.append(message)
                if message.get("more_body"):
                    return
                await _send_page(send, held)
                return
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _is_html(headers: list[tuple[bytes, bytes]]) -> bool:
    return any(k.lower() == b"content-type" and v.lower().startswith(b"text/html") for k, v in headers)


async def _send_page(send: Callable[[Message], Awaitable[None]], held: list[Message]) -> None:
    start, parts = held[0], held[1:]
    body = b"".join(part.get("body", b"") for part in parts)
    if body:  # a 304 has none: the cached page keeps its own policy (one without its hashes would replace it)
        start["headers"] = [
            (k, v)
            for k, v in start["headers"]
            if k.lower() not in (b"content-security-policy", b"content-length")
        ] + [
            (b"content-security-policy", content_security_policy(body).encode()),
            (b"content-length", str(len(body)).encode()),
        ]
    await send(start)
    await send({"type": "http.response.body", "body": body, "more_body": False})
