"""Waiting with a time limit without losing a cancellation.

``asyncio.wait_for`` before Python 3.12 returns the result, and swallows the cancel, when a task is
cancelled at the moment the thing it awaits finishes (CPython issue gh-86296). A stream that
delivers lines several times a second hits that by chance: the task the caller cancelled read on
and ran its job to the end. ``within`` is ``wait_for`` where the cancel always wins."""

from __future__ import annotations

import asyncio
from typing import Awaitable, TypeVar

T = TypeVar("T")


async def within(awaitable: Awaitable[T], seconds: float) -> T:
    """What ``awaitable`` gives, or ``asyncio.TimeoutError`` after ``seconds``; a cancel of the
    awaiting task cancels ``awaitable`` and is raised, even when ``awaitable`` has just finished."""
    inner = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({inner}, timeout=max(0.0, seconds))
    except asyncio.CancelledError:
        await _cancel_and_settle(inner)
        raise
    if not done:
        await _cancel_and_settle(inner)
        raise asyncio.TimeoutError
    return inner.result()


async def _cancel_and_settle(inner: asyncio.Future[T]) -> None:
    """Cancel ``inner`` and let it end, so that what it was reading (an async generator's
    ``__anext__``) is free again, as ``wait_for`` does."""
    if inner.done():
        if not inner.cancelled():
            inner.exception()  # retrieved: no "exception was never retrieved" warning
        return
    inner.cancel()
    await asyncio.wait({inner})
    if not inner.cancelled():
        inner.exception()
