"""AsyncClient: the client for asyncio code (docs/sdk.md, "Async Python").

    async with limelight.AsyncClient() as client:
        outputs = await asyncio.gather(*(client.run("lime-chat-8b", input={"prompt": p}) for p in prompts))

With httpx installed (the optional extra ``limelight[async]``; Debian: python3-httpx) the calls are
native asyncio (``client.transport == "httpx"``): the requests are awaited on the event loop, so
cancelling a task cancels its request at once, and the rules of the sync client (retries with one
Idempotency-Key, deadlines, credentials only to the base URL's origin, stream resumption) are the
same code: the flows of _core.py, which the sync client drives too, and the decisions of
_http.py and _sse.py. Without httpx the package keeps its promise of no
dependency: each call runs the blocking client in a worker thread (``asyncio.to_thread``,
``client.transport == "threads"``); cancelling a task then stops waiting for it at once, but a
request already in flight in its thread ends by itself (every request has a timeout) and
``asyncio.run()`` waits for that thread. Callbacks (``on_job``, ``on_event``, ``on_log``) are
called on the event loop's thread either way. ``cancel_on_abort=True`` cancels the job on the
server when the task is cancelled, with either transport."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from typing import (
    Any,
    AsyncGenerator,
    AsyncIterator,
    Callable,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    TypeVar,
)

from . import _core
from ._sse import STREAM_READ_TIMEOUT_S
from .client import Client, OnEvent, OnJob, OnLog
from .errors import JobTimeoutError
from .files import FileInput, read_file
from .models import FileRef, Job, JobEstimate, JobEvent, JobList, LogLine, WebhookEventType
from .output import AsyncFileOutput, as_async, with_file_outputs

try:  # the optional extra limelight[async]
    from . import _ahttp
except ImportError:  # no httpx: the threads carry the calls
    _ahttp = None

T = TypeVar("T")
_DONE = object()
#: What stops a run's wait on the caller's side (``cancel_on_abort`` then cancels the job).
_ABORTS = (JobTimeoutError, KeyboardInterrupt, asyncio.CancelledError)


class AsyncClient:
    """``AsyncClient(base_url=..., api_key=...)``: the same arguments, defaults and errors as
    ``Client``, with coroutines and async iterators. ``transport="threads"`` uses the worker
    threads even when httpx is installed; ``transport`` tells which is in use."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        transport: Optional[str] = None,
        **options: Any,
    ) -> None:
        if transport not in (None, "httpx", "threads"):
            raise ValueError(f'transport is "httpx" or "threads", not {transport!r}')
        if transport == "httpx" and _ahttp is None:
            raise ImportError('transport="httpx" needs httpx: pip install "limelight[async]" (Debian: python3-httpx)')
        self.sync = Client(base_url, api_key, **options)
        #: "httpx" (native asyncio) or "threads" (the sync client in worker threads).
        self.transport: str = "threads" if transport == "threads" or _ahttp is None else "httpx"
        self._http = (
            _ahttp.AsyncTransport(self.sync._http) if _ahttp is not None and self.transport == "httpx" else None
        )

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Closes the connections kept open for the next calls (``async with`` does it)."""
        if self._http is not None:
            await self._http.aclose()

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
        options: Dict[str, Any] = dict(
            timeout=timeout,
            webhook=webhook,
            webhook_events_filter=webhook_events_filter,
            wait=wait,
            idempotency_key=idempotency_key,
            on_job=on_job,
            on_event=on_event,
            on_log=on_log,
            cancel_on_abort=cancel_on_abort,
        )
        if self._http is None:
            return await self._run_in_thread(service_id, input, endpoint, **options)
        result = await self._run(
            _core.run(self.sync._settings(), service_id, input, endpoint, aborts=_ABORTS, **options)
        )
        return self.file_outputs(result)

    def file_outputs(self, result: Any) -> Any:
        """A job's result with every ``{url, content_type, size}`` made an AsyncFileOutput."""
        if self._http is None or not self.sync._use_file_output:
            return as_async(self.sync.file_outputs(result))
        http = self._http
        return with_file_outputs(
            result,
            lambda ref: AsyncFileOutput(
                ref, self.sync._open_file, lambda url: http.open("GET", url, headers={"Accept": "*/*"})
            ),
        )

    async def submit(
        self,
        service_id: str,
        input: Optional[Mapping[str, Any]] = None,
        endpoint: Optional[str] = None,
        *,
        webhook: Optional[str] = None,
        webhook_events_filter: Optional[Sequence[WebhookEventType]] = None,
        wait: Optional[float] = None,
        idempotency_key: Optional[str] = None,
        deadline: Optional[float] = None,
    ) -> Job:
        """See ``Client.submit``."""
        options: Dict[str, Any] = dict(
            webhook=webhook,
            webhook_events_filter=webhook_events_filter,
            wait=wait,
            idempotency_key=idempotency_key,
            deadline=deadline,
        )
        if self._http is None:
            return await self._call(self.sync.submit, service_id, input, endpoint, **options)
        return await self._run(_core.submit(self.sync._settings(), service_id, input, endpoint, **options))

    async def get(self, job_id: str) -> Job:
        if self._http is None:
            return await self._call(self.sync.get, job_id)
        return await self._run(_core.get(job_id))

    async def cancel(self, job_id: str) -> Job:
        if self._http is None:
            return await self._call(self.sync.cancel, job_id)
        return await self._run(_core.cancel(job_id))

    async def logs(self, job_id: str) -> List[LogLine]:
        return list((await self.get(job_id)).get("logs") or [])  # type: ignore[call-overload]

    async def estimate(self, service_id: str, endpoint: Optional[str] = None) -> JobEstimate:
        if self._http is None:
            return await self._call(self.sync.estimate, service_id, endpoint)
        return await self._run(_core.estimate(service_id, endpoint))

    async def upload(
        self, file: FileInput, *, content_type: Optional[str] = None, filename: Optional[str] = None
    ) -> FileRef:
        if self._http is None:
            return await self._call(self.sync.upload, file, content_type=content_type, filename=filename)
        return await self._run(_core.upload(file, content_type, filename))

    async def webhook_secret(self) -> str:
        if self._http is None:
            return await self._call(self.sync.webhook_secret)
        return await self._run(_core.webhook_secret())

    async def openapi(self, service_id: str) -> Dict[str, Any]:
        if self._http is None:
            return await self._call(self.sync.openapi, service_id)
        return await self._run(_core.openapi(service_id))

    async def wait(
        self,
        job: Job,
        *,
        deadline: Optional[float] = None,
        on_event: Optional[OnEvent] = None,
        on_log: Optional[OnLog] = None,
    ) -> Job:
        """See ``Client.wait`` (``deadline`` is a ``time.monotonic()`` instant)."""
        if self._http is None:
            loop = asyncio.get_running_loop()
            return await self._call(
                self.sync.wait, job, deadline=deadline, on_event=_on_loop(loop, on_event), on_log=_on_loop(loop, on_log)
            )
        return await self._run(
            _core.wait_for(self.sync._settings(), job, deadline=deadline, on_event=on_event, on_log=on_log)
        )

    def pages(
        self, service_id: Optional[str] = None, *, page_size: int = 20, cursor: Optional[str] = None
    ) -> AsyncIterator[JobList]:
        """See ``Client.pages``: ``async for page in client.pages(cursor=...)``."""
        if self._http is None:
            return _iterate(lambda: self.sync.pages(service_id, page_size=page_size, cursor=cursor))
        return self._drive(_core.Driving(_core.pages(service_id, page_size, cursor)))

    async def list(
        self, service_id: Optional[str] = None, *, page_size: int = 20, cursor: Optional[str] = None
    ) -> AsyncIterator[Job]:
        """See ``Client.list``: ``async for job in client.list()``."""
        async for page in self.pages(service_id, page_size=page_size, cursor=cursor):
            for job in page["jobs"]:
                yield job

    def stream(
        self,
        job_id: str,
        *,
        last_event_id: Optional[str] = None,
        deadline: Optional[float] = None,
        on_log: Optional[OnLog] = None,
    ) -> AsyncIterator[JobEvent]:
        """See ``Client.stream``: ``async for event in client.stream(job_id, on_log=...)``."""
        if self._http is None:
            return _Stream(self.sync, job_id, {"last_event_id": last_event_id, "deadline": deadline, "on_log": on_log})
        flow = _core.stream(self.sync._settings(), job_id, last_event_id, deadline, on_log)
        return self._drive(_core.Driving(flow))

    # -- the driver: the I/O the flows of _core.py ask for, awaited on the event loop (httpx) ------

    async def _run(self, flow: _core.Flow[T]) -> T:
        """A flow that emits nothing, driven to its value."""
        driving = _core.Driving(flow)
        async for _ in self._drive(driving):
            raise TypeError("a flow emitted outside an iteration")
        return driving.value

    async def _drive(self, driving: _core.Driving) -> AsyncIterator[Any]:
        """Does each operation the flow asks for and yields what it emits; an operation's failure
        (a cancelled task's CancelledError included) is the flow's to handle."""
        with contextlib.closing(driving):
            async with _Connection() as connection:
                for operation in driving:
                    if isinstance(operation, _core.Emit):
                        yield operation.value
                        continue
                    try:
                        driving.answer(await self._do(operation, connection))
                    except BaseException as error:  # noqa: BLE001 - handed to the flow, which decides
                        driving.fail(error)

    async def _do(self, operation: _core.Operation, connection: _Connection) -> Any:
        assert self._http is not None and _ahttp is not None
        if isinstance(operation, _core.Call):
            return await self._http.request(**vars(operation))
        if isinstance(operation, _core.Pause):
            return await asyncio.sleep(operation.seconds)
        if isinstance(operation, _core.ReadFile):
            # Reading a path or a file object blocks: in a worker thread, off the event loop.
            return await asyncio.to_thread(read_file, operation.file, operation.content_type, operation.filename)
        if isinstance(operation, _core.Connect):
            opening = self._http.open(
                "GET",
                operation.path,
                headers=operation.headers,
                timeout=STREAM_READ_TIMEOUT_S,
                deadline=operation.deadline,
            )
            read_lines, deadline = _ahttp.read_lines, operation.deadline
            return await connection.open(
                opening, lambda response: read_lines(response, deadline, STREAM_READ_TIMEOUT_S)
            )
        if isinstance(operation, _core.NextLine):
            return await connection.next_line()
        raise TypeError(f"not an operation: {operation!r}")

    async def _run_in_thread(self, service_id: str, input: Any, endpoint: Any, **options: Any) -> Any:
        """``run`` by the sync client in a worker thread (no httpx). A cancelled task stops
        waiting at once; with ``cancel_on_abort`` its job is cancelled, by this task when the job
        exists already, else by the thread as soon as it does."""
        loop = asyncio.get_running_loop()
        on_job: Optional[OnJob] = options.pop("on_job")
        started: Dict[str, str] = {}
        abandoned_by_task = threading.Event()

        def job_started(job: Job) -> None:
            started["job_id"] = job["job_id"]
            if abandoned_by_task.is_set():  # the task was cancelled before the job existed
                self.sync._abandon(job["job_id"], asyncio.CancelledError())
                raise asyncio.CancelledError()
            if on_job:
                loop.call_soon_threadsafe(on_job, job)

        options["on_event"] = _on_loop(loop, options.get("on_event"))
        options["on_log"] = _on_loop(loop, options.get("on_log"))
        try:
            result = await self._call(self.sync.run, service_id, input, endpoint, on_job=job_started, **options)
        except asyncio.CancelledError as cancelled:
            if options["cancel_on_abort"]:
                abandoned_by_task.set()
                if "job_id" in started:
                    await asyncio.to_thread(self.sync._abandon, started["job_id"], cancelled)
            raise
        return as_async(result)


class _Connection:
    """The job stream a flow has open (``Connect``), read a line at a time (``NextLine``); closed
    when it ends or fails, when another is opened and when the flow ends (``Client``'s, awaited)."""

    def __init__(self) -> None:
        self._open: Optional[contextlib.AsyncExitStack] = None
        self._lines: Optional[AsyncIterator[str]] = None

    async def __aenter__(self) -> _Connection:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def open(self, opening: Any, read: Callable[[Any], AsyncGenerator[str, None]]) -> None:
        await self.close()
        stack = contextlib.AsyncExitStack()
        response = await stack.enter_async_context(opening)
        lines = read(response)
        stack.push_async_callback(lines.aclose)
        self._open, self._lines = stack, lines

    async def next_line(self) -> Optional[str]:
        assert self._lines is not None
        try:
            return await self._lines.__anext__()
        except StopAsyncIteration:
            await self.close()
            return None
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        stack, self._open, self._lines = self._open, None, None
        if stack is not None:
            await stack.aclose()


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
