"""The `Fetch` of `dav_fetch` over httpx: the host's stand-in for the browser's fetch (tests, `bench`), so the
browser's sync is proved against real WebDAV servers on the host. No CORS here: a host client has no origin."""

from __future__ import annotations

import httpx

from scorekeeper.sync.dav_fetch import Answer, Fetch, NoAnswer, NoAnswerKind
from scorekeeper.sync.webdav import _network_problem


def httpx_fetch(client: httpx.AsyncClient) -> Fetch:
    """A fetch over `client` (its time-out is the fetch's)."""

    async def fetch(method: str, url: str, headers: dict[str, str], body: bytes | None) -> Answer:
        try:
            answer = await client.request(
                method, url, headers={"Accept-Encoding": "identity", **headers}, content=body
            )
        except httpx.TimeoutException as error:
            raise NoAnswer("timeout", type(error).__name__) from None
        except httpx.HTTPError as error:  # its text holds no header, so no password
            problem = _network_problem(error)
            kind: NoAnswerKind = problem if problem in ("offline", "not_found", "certificate") else "server"
            raise NoAnswer(kind, str(error)) from None
        return Answer(answer.status_code, {k.lower(): v for k, v in answer.headers.items()}, answer.content)

    return fetch
