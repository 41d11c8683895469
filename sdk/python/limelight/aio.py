"""AsyncClient: the client for asyncio code, standard library only (docs/sdk.md, "Async").

    async with limelight.AsyncClient() as client:
        outputs = await asyncio.gather(*(client.run("lime-chat-8b", input={"prompt": p}) for p in prompts))

Each call runs the blocking client in a worker thread (``asyncio.to_thread``), so the event loop
never waits on the network and calls run side by side; the SDK keeps its promise of no
dependency. Callbacks (``on_job``, ``on_event``, ``on_log``) are called on the event loop's
thread. Cancelling a task stops waiting for it at once; a request already in flight in its
thread ends by itself (every request has a timeout), and the job goes on as with JobTimeoutError."""

from __future__ import annotations

import asyncio
import functools
import threading
from typing import Any, AsyncIterator, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, TypeVar

from .client import Client, OnEvent, OnJob, OnLog
from .files import FileInput
from .models import FileRef, Job, JobEstimate, JobEvent, JobList, LogLine, WebhookEventType
from .output import as_async

T = TypeVar("T")
_DONE = object()


class AsyncClient:
    """``AsyncClient(base_url=..., api_key=...)``: the same arguments, defaults and errors as
    ``Client``, with coroutines and async iterators."""

    def __init__(self, base_url: Optional[str] = None, api_key: Optional[str] = None, **options: Any) -> None:
        self.sync = Client(base_url, api_key, **options)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    @property
    def base_url(self) -> str:
        return self.sync.base_url

    async def _call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(functools.partial(function, *args, **kwargs))

    async def run(
        self,
        service_id: str,
        input: Optional[Mapping[str, Any]] = None,
        endpoint: Optional[str] = None,
        *,
        timeout: Optional[float] = 600.0,
        webhook: Optional[str] = None,
        webhook_events_filter: Optional[Sequence[WebhookEventType]] = None,
        wait: Optional[float] = None,
        idempotency_key: Optional[str] = None,
        on_job: Optional[OnJob] = None,
        on_event: Optional[OnEvent] = None,
        on_log: Optional[OnLog] = None,
        cancel_on_abort: bool = False,
    ) -> Any:
        """See ``Client.run``; its files are AsyncFileOutput objects (``await read()``).
        ``cancel_on_abort=True`` cancels the job on the server when the task is cancelled (or the
        timeout passes) before the job ends."""
        loop = asyncio.get_running_loop()
        started: Dict[str, str] = {}
        abandoned = threading.Event()

        def job_started(job: Job) -> None:
            # In the worker thread: a task cancelled before the job existed cancels it here.
            started["job_id"] = job["job_id"]
            if abandoned.is_set():
                self.sync._abandon(job["job_id"], asyncio.CancelledError())
                raise asyncio.CancelledError()
            if on_job:
                loop.call_soon_threadsafe(on_job, job)

        try:
            result = await self._call(
                self.sync.run,
                service_id,
                input,
                endpoint,
                timeout=timeout,
                webhook=webhook,
                webhook_events_filter=webhook_events_filter,
                wait=wait,
                idempotency_key=idempotency_key,
                on_job=job_started,
                on_event=_on_loop(loop, on_event),
                on_log=_on_loop(loop, on_log),
                cancel_on_abort=cancel_on_abort,
            )
        except asyncio.CancelledError as cancelled:
            if cancel_on_abort:
                abandoned.set()
                if "job_id" in started:
                    await asyncio.to_thread(self.sync._abandon, started["job_id"], cancelled)
            raise
        return as_async(result)

    async def submit(
        self, service_id: str, input: Optional[Mapping[str, Any]] = None, endpoint: Optional[str] = None, **options: Any
    ) -> Job:
        """See ``Client.submit``."""
        return await self._call(self.sync.submit, service_id, input, endpoint, **options)

    async def get(self, job_id: str) -> Job:
        return await self._call(self.sync.get, job_id)

    async def cancel(self, job_id: str) -> Job:
        return await self._call(self.sync.cancel, job_id)

    async def logs(self, job_id: str) -> List[LogLine]:
        return await self._call(self.sync.logs, job_id)

    async def estimate(self, service_id: str, endpoint: Optional[str] = None) -> JobEstimate:
        return await self._call(self.sync.estimate, service_id, endpoint)

    async def upload(self, file: FileInput, **options: Any) -> FileRef:
        return await self._call(self.sync.upload, file, **options)

    async def webhook_secret(self) -> str:
        return await self._call(self.sync.webhook_secret)

    async def openapi(self, service_id: str) -> Dict[str, Any]:
        return await self._call(self.sync.openapi, service_id)

    async def wait(self, job: Job, **options: Any) -> Job:
        """See ``Client.wait`` (``deadline`` is a ``time.monotonic()`` instant)."""
        loop = asyncio.get_running_loop()
        for name in ("on_event", "on_log"):
            options[name] = _on_loop(loop, options.get(name))
        return await self._call(self.sync.wait, job, **options)

    def pages(self, service_id: Optional[str] = None, **options: Any) -> AsyncIterator[JobList]:
        """See ``Client.pages``: ``async for page in client.pages(cursor=...)``."""
        return _iterate(lambda: self.sync.pages(service_id, **options))

    def list(self, service_id: Optional[str] = None, **options: Any) -> AsyncIterator[Job]:
        """See ``Client.list``: ``async for job in client.list()``."""
        return _iterate(lambda: self.sync.list(service_id, **options))

    def stream(self, job_id: str, **options: Any) -> AsyncIterator[JobEvent]:
        """See ``Client.stream``: ``async for event in client.stream(job_id, on_log=...)``."""
        return _Stream(self.sync, job_id, options)


def _on_loop(
    loop: asyncio.AbstractEventLoop, callback: Optional[Callable[[Any], Any]]
) -> Optional[Callable[[Any], Any]]:
    """The callback, called on the loop's thread rather than the worker's."""
    if callback is None:
        return None
    return lambda value: loop.call_soon_threadsafe(callback, value)


async def _iterate(make: Callable[[], Iterator[T]]) -> AsyncIterator[T]:
    """A blocking iterator's items, each fetched in a worker thread."""
    iterator = await asyncio.to_thread(make)
    while True:
        item = await asyncio.to_thread(next, iterator, _DONE)
        if item is _DONE:
            return
        yield item  # type: ignore[misc]


class _Stream:
    """A job's stream read by one worker thread that hands each event (and log line) to the loop,
    so the stream's one connection stays open between events. Leaving the ``async for`` early
    stops the thread at the next event."""

    def __init__(self, client: Client, job_id: str, options: Dict[str, Any]) -> None:
        self._client, self._job_id, self._options = client, job_id, options
        self._queue: Optional[asyncio.Queue] = None
        self._stop = threading.Event()

    def __aiter__(self) -> _Stream:
        return self

    async def __anext__(self) -> JobEvent:
        if self._queue is None:
            self._start(asyncio.get_running_loop())
        assert self._queue is not None
        kind, value = await self._queue.get()
        if kind == "event":
            return value
        self._stop.set()
        if kind == "error":
            raise value
        raise StopAsyncIteration

    async def aclose(self) -> None:
        self._stop.set()

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        queue: asyncio.Queue = asyncio.Queue()
        self._queue = queue
        options = dict(self._options)
        options["on_log"] = _on_loop(loop, options.get("on_log"))

        def put(kind: str, value: Any) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(queue.put_nowait, (kind, value))

        def pump() -> None:
            try:
                for event in self._client.stream(self._job_id, **options):
                    if self._stop.is_set():
                        return
                    put("event", event)
                put("end", None)
            except BaseException as error:  # handed to the awaiting task
                put("error", error)

        threading.Thread(target=pump, name=f"limelight-stream-{self._job_id}", daemon=True).start()
