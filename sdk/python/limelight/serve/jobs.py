"""Runs of an endpoint: the ``Job`` handle a function receives, and the container's table of runs.

The table enforces the per-container concurrency limit and dedupes deliveries: the platform
delivers a job at least once (docs/jobs.md) and names it with ``Idempotency-Key`` (the job id)
and ``Limelight-Attempt``; a second delivery of a key answers the run that exists instead of
running the function again. Standard library only.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections import OrderedDict
from typing import Any, Callable, List, Optional


class Cancelled(Exception):
    """Raised inside the endpoint's function when its job is cancelled or runs out of time.

    It is raised by ``job.progress(...)`` and ``job.check()``; an ``async`` function also sees
    ``asyncio.CancelledError`` at its next ``await``. Let it propagate (clean up in ``finally``).
    """


class Busy(Exception):
    """Every run slot of the container is taken (answered 409)."""


PROCESSING, SUCCEEDED, FAILED, CANCELLED = "processing", "succeeded", "failed", "cancelled"


class Run:
    """One run of an endpoint, as the status URL reports it."""

    def __init__(self, endpoint: str, key: Optional[str], attempt: Optional[int]):
        self.id = uuid.uuid4().hex
        self.endpoint = endpoint
        self.key = key
        self.attempts = [attempt] if attempt is not None else []
        self.status = PROCESSING
        self.progress = 0.0
        self.message: Optional[str] = None
        self.output: Any = None
        self.error: Optional[str] = None
        self.created_at = time.time()
        self.finished_at: Optional[float] = None
        self.cancel_reason: Optional[str] = None
        # Ended (cancelled, out of time) while the function's thread still runs: the run has its
        # answer, but its slot stays taken until the work really stops (docs/publishing.md, "Cancel").
        self.stopping = False
        self._done = threading.Event()
        self._on_cancel: list = []
        # Set by App when the run starts: its waiters on the server's event loop wait on it.
        self.finished_event: Optional[asyncio.Event] = None

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: Optional[float]) -> bool:
        return self._done.wait(timeout)

    def finish(self, status: str, output: Any = None, error: Optional[str] = None) -> None:
        if self.done:
            return
        if status == SUCCEEDED:
            self.progress = 1.0
        self.status, self.output, self.error = status, output, error
        self.finished_at = time.time()
        self._done.set()

    def cancel(self, reason: str) -> None:
        """Asks the function to stop: the next progress()/check() raises Cancelled."""
        if self.done or self.cancel_reason:
            return
        self.cancel_reason = reason
        for callback in self._on_cancel:
            callback()

    def on_cancel(self, callback: Callable[[], object]) -> None:
        self._on_cancel.append(callback)


class Job:
    """What an endpoint's function receives in a parameter typed ``Job``.

    ``job.progress(0.5, "halfway")`` reaches the platform's job (its progress and message);
    it raises ``Cancelled`` once the job is cancelled, as ``job.check()`` does.
    """

    def __init__(self, run: Run):
        self._run = run

    @property
    def id(self) -> str:
        """The delivery's Idempotency-Key (the platform's job id) when it sent one, else the local run id."""
        return self._run.key or self._run.id

    @property
    def attempt(self) -> int:
        """The platform's delivery attempt (Limelight-Attempt), 1 when it sent none."""
        return self._run.attempts[0] if self._run.attempts else 1

    @property
    def cancelled(self) -> bool:
        return self._run.cancel_reason is not None

    def check(self) -> None:
        """Raises Cancelled when the job was cancelled or ran out of time."""
        if self._run.cancel_reason is not None:
            raise Cancelled(self._run.cancel_reason)

    def progress(self, fraction: float, message: Optional[str] = None) -> None:
        """Reports progress (0 to 1) and an optional message, then checks for a cancel."""
        if not isinstance(fraction, (int, float)) or not 0 <= fraction <= 1:
            raise ValueError(f"progress is a fraction between 0 and 1, got {fraction!r}")
        self._run.progress = float(fraction)
        if message is not None:
            self._run.message = str(message)
        self.check()


class RunTable:
    """The container's runs: a concurrency limit, lookup by id and by Idempotency-Key, bounded memory."""

    def __init__(self, limit: int, keep_s: float = 3600, keep_max: int = 1000):
        if limit < 1:
            raise ValueError("concurrency is at least 1")
        self.limit = limit
        self.keep_s = keep_s
        self.keep_max = keep_max
        self._runs: OrderedDict[str, Run] = OrderedDict()
        self._by_key: dict = {}
        self._lock = threading.Lock()

    @property
    def active(self) -> int:
        """Runs that take a slot: those still going, and ended ones whose function has not stopped."""
        return sum(1 for run in self._runs.values() if not run.done or run.stopping)

    @property
    def stopping(self) -> List[Run]:
        return [run for run in self._runs.values() if run.stopping]

    def all(self) -> List[Run]:
        return list(self._runs.values())

    def get(self, run_id: str) -> Optional[Run]:
        return self._runs.get(run_id)

    def for_key(self, key: Optional[str], attempt: Optional[int]) -> Optional[Run]:
        """The run an earlier delivery of this key started, noting the new attempt."""
        run = self._runs.get(self._by_key.get(key, "")) if key else None
        if run is not None and attempt is not None:
            run.attempts.append(attempt)
        return run

    def start(self, endpoint: str, key: Optional[str], attempt: Optional[int]) -> Run:
        """A new run in a free slot; Busy when every slot is taken."""
        with self._lock:
            self._forget_old()
            active = self.active
            if active >= self.limit:
                raise Busy(f"the container is busy: {active} of {self.limit} run slots are taken; retry later")
            run = Run(endpoint, key, attempt)
            self._runs[run.id] = run
            if key:
                self._by_key[key] = run.id
            return run

    def _forget_old(self) -> None:
        now = time.time()
        finished = [run for run in self._runs.values() if run.done and not run.stopping]
        excess = len(self._runs) - self.keep_max
        for run in finished:
            if excess <= 0 and now - (run.finished_at or now) < self.keep_s:
                continue
            excess -= 1
            del self._runs[run.id]
            if run.key and self._by_key.get(run.key) == run.id:
                del self._by_key[run.key]

    def forget_key(self, run: Run) -> None:
        """A later delivery of this run's key starts a new run (the caller abandoned this one)."""
        if run.key and self._by_key.get(run.key) == run.id:
            del self._by_key[run.key]
