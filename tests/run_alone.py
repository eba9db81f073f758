"""Run a coroutine to its end from a synchronous test, whatever the test run did before."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_alone(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` on a thread of its own: a browser test earlier in the same run may leave this thread's event
    loop running (Playwright's sync API), and asyncio.run refuses to start inside it."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
