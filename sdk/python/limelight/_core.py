"""What Client and AsyncClient do, without doing its I/O (docs/sdk.md, "Async Python").

Every call is a flow here: a generator that yields the I/O it needs (``Call`` an API request,
``Pause``, ``ReadFile``, ``Connect`` to a job's stream and ``NextLine`` of it) and is sent back
what came of it, or has the failure thrown in where it yielded; what an iterating call hands to its
caller (a stream's events, the pages of jobs) it yields as ``Emit``. Client does each operation
blocking, AsyncClient awaiting it (httpx drives its auth flows the same way, a sync and an async
driver over one generator), so a rule (a retry, a deadline, how an abort cancels a job, what a
run's body holds) is written once, here, and both clients keep it by construction."""

from __future__ import annotations

import http.client
import time
import uuid
from dataclasses import dataclass
from typing import (
    Any,
    Callable,
    Dict,
    Generator,
    Iterator,
    List,
    Mapping,
    MutableMapping,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Type,
    TypeVar,
    Union,
)
from urllib.parse import quote, urlencode

from ._http import DeadlineExceeded, RetryPolicy, deadline_passed, seconds_left
from ._rules import MAX_PREFER_WAIT_S  # the longest Prefer: wait the server honours
from ._sse import SseParser, StreamFollower
from .errors import APIError, ConnectionFailedError, JobFailedError, JobTimeoutError
from .files import FileInput, is_file_input, is_path_string, multipart
from .models import FileRef, Job, JobEstimate, JobEvent, JobList, WebhookEventType, is_final

T = TypeVar("T")

#: How long finding out whether a timed-out submission created its job may take.
REPLAY_TIMEOUT_S = 10.0
#: How long cancelling a job ``run`` stopped waiting for (``cancel_on_abort``) may take.
CANCEL_TIMEOUT_S = 10.0

# -- the operations a flow asks its driver for ----------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One API request through the client's transport (its retries are the transport's); answered
    with the ``Response``. The fields are ``Transport.request``'s arguments."""

    method: str
    path: str
    json_body: Any = None
    body: Optional[bytes] = None
    headers: Optional[Mapping[str, str]] = None
    timeout: Optional[float] = None
    deadline: Optional[float] = None


@dataclass(frozen=True)
class Pause:
    """Wait ``seconds`` before going on; answered with None."""

    seconds: float


@dataclass(frozen=True)
class ReadFile:
    """Read a file input (``files.read_file``, which blocks); answered with (data, content type,
    file name)."""

    file: FileInput
    content_type: Optional[str]
    filename: Optional[str]


@dataclass(frozen=True)
class Connect:
    """Open a job's event stream (in place of any the flow had open); answered with None. Its
    reads wait no longer than the stream's read timeout and never past ``deadline``."""

    path: str
    headers: Mapping[str, str]
    deadline: Optional[float]


@dataclass(frozen=True)
class NextLine:
    """The open stream's next line, or None at its end; a stream that fails or ends is closed."""


@dataclass(frozen=True)
class Emit:
    """Hand ``value`` to the caller iterating the call (not an I/O: answered with None)."""

    value: Any


Operation = Union[Call, Pause, ReadFile, Connect, NextLine, Emit]
Flow = Generator[Operation, Any, T]


class Driving:
    """A flow being driven: iterating gives the operations it asks for, in order; the driver
    answers each (``answer``) or throws its failure in (``fail``) before taking the next. ``value``
    is what the flow returned, once the iteration ends. Anything the driver catches goes to the
    flow, KeyboardInterrupt and a cancelled task's CancelledError included: the flow decides
    (``run``'s ``cancel_on_abort``)."""

    def __init__(self, flow: Flow[T]) -> None:
        self._flow = flow
        self._answer: Any = None
        self._failure: Optional[BaseException] = None
        self.value: Any = None

    def __iter__(self) -> Iterator[Operation]:
        while True:
            answer, failure = self._answer, self._failure
            self._answer, self._failure = None, None
            try:
                operation = self._flow.send(answer) if failure is None else self._flow.throw(failure)
            except StopIteration as stop:
                self.value = stop.value
                return
            yield operation

    def answer(self, value: Any) -> None:
        self._answer = value

    def fail(self, error: BaseException) -> None:
        self._failure = error

    def close(self) -> None:
        """Ends a flow left half way (its caller stopped iterating)."""
        self._flow.close()


class Settings(NamedTuple):
    """What the flows read of a client: its retry policy (a stream's reconnections), its request
    timeout (a submission waits at least that long) and its endpoints' file inputs, read once per
    client and kept here (``file_fields_of``)."""

    retry: RetryPolicy
    timeout: float
    file_fields: MutableMapping[Tuple[str, Optional[str]], frozenset]


# -- the calls -----------------------------------------------------------------------------------


def run(
    settings: Settings,
    service_id: str,
    input: Optional[Mapping[str, Any]],
    endpoint: Optional[str],
    *,
    timeout: Optional[float],
    webhook: Optional[str],
    webhook_events_filter: Optional[Sequence[WebhookEventType]],
    wait: Optional[float],
    idempotency_key: Optional[str],
    on_job: Optional[Callable[[Job], Any]],
    on_event: Optional[Callable[[JobEvent], Any]],
    on_log: Optional[Callable[[Any], Any]],
    cancel_on_abort: bool,
    aborts: Tuple[Type[BaseException], ...],
) -> Flow[Any]:
    """``Client.run`` up to the finished job's ``result`` (its files are made objects by the
    driver). ``aborts`` are what stops the run's wait on the caller's side: JobTimeoutError and
    KeyboardInterrupt, and for AsyncClient a cancelled task; with ``cancel_on_abort`` the job is
    cancelled on the server, and the error raised as ever, with the job's id."""
    deadline = None if timeout is None else time.monotonic() + timeout
    if wait is None:
        wait = 0 if (on_job or on_event or on_log) else MAX_PREFER_WAIT_S
    key = idempotency_key or str(uuid.uuid4())
    hooks: Dict[str, Any] = {"webhook": webhook, "webhook_events_filter": webhook_events_filter}
    try:
        job = yield from submit_within(
            settings, deadline, service_id, input, endpoint, wait=wait, idempotency_key=key, **hooks
        )
    except aborts as error:
        if not cancel_on_abort:
            raise
        # Interrupted before the answer: replaying the key finds the job, if there is one.
        if isinstance(error, JobTimeoutError):
            job_id = error.job_id
        else:
            job_id = yield from job_of_key(key, job_body(service_id, input, endpoint, **hooks))
        stopped = yield from abandon(job_id, error)
        if stopped is error:
            raise
        raise stopped from error
    try:
        if on_job:
            on_job(job)
        job = yield from wait_for(settings, job, deadline=deadline, on_event=on_event, on_log=on_log)
    except (ConnectionFailedError, APIError) as error:
        # The job exists; whoever catches this must be able to fetch it.
        error.job_id = error.job_id or job["job_id"]
        raise
    except aborts as error:
        if not cancel_on_abort:
            raise
        stopped = yield from abandon(job["job_id"], error)
        if stopped is error:
            raise
        raise stopped from error
    if job["status"] != "FINISHED":
        raise JobFailedError(job)
    return job["result"]


def abandon(job_id: Optional[str], error: BaseException) -> Flow[BaseException]:
    """Cancels the job a run stopped waiting for (``cancel_on_abort``) and answers the error to
    raise: a timeout's message says what became of the job; a failed cancel never hides the
    interruption (it is noted on it, and the job goes on)."""
    failure: Optional[BaseException] = None
    if job_id is not None:
        try:
            yield Call(
                "POST",
                job_path(job_id, "/cancel"),
                timeout=CANCEL_TIMEOUT_S,
                deadline=time.monotonic() + CANCEL_TIMEOUT_S,
            )
        except Exception as cancel_error:  # noqa: BLE001 - whatever it is, it must not hide the abort
            failure = cancel_error
    return abandoned(job_id, error, failure)


def job_of_key(idempotency_key: str, body: Mapping[str, Any]) -> Flow[Optional[str]]:
    """The id of the job an Idempotency-Key made, found by replaying the submission (a 409
    names the key's job too); None when the server cannot be asked. A replay that creates
    the job answers its id as well, so it is cancelled like the others."""
    try:
        answer = (yield replay(idempotency_key, body, deadline=time.monotonic() + REPLAY_TIMEOUT_S)).body
    except APIError as error:
        return error.job_id
    except Exception:  # noqa: BLE001 - no job found; the interruption is raised as it is
        return None
    return answer.get("job_id") if isinstance(answer, dict) else None


def submit_within(
    settings: Settings,
    deadline: Optional[float],
    service_id: str,
    input: Optional[Mapping[str, Any]],
    endpoint: Optional[str],
    *,
    idempotency_key: str,
    wait: float,
    webhook: Optional[str],
    webhook_events_filter: Optional[Sequence[WebhookEventType]],
) -> Flow[Job]:
    """``submit`` that gives up at the deadline. The job may exist by then: replaying the same
    Idempotency-Key finds it without creating another; if the replay is what created it,
    nothing had run, so it is cancelled (free while queued). As the JavaScript client does."""
    wait, deadline = submission_wait(wait, deadline)
    hooks: Dict[str, Any] = {"webhook": webhook, "webhook_events_filter": webhook_events_filter}
    # Files are uploaded before the deadline counts, so a replay sends the same JSON body (their
    # URLs) and the server finds the job the first submission made.
    input = yield from upload_files(settings, service_id, endpoint, dict(input or {}))
    try:
        return (
            yield from submit(
                settings,
                service_id,
                input,
                endpoint,
                wait=wait,
                idempotency_key=idempotency_key,
                deadline=deadline,
                **hooks,
            )
        )
    except DeadlineExceeded as error:
        cause: BaseException = error
    try:
        answer = yield replay(idempotency_key, job_body(service_id, input, endpoint, **hooks))
    except (ConnectionFailedError, APIError):
        raise JobTimeoutError("timed out before the server answered the submission") from cause
    job: Job = answer.body
    if answer.status == 201:
        yield from cancel(job["job_id"])
    raise replay_timeout(answer.status, job) from cause


def submit(
    settings: Settings,
    service_id: str,
    input: Optional[Mapping[str, Any]],
    endpoint: Optional[str],
    *,
    webhook: Optional[str],
    webhook_events_filter: Optional[Sequence[WebhookEventType]],
    wait: Optional[float],
    idempotency_key: Optional[str],
    deadline: Optional[float],
) -> Flow[Job]:
    """``Client.submit``: the files among the input values uploaded, then one POST /v1/jobs."""
    input = yield from upload_files(settings, service_id, endpoint, dict(input or {}))
    body = job_body(service_id, input, endpoint, webhook=webhook, webhook_events_filter=webhook_events_filter)
    headers, timeout = submission_headers(idempotency_key, wait, settings.timeout)
    answer = yield Call("POST", "/v1/jobs", json_body=body, headers=headers, timeout=timeout, deadline=deadline)
    return answer.body


def wait_for(
    settings: Settings,
    job: Job,
    *,
    deadline: Optional[float],
    on_event: Optional[Callable[[JobEvent], Any]],
    on_log: Optional[Callable[[Any], Any]],
) -> Flow[Job]:
    """``Client.wait``: the job once final, following its stream (and re-reading it if the stream
    ends early). At ``deadline`` (a ``time.monotonic()`` instant) JobTimeoutError with its id."""
    while not is_final(job):
        events = stream(settings, job["job_id"], None, deadline, on_log)
        job = (yield from each_event(events, on_event or _ignore)) or job
        if not is_final(job):
            try:
                job = yield from get(job["job_id"], deadline)
            except DeadlineExceeded as error:
                raise still_running(job["job_id"]) from error
    return job


def stream(
    settings: Settings,
    job_id: str,
    last_event_id: Optional[str],
    deadline: Optional[float],
    on_log: Optional[Callable[[Any], Any]],
) -> Flow[Optional[Job]]:
    """``Client.stream``: each event emitted, the job of the last one returned. A dropped connection is resumed with Last-Event-ID after the
    retry policy's pause (docs/jobs.md, "Streaming"); at ``deadline`` JobTimeoutError."""
    follower = StreamFollower(last_event_id, on_log)
    latest: Optional[Job] = None
    while True:
        try:
            yield Connect(stream_path(job_id), follower.headers(), deadline)
            parser = SseParser()
            while True:
                line = yield NextLine()
                if line is None:
                    break
                message = parser.feed(line)
                event = None if message is None else follower.message(message)
                if event is None:
                    continue
                latest = event.job
                yield Emit(event)
                if follower.stop_after(event):
                    return latest
            if follower.finished:
                return latest
        except DeadlineExceeded as error:
            if follower.finished:
                return latest
            raise still_running(job_id) from error
        except (OSError, http.client.HTTPException, ConnectionFailedError):
            if follower.finished:
                return latest
            if deadline_passed(deadline):
                raise still_running(job_id) from None
            follower.failures += 1
            if follower.failures > settings.retry.max_retries:
                raise
        # Ended without a final event (a proxy cut it, the server restarted): resume.
        pause = settings.retry.delay(follower.failures, None)
        if not pause_fits(pause, deadline):
            raise still_running(job_id)
        yield Pause(pause)


def pages(service_id: Optional[str], page_size: int, cursor: Optional[str]) -> Flow[None]:
    """``Client.pages``: each page emitted, newest first, from ``cursor`` or the start."""
    while True:
        page: JobList = (yield Call("GET", jobs_page_path(service_id, page_size, cursor))).body
        yield Emit(page)
        cursor = page.get("next_cursor")
        if not cursor:
            return


def get(job_id: str, deadline: Optional[float] = None) -> Flow[Job]:
    return (yield Call("GET", job_path(job_id), deadline=deadline)).body


def cancel(job_id: str) -> Flow[Job]:
    return (yield Call("POST", job_path(job_id, "/cancel"))).body


def estimate(service_id: str, endpoint: Optional[str]) -> Flow[JobEstimate]:
    return (yield Call("GET", estimate_path(service_id, endpoint))).body


def openapi(service_id: str) -> Flow[Dict[str, Any]]:
    return (yield Call("GET", openapi_path(service_id))).body


def webhook_secret() -> Flow[str]:
    return (yield Call("GET", "/v1/jobs/webhook-secret")).body["secret"]


def upload(file: FileInput, content_type: Optional[str], filename: Optional[str]) -> Flow[FileRef]:
    """``Client.upload``: the file read (the driver keeps a blocking read off the event loop),
    then sent as a form to POST /v1/files."""
    data, file_type, file_name = yield ReadFile(file, content_type, filename)
    body, form_type = multipart(data, file_type, file_name)
    return (yield Call("POST", "/v1/files", body=body, headers={"Content-Type": form_type})).body


def upload_files(
    settings: Settings, service_id: str, endpoint: Optional[str], input: Dict[str, Any]
) -> Flow[Dict[str, Any]]:
    """Uploads the files among the input values and puts their URLs in their place. A ``str``
    naming an existing file is uploaded when the endpoint's parameter is a file input (its
    OpenAPI document says so): a prompt that happens to match a file name stays text."""
    fields: frozenset = frozenset()
    if has_path_strings(input):
        fields = yield from file_fields_of(settings, service_id, endpoint)
    for name, index, value in files_in(input, fields):
        ref = yield from upload(value, None, None)
        put_url(input, name, index, ref["url"])
    return input


def file_fields_of(settings: Settings, service_id: str, endpoint: Optional[str]) -> Flow[frozenset]:
    """The endpoint's file input names (``x-lime-file``), read once per client."""
    key = (service_id, endpoint)
    if key not in settings.file_fields:
        document = yield from openapi(service_id)
        settings.file_fields[key] = file_fields(document, endpoint)
    return settings.file_fields[key]


def each_event(flow: Flow[T], handle: Callable[[Any], Any]) -> Flow[T]:
    """``yield from flow`` with each value it emits given to ``handle`` here, not to the driver
    (so an error of ``handle``, a caller's ``on_event``, is raised here and not inside ``flow``)."""
    driving = Driving(flow)
    try:
        for operation in driving:
            if isinstance(operation, Emit):
                handle(operation.value)
                continue
            try:
                driving.answer((yield operation))
            except GeneratorExit:  # this flow is closed: so is ``flow`` (finally)
                raise
            except BaseException as error:  # noqa: BLE001 - the flow's to handle, as a driver does
                driving.fail(error)
    finally:
        driving.close()
    return driving.value


def _ignore(_: Any) -> None:
    return None


# -- requests and answers ------------------------------------------------------------------------


def job_body(
    service_id: str,
    input: Optional[Mapping[str, Any]],
    endpoint: Optional[str],
    *,
    webhook: Optional[str] = None,
    webhook_events_filter: Optional[Sequence[WebhookEventType]] = None,
) -> Dict[str, Any]:
    """A submission's JSON body (docs/jobs.md)."""
    body: Dict[str, Any] = {"service_id": service_id, "input": dict(input or {})}
    if endpoint:
        body["endpoint"] = endpoint
    if webhook:
        body["webhook"] = webhook
    if webhook_events_filter is not None:
        body["webhook_events_filter"] = list(webhook_events_filter)
    return body


def replay(idempotency_key: str, body: Mapping[str, Any], deadline: Optional[float] = None) -> Call:
    """The submission sent again with its Idempotency-Key and no ``Prefer: wait``, to find the job
    the key made: answered at once, 200 with the job when it exists, 201 when this creates it."""
    return Call(
        "POST",
        "/v1/jobs",
        json_body=body,
        headers={"Idempotency-Key": idempotency_key},
        timeout=REPLAY_TIMEOUT_S,
        deadline=deadline,
    )


def has_path_strings(input: Mapping[str, Any]) -> bool:
    """Whether any input value is a ``str`` naming an existing file (the endpoint's OpenAPI
    document then says whether it is a file input)."""
    return any(
        is_path_string(value) or (isinstance(value, list) and any(map(is_path_string, value)))
        for value in input.values()
    )


def files_in(input: Mapping[str, Any], fields: frozenset) -> List[Tuple[str, Optional[int], Any]]:
    """The files to upload among the input values: (name, index in its list or None, value)."""
    found: List[Tuple[str, Optional[int], Any]] = []
    for name, value in input.items():
        if is_file_input(value) or (name in fields and is_path_string(value)):
            found.append((name, None, value))
        elif isinstance(value, list):
            found.extend(
                (name, i, v) for i, v in enumerate(value) if is_file_input(v) or (name in fields and is_path_string(v))
            )
    return found


def put_url(input: Dict[str, Any], name: str, index: Optional[int], url: str) -> None:
    """Puts an uploaded file's URL where the file was."""
    if index is None:
        input[name] = url
    else:
        input[name] = [*input[name][:index], url, *input[name][index + 1 :]]


def submission_headers(
    idempotency_key: Optional[str], wait: Optional[float], request_timeout: float
) -> Tuple[Dict[str, str], Optional[float]]:
    """A submission's headers (one Idempotency-Key, ``Prefer: wait``) and how long its answer may
    take (the server's wait and 30 s more)."""
    headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
    if not wait:
        return headers, None
    seconds = max(0, min(MAX_PREFER_WAIT_S, int(wait)))
    headers["Prefer"] = f"wait={seconds}"
    return headers, max(request_timeout, seconds + 30)


def submission_wait(wait: float, deadline: Optional[float]) -> Tuple[float, Optional[float]]:
    """The server's wait for a run's submission within its deadline, and the submission's own
    deadline: a create the server answers at once is always sent (even for timeout=0), so the
    job exists and the timeout error carries its id."""
    left = seconds_left(deadline)
    if left is not None:
        wait = min(wait, max(0.0, left - 0.5))
        if wait < 1:
            deadline = max(deadline or 0.0, time.monotonic() + REPLAY_TIMEOUT_S)
    return wait, deadline


def replay_timeout(status: int, job: Job) -> JobTimeoutError:
    """The timeout of a run whose submission was answered only by replaying its key: a 201 means
    the replay created the job (cancelled by the caller: nothing had run)."""
    if status == 201:
        return JobTimeoutError("timed out before the job was created (none was: nothing runs)")
    return JobTimeoutError(
        f"job {job['job_id']} is still {job['status']} at the timeout; it goes on: "
        f"fetch it later with client.get({job['job_id']!r})",
        job_id=job["job_id"],
    )


def job_path(job_id: str, action: str = "") -> str:
    return f"/v1/jobs/{quote(job_id, safe='')}{action}"


def stream_path(job_id: str) -> str:
    return job_path(job_id, "/stream")


def estimate_path(service_id: str, endpoint: Optional[str]) -> str:
    query = {"service_id": service_id, **({"endpoint": endpoint} if endpoint else {})}
    return f"/v1/jobs/estimate?{urlencode(query)}"


def jobs_page_path(service_id: Optional[str], page_size: int, cursor: Optional[str]) -> str:
    query = {
        "limit": page_size,
        **({"service_id": service_id} if service_id else {}),
        **({"cursor": cursor} if cursor else {}),
    }
    return f"/v1/jobs?{urlencode(query)}"


def openapi_path(service_id: str) -> str:
    return "/v1/services/" + "/".join(quote(part, safe="") for part in service_id.split("/")) + "/openapi.json"


def pause_fits(pause: float, deadline: Optional[float]) -> bool:
    left = seconds_left(deadline)
    return left is None or left > pause


def file_fields(document: Mapping[str, Any], endpoint: Optional[str]) -> frozenset:
    """Names of the file inputs of an endpoint (the only one when ``endpoint`` is None) in a
    service's OpenAPI document."""
    schemas = document.get("components", {}).get("schemas", {})
    operations = [item.get("post") or {} for item in document.get("paths", {}).values()]
    operations = [op for op in operations if op.get("x-lime-endpoint")]
    chosen = [op for op in operations if endpoint is None or op["x-lime-endpoint"] == endpoint]
    if len(chosen) != 1:
        return frozenset()
    request = chosen[0]["requestBody"]["content"]["application/json"]["schema"]
    input_schema = schemas.get(request["properties"]["input"]["$ref"].rsplit("/", 1)[-1], {})

    def is_file(schema: Mapping[str, Any]) -> bool:
        items = schema.get("items")
        return bool(schema.get("x-lime-file")) or (isinstance(items, Mapping) and is_file(items))

    return frozenset(name for name, schema in (input_schema.get("properties") or {}).items() if is_file(schema))


def abandoned(job_id: Optional[str], error: BaseException, cancel_failure: Optional[BaseException]) -> BaseException:
    """The error a run raises once it cancelled (or failed to cancel) the job it stopped waiting
    for: a JobTimeoutError is made anew to say so; any other interruption (KeyboardInterrupt, a
    cancelled task) is raised as it was, with a note when the cancel failed."""
    if job_id is None:
        outcome = "no job was found to cancel"
    elif cancel_failure is None:
        outcome = f"job {job_id} was cancelled"
    else:
        outcome = f"cancelling job {job_id} failed ({cancel_failure}); it may go on: client.cancel({job_id!r})"
    if isinstance(error, JobTimeoutError):
        return JobTimeoutError(f"timed out; {outcome}", job_id=job_id)
    add_note = getattr(error, "add_note", None)  # Python 3.11+
    if add_note is not None:
        add_note(outcome)
    return error


def still_running(job_id: str) -> JobTimeoutError:
    return JobTimeoutError(
        f"job {job_id} is still running at the timeout; it goes on: fetch it later with client.get({job_id!r})",
        job_id=job_id,
    )
