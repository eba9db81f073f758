"""The browser's own fetch as the `Fetch` of `dav_fetch` (the static build: Pyodide in Flet's web worker).

Only `browser_fetch`, `online` and `when_online` touch Pyodide's modules (`IN_BROWSER`); `why_no_answer` holds the
rule and is plain Python. A request that gets no answer is a `TypeError` in JavaScript, whatever the cause; the
rule tells them apart:
- the browser says it is offline (`navigator.onLine` false): "offline";
- the same address asked without CORS (`mode: "no-cors"`, whose answer the page may not read) answers: the server
  is there but refuses this site's origin: "cross_origin" (`CrossOriginRefused` says what to change there);
- else the server cannot be reached now: "offline" (tried again later).

Requests go with `cache: "no-store"` (the browser's cache must not answer a GET whose version tag matters),
`credentials: "omit"` (the password or token is in the Authorization header, never a cookie) and
`redirect: "manual"` (an address that redirects is not the folder: "not_found", as for the WebDAV target).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from scorekeeper.sync.dav_fetch import Answer, NoAnswer, NoAnswerKind

TIMEOUT_S = 30.0


def why_no_answer(online: bool, same_origin: bool, probe_answered: bool) -> NoAnswerKind:
    """The rule above: why a request got no HTTP answer."""
    if not online:
        return "offline"
    if not same_origin and probe_answered:
        return "cross_origin"
    return "offline"


async def browser_fetch(method: str, url: str, headers: dict[str, str], body: bytes | None) -> Answer:
    """One request through the browser's fetch (see the module's docstring)."""
    import js  # type: ignore[import-not-found]  # only in the browser
    from pyodide.ffi import to_js  # type: ignore[import-not-found]

    options: dict[str, Any] = {
        "method": method,
        "headers": to_js(headers, dict_converter=js.Object.fromEntries),
        "cache": "no-store",
        "credentials": "omit",
        "redirect": "manual",
        "mode": "cors",
    }
    timeout = getattr(js.AbortSignal, "timeout", None)
    if timeout is not None:
        options["signal"] = timeout(int(TIMEOUT_S * 1000))
    if body is not None:
        options["body"] = js.Uint8Array.new(to_js(body))
    try:
        response = await js.fetch(url, to_js(options, dict_converter=js.Object.fromEntries))
        data = (await response.arrayBuffer()).to_bytes()
    except Exception as error:  # JavaScript's TypeError (no answer) or the time-out's DOMException
        text = str(error)
        if "TimeoutError" in text or "timed out" in text:
            raise NoAnswer("timeout", text) from None
        raise NoAnswer(await _why(url), text) from None
    status = int(response.status)
    if str(response.type) == "opaqueredirect":
        status = 302
    names = {str(pair[0]).lower(): str(pair[1]) for pair in response.headers.entries()}
    return Answer(status, names, data)


async def _why(url: str) -> NoAnswerKind:
    import js
    from pyodide.ffi import to_js

    online = bool(js.navigator.onLine)
    same = url.startswith(str(js.location.origin) + "/")
    answered = False
    if online and not same:
        probe = {"method": "GET", "mode": "no-cors", "cache": "no-store", "credentials": "omit"}
        try:
            await js.fetch(url, to_js(probe, dict_converter=js.Object.fromEntries))
            answered = True
        except Exception:  # the server is not there either
            answered = False
    return why_no_answer(online, same, answered)


def online() -> bool:
    """Whether the browser believes it is online (true outside a browser)."""
    try:
        import js
    except ImportError:
        return True
    return bool(js.navigator.onLine)


def origin() -> str:
    """This site's origin ("" outside a browser)."""
    try:
        import js
    except ImportError:
        return ""
    return str(js.location.origin)


def when_online(call: Callable[[], Awaitable[None] | None]) -> None:
    """Call `call` whenever the browser comes back online (the worker's `online` event)."""
    try:
        import js
        from pyodide.ffi import create_proxy
    except ImportError:
        return
    js.addEventListener("online", create_proxy(lambda _event: call()))
