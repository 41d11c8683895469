"""AsyncClient: the client for asyncio code (docs/sdk.md, "Async Python").

    async with limelight.AsyncClient() as client:
        outputs = await asyncio.gather(*(client.run("lime-chat-8b", input={"prompt": p}) for p in prompts))

With httpx installed (the optional extra ``limelight[async]``; Debian: python3-httpx) the calls are
native asyncio (``client.transport == "httpx"``): the requests are awaited on the event loop, so
cancelling a task cancels its request at once, and the rules of the sync client (retries with one
Idempotency-Key, deadlines, credentials only to the base URL's origin, stream resumption) are the
same functions (_http.py, _sse.py, client.py). Without httpx the package keeps its promise of no
dependency: each call runs the blocking client in a worker thread (``asyncio.to_thread``,
``client.transport == "threads"``); cancelling a task then stops waiting for it at once, but a
request already in flight in its thread ends by itself (every request has a timeout) and
``asyncio.run()`` waits for that thread. Callbacks (``on_job``, ``on_event``, ``on_log``) are
called on the event loop's thread either way. ``cancel_on_abort=True`` cancels the job on the
server when the task is cancelled, with either transport."""

from __future__ import annotations

import asyncio
import functools
import threading
import time
import uuid
from typing import Any, AsyncIterator, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, TypeVar

from ._http import DeadlineExceeded
from ._rules import MAX_PREFER_WAIT_S
from ._sse import STREAM_READ_TIMEOUT_S, SseParser, StreamFollower
from .client import (
    CANCEL_TIMEOUT_S,
    REPLAY_TIMEOUT_S,
    Client,
    OnEvent,
    OnJob,
    OnLog,
    abandoned,
    estimate_path,
    file_fields,
    files_in,
    has_path_strings,
    job_path,
    jobs_page_path,
    openapi_path,
    pause_fits,
    put_url,
    replay_timeout,
    still_running,
    stream_path,
    submission_headers,
    submission_wait,
)
from .errors import APIError, ConnectionFailedError, JobFailedError, JobTimeoutError
from .files import FileInput, multipart, read_file
from .models import FileRef, Job, JobEstimate, JobEvent, JobList, LogLine, WebhookEventType, is_final
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
        if self._http is None:
            return await self._run_in_thread(
                service_id,
                input,
                endpoint,
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
        deadline = None if timeout is None else time.monotonic() + timeout
        if wait is None:
            wait = 0 if (on_job or on_event or on_log) else MAX_PREFER_WAIT_S
        key = idempotency_key or str(uuid.uuid4())
        try:
            job = await self._submit_within(
                deadline,
                service_id,
                input,
                endpoint,
                webhook=webhook,
                webhook_events_filter=webhook_events_filter,
                wait=wait,
                idempotency_key=key,
            )
        except _ABORTS as error:
            if not cancel_on_abort:
                raise
            if isinstance(error, JobTimeoutError):
                job_id = error.job_id
            else:
                body = Client._job_body(
                    service_id, input, endpoint, webhook=webhook, webhook_events_filter=webhook_events_filter
                )
                job_id = await self._job_of_key(key, body)
            stopped = await self._abandon(job_id, error)
            if stopped is error:
                raise
            raise stopped from error
        try:
            if on_job:
                on_job(job)
            job = await self.wait(job, deadline=deadline, on_event=on_event, on_log=on_log)
        except (ConnectionFailedError, APIError) as error:
            error.job_id = error.job_id or job["job_id"]
            raise
        except _ABORTS as error:
            if not cancel_on_abort:
                raise
            stopped = await self._abandon(job["job_id"], error)
            if stopped is error:
                raise
            raise stopped from error
        if job["status"] != "FINISHED":
            raise JobFailedError(job)
        return self.file_outputs(job["result"])

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

    async def _abandon(self, job_id: Optional[str], error: BaseException) -> BaseException:
        """``Client._abandon``, awaited."""
        assert self._http is not None
        failure: Optional[BaseException] = None
        if job_id is not None:
            try:
                await self._http.request(
                    "POST",
                    job_path(job_id, "/cancel"),
                    timeout=CANCEL_TIMEOUT_S,
                    deadline=time.monotonic() + CANCEL_TIMEOUT_S,
                )
            except Exception as cancel_error:  # noqa: BLE001 - whatever it is, it must not hide the abort
                failure = cancel_error
        return abandoned(job_id, error, failure)

    async def _job_of_key(self, idempotency_key: str, body: Mapping[str, Any]) -> Optional[str]:
        """``Client._job_of_key``, awaited."""
        assert self._http is not None
        try:
            answer = await self._http.request(
                "POST",
                "/v1/jobs",
                json_body=body,
                headers={"Idempotency-Key": idempotency_key},
                timeout=REPLAY_TIMEOUT_S,
                deadline=time.monotonic() + REPLAY_TIMEOUT_S,
            )
        except APIError as error:
            return error.job_id
        except Exception:  # noqa: BLE001 - no job found; the interruption is raised as it is
            return None
        return answer.body.get("job_id") if isinstance(answer.body, dict) else None

    async def _submit_within(
        self,
        deadline: Optional[float],
        service_id: str,
        input: Optional[Mapping[str, Any]],
        endpoint: Optional[str],
        *,
        idempotency_key: str,
        wait: float,
        **options: Any,
    ) -> Job:
        """``Client._submit_within``, awaited."""
        assert self._http is not None
        wait, deadline = submission_wait(wait, deadline)
        # As in Client._submit_within: files first, so a replay sends the same JSON body.
        input = await self._upload_files(service_id, endpoint, dict(input or {}))
        try:
            return await self.submit(
                service_id, input, endpoint, wait=wait, idempotency_key=idempotency_key, deadline=deadline, **options
            )
        except DeadlineExceeded as error:
            cause: BaseException = error
        body = Client._job_body(service_id, input, endpoint, **options)
        try:
            replay = await self._http.request(
                "POST",
                "/v1/jobs",
                json_body=body,
                headers={"Idempotency-Key": idempotency_key},
                timeout=REPLAY_TIMEOUT_S,
            )
        except (ConnectionFailedError, APIError):
            raise JobTimeoutError("timed out before the server answered the submission") from cause
        job: Job = replay.body
        if replay.status == 201:
            await self.cancel(job["job_id"])
        raise replay_timeout(replay.status, job) from cause

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
        values = await self._upload_files(service_id, endpoint, dict(input or {}))
        body = Client._job_body(
            service_id, values, endpoint, webhook=webhook, webhook_events_filter=webhook_events_filter
        )
        headers, request_timeout = submission_headers(idempotency_key, wait, self._http.timeout)
        answer = await self._http.request(
            "POST", "/v1/jobs", json_body=body, headers=headers, timeout=request_timeout, deadline=deadline
        )
        return answer.body

    async def _upload_files(self, service_id: str, endpoint: Optional[str], values: Dict[str, Any]) -> Dict[str, Any]:
        """``values`` with each file uploaded and replaced by its URL (``Client._upload_files``)."""
        fields = await self._file_fields_of(service_id, endpoint) if has_path_strings(values) else frozenset()
        for name, index, value in files_in(values, fields):
            put_url(values, name, index, (await self.upload(value))["url"])
        return values

    async def _file_fields_of(self, service_id: str, endpoint: Optional[str]) -> frozenset:
        key = (service_id, endpoint)
        if key not in self.sync._file_fields:
            self.sync._file_fields[key] = file_fields(await self.openapi(service_id), endpoint)
        return self.sync._file_fields[key]

    async def _get(self, path: str, deadline: Optional[float] = None) -> Any:
        assert self._http is not None
        return (await self._http.request("GET", path, deadline=deadline)).body

    async def get(self, job_id: str) -> Job:
        if self._http is None:
            return await self._call(self.sync.get, job_id)
        return await self._get(job_path(job_id))

    async def cancel(self, job_id: str) -> Job:
        if self._http is None:
            return await self._call(self.sync.cancel, job_id)
        return (await self._http.request("POST", job_path(job_id, "/cancel"))).body

    async def logs(self, job_id: str) -> List[LogLine]:
        return list((await self.get(job_id)).get("logs") or [])  # type: ignore[call-overload]

    async def estimate(self, service_id: str, endpoint: Optional[str] = None) -> JobEstimate:
        if self._http is None:
            return await self._call(self.sync.estimate, service_id, endpoint)
        return await self._get(estimate_path(service_id, endpoint))

    async def upload(
        self, file: FileInput, *, content_type: Optional[str] = None, filename: Optional[str] = None
    ) -> FileRef:
        if self._http is None:
            return await self._call(self.sync.upload, file, content_type=content_type, filename=filename)
        # Reading a path or a file object blocks: in a worker thread, off the event loop.
        data, content_type, filename = await asyncio.to_thread(read_file, file, content_type, filename)
        body, form_type = multipart(data, content_type, filename)
        return (await self._http.request("POST", "/v1/files", body=body, headers={"Content-Type": form_type})).body

    async def webhook_secret(self) -> str:
        if self._http is None:
            return await self._call(self.sync.webhook_secret)
        return (await self._get("/v1/jobs/webhook-secret"))["secret"]

    async def openapi(self, service_id: str) -> Dict[str, Any]:
        if self._http is None:
            return await self._call(self.sync.openapi, service_id)
        return await self._get(openapi_path(service_id))

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
        while not is_final(job):
            async for event in self.stream(job["job_id"], deadline=deadline, on_log=on_log):
                job = event.job
                if on_event:
                    on_event(event)
            if not is_final(job):
                try:
                    job = await self._get(job_path(job["job_id"]), deadline)
                except DeadlineExceeded as error:
                    raise still_running(job["job_id"]) from error
        return job

    def pages(
        self, service_id: Optional[str] = None, *, page_size: int = 20, cursor: Optional[str] = None
    ) -> AsyncIterator[JobList]:
        """See ``Client.pages``: ``async for page in client.pages(cursor=...)``."""
        if self._http is None:
            return _iterate(lambda: self.sync.pages(service_id, page_size=page_size, cursor=cursor))
        return self._pages(service_id, page_size, cursor)

    async def _pages(self, service_id: Optional[str], page_size: int, cursor: Optional[str]) -> AsyncIterator[JobList]:
        while True:
            page: JobList = await self._get(jobs_page_path(service_id, page_size, cursor))
            yield page
            cursor = page.get("next_cursor")
            if not cursor:
                return

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
        options = {"last_event_id": last_event_id, "deadline": deadline, "on_log": on_log}
        if self._http is None:
            return _Stream(self.sync, job_id, options)
        return self._stream(job_id, last_event_id, deadline, on_log)

    async def _stream(
        self, job_id: str, last_event_id: Optional[str], deadline: Optional[float], on_log: Optional[OnLog]
    ) -> AsyncIterator[JobEvent]:
        """``Client.stream`` with the same follower, read on the event loop."""
        assert self._http is not None and _ahttp is not None
        follower = StreamFollower(last_event_id, on_log)
        while True:
            try:
                async with self._http.open(
                    "GET",
                    stream_path(job_id),
                    headers=follower.headers(),
                    timeout=STREAM_READ_TIMEOUT_S,
                    deadline=deadline,
                ) as response:
                    parser = SseParser()
                    async for line in _ahttp.read_lines(response, deadline, STREAM_READ_TIMEOUT_S):
                        message = parser.feed(line)
                        event = None if message is None else follower.message(message)
                        if event is not None:
                            yield event
                            if follower.stop_after(event):
                                return
                if follower.finished:
                    return
            except DeadlineExceeded as error:
                if follower.finished:
                    return
                raise still_running(job_id) from error
            except (OSError, ConnectionFailedError):
                if follower.finished:
                    return
                if not pause_fits(0, deadline):
                    raise still_running(job_id) from None
                follower.failures += 1
                if follower.failures > self._http.retry.max_retries:
                    raise
            # Ended without a final event (a proxy cut it, the server restarted): resume.
            pause = self._http.retry.delay(follower.failures, None)
            if not pause_fits(pause, deadline):
                raise still_running(job_id)
            await asyncio.sleep(pause)

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
