"""The Limelight client: run services through the job API (docs/jobs.md, docs/sdk.md)."""

from __future__ import annotations

import functools
import http.client
import os
import time
import uuid
import warnings
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Set, Tuple
from urllib.parse import quote, urlencode

from . import webhooks
from ._http import DeadlineExceeded, RetryPolicy, Transport, deadline_passed, seconds_left
from ._rules import MAX_PREFER_WAIT_S  # the longest Prefer: wait the server honours
from ._sse import STREAM_READ_TIMEOUT_S, StreamFollower, parse_sse, read_lines
from .errors import APIError, ConnectionFailedError, JobFailedError, JobTimeoutError
from .files import FileInput, is_file_input, is_path_string, multipart, read_file
from .models import FileRef, Job, JobEstimate, JobEvent, JobList, LogLine, WebhookEventType, is_final
from .output import FileOutput, with_file_outputs

__version__ = "0.1.0"

DEFAULT_BASE_URL = "http://localhost:3000"
#: How long finding out whether a timed-out submission created its job may take.
REPLAY_TIMEOUT_S = 10.0
#: How long cancelling a job ``run`` stopped waiting for (``cancel_on_abort``) may take.
CANCEL_TIMEOUT_S = 10.0

OnJob = Callable[[Job], Any]
OnEvent = Callable[[JobEvent], Any]
OnLog = Callable[[LogLine], Any]


#: The settings read from the environment, each with the older name it replaces (docs/sdk.md).
_OLDER_ENV_NAMES = {"LIMELIGHT_API_KEY": "LIME_API_KEY", "LIMELIGHT_BASE_URL": "LIME_BASE_URL"}
_warned_env_names: Set[str] = set()


def env_setting(name: str) -> Optional[str]:
    """``name`` from the environment, else its older name with a FutureWarning once per process
    (the new name wins when both are set; an empty value counts as unset)."""
    value = os.environ.get(name)
    if value:
        return value
    older = _OLDER_ENV_NAMES[name]
    value = os.environ.get(older)
    if not value:
        return None
    if older not in _warned_env_names:
        _warned_env_names.add(older)
        warnings.warn(
            f"{older} is deprecated, set {name} instead (the older name still works for now)",
            FutureWarning,
            stacklevel=2,
        )
    return value


def credential_from_env() -> Optional[str]:
    """LIMELIGHT_API_KEY (LIME_API_KEY, the older name, still works, with a warning)."""
    return env_setting("LIMELIGHT_API_KEY")


class Client:
    """``Client(base_url=..., api_key=...)``; both default to the environment variables
    LIMELIGHT_BASE_URL and LIMELIGHT_API_KEY (the older LIME_BASE_URL and LIME_API_KEY still work,
    with a warning). ``token`` may be given instead of an API key (a signed-in access token).

    ``timeout`` (seconds) bounds each HTTP request's connection and each wait for bytes, not a
    whole run: ``run(timeout=...)`` bounds a run from submission to output (docs/sdk.md).
    ``use_file_output=False`` gives a result's files back as plain ``{url, content_type, size}``
    dicts rather than FileOutput objects."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        token: Optional[str] = None,
        timeout: float = 90.0,
        max_retries: int = 4,
        use_file_output: bool = True,
    ) -> None:
        if not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
        credential = api_key or token or credential_from_env()
        self._http = Transport(
            base_url or env_setting("LIMELIGHT_BASE_URL") or DEFAULT_BASE_URL,
            lambda: credential,
            timeout=timeout,
            retry=RetryPolicy(max_retries=max_retries),
            user_agent=f"limelight-python/{__version__}",
        )
        self._file_fields: Dict[Tuple[str, Optional[str]], frozenset] = {}
        self._use_file_output = use_file_output

    @property
    def base_url(self) -> str:
        return self._http.base_url

    # -- running ---------------------------------------------------------------------------------

    def run(
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
        """Runs an endpoint and returns the finished job's output (``result``), its files as
        FileOutput objects (``read()``, ``save(path)``, iteration; see ``use_file_output``).

        ``timeout`` (seconds, from the call) bounds everything: the submission, the server's wait
        and the stream. When it passes, JobTimeoutError is raised with the job's ``job_id``: the
        job goes on, fetch it later with ``get``. ``on_job`` gets the job as soon as it exists,
        ``on_event`` every change of it, ``on_log`` each line its container writes. Without
        callbacks the submission asks the server to hold the answer until the job ends
        (``Prefer: wait``, at most 60 s); with them it answers at once and the stream is followed.
        Raises JobFailedError when the job ends FAILED/TIMEOUT/CANCELLED.

        ``cancel_on_abort=True`` cancels the job on the server when the run stops waiting before
        it ends: Ctrl-C (KeyboardInterrupt) or the ``timeout`` passing; the error is raised as
        ever, with the job's id (docs/sdk.md, "Cancel on abort")."""
        deadline = None if timeout is None else time.monotonic() + timeout
        if wait is None:
            wait = 0 if (on_job or on_event or on_log) else MAX_PREFER_WAIT_S
        key = idempotency_key or str(uuid.uuid4())
        try:
            job = self._submit_within(
                deadline,
                service_id,
                input,
                endpoint,
                webhook=webhook,
                webhook_events_filter=webhook_events_filter,
                wait=wait,
                idempotency_key=key,
            )
        except (JobTimeoutError, KeyboardInterrupt) as error:
            if not cancel_on_abort:
                raise
            # Interrupted before the answer: replaying the key finds the job, if there is one.
            if isinstance(error, JobTimeoutError):
                job_id = error.job_id
            else:
                body = self._job_body(
                    service_id, input, endpoint, webhook=webhook, webhook_events_filter=webhook_events_filter
                )
                job_id = self._job_of_key(key, body)
            stopped = self._abandon(job_id, error)
            if stopped is error:
                raise
            raise stopped from error
        try:
            if on_job:
                on_job(job)
            job = self.wait(job, deadline=deadline, on_event=on_event, on_log=on_log)
        except (ConnectionFailedError, APIError) as error:
            # The job exists; whoever catches this must be able to fetch it.
            error.job_id = error.job_id or job["job_id"]
            raise
        except (JobTimeoutError, KeyboardInterrupt) as error:
            if not cancel_on_abort:
                raise
            stopped = self._abandon(job["job_id"], error)
            if stopped is error:
                raise
            raise stopped from error
        if job["status"] != "FINISHED":
            raise JobFailedError(job)
        return self.file_outputs(job["result"])

    def file_outputs(self, result: Any) -> Any:
        """A job's result with every ``{url, content_type, size}`` made a FileOutput (read, save,
        iterate), as ``run`` gives it back; unchanged with ``use_file_output=False``."""
        if not self._use_file_output:
            return result
        return with_file_outputs(result, lambda ref: FileOutput(ref, self._open_file))

    def _open_file(self, url: str) -> Any:
        # A relative URL is the platform's; the key goes only to the platform's origin (Transport).
        return self._http.open("GET", url, headers={"Accept": "*/*"})

    def _abandon(self, job_id: Optional[str], error: BaseException) -> BaseException:
        """Cancels the job a run stopped waiting for (``cancel_on_abort``) and answers the error to
        raise: a timeout's message says what became of the job; a failed cancel never hides the
        interruption (it is noted on it, and the job goes on)."""
        failure: Optional[BaseException] = None
        if job_id is not None:
            try:
                self._http.request(
                    "POST",
                    job_path(job_id, "/cancel"),
                    timeout=CANCEL_TIMEOUT_S,
                    deadline=time.monotonic() + CANCEL_TIMEOUT_S,
                )
            except Exception as cancel_error:  # noqa: BLE001 - whatever it is, it must not hide the abort
                failure = cancel_error
        return abandoned(job_id, error, failure)

    def _job_of_key(self, idempotency_key: str, body: Mapping[str, Any]) -> Optional[str]:
        """The id of the job an Idempotency-Key made, found by replaying the submission (a 409
        names the key's job too); None when the server cannot be asked. A replay that creates
        the job answers its id as well, so it is cancelled like the others."""
        try:
            answer = self._http.request(
                "POST",
                "/v1/jobs",
                json_body=body,
                headers={"Idempotency-Key": idempotency_key},
                timeout=REPLAY_TIMEOUT_S,
                deadline=time.monotonic() + REPLAY_TIMEOUT_S,
            ).body
        except APIError as error:
            return error.job_id
        except Exception:  # noqa: BLE001 - no job found; the interruption is raised as it is
            return None
        return answer.get("job_id") if isinstance(answer, dict) else None

    def _submit_within(
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
        """``submit`` that gives up at the deadline. The job may exist by then: replaying the same
        Idempotency-Key finds it without creating another; if the replay is what created it,
        nothing had run, so it is cancelled (free while queued). As the JavaScript client does."""
        wait, deadline = submission_wait(wait, deadline)
        # Files are uploaded before the deadline counts, so a replay sends the same JSON body (their
        # URLs) and the server finds the job the first submission made.
        input = self._upload_files(service_id, endpoint, dict(input or {}))
        try:
            return self.submit(
                service_id, input, endpoint, wait=wait, idempotency_key=idempotency_key, deadline=deadline, **options
            )
        except DeadlineExceeded as error:
            cause: BaseException = error
        body = self._job_body(service_id, input, endpoint, **options)
        try:
            replay = self._http.request(
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
            self.cancel(job["job_id"])
        raise replay_timeout(replay.status, job) from cause

    def wait(
        self,
        job: Job,
        *,
        deadline: Optional[float] = None,
        on_event: Optional[OnEvent] = None,
        on_log: Optional[OnLog] = None,
    ) -> Job:
        """The job once final, following its stream (and re-reading it if the stream ends early).
        At ``deadline`` (a ``time.monotonic()`` instant) JobTimeoutError with its ``job_id``."""
        while not is_final(job):
            for event in self.stream(job["job_id"], deadline=deadline, on_log=on_log):
                job = event.job
                if on_event:
                    on_event(event)
            if not is_final(job):
                job = self._within(deadline, job["job_id"], functools.partial(self._get, job["job_id"], deadline))
        return job

    def submit(
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
        """Queues a job and returns its envelope. Files among the input values (paths, bytes, binary
        file objects) are uploaded first. One Idempotency-Key is sent on every retry, so a retried
        submission answers the same job and is never charged twice. ``webhook_events_filter``
        chooses what the webhook is sent for (default: ``["completed"]``)."""
        input = self._upload_files(service_id, endpoint, dict(input or {}))
        body = self._job_body(service_id, input, endpoint, webhook=webhook, webhook_events_filter=webhook_events_filter)
        headers, timeout = submission_headers(idempotency_key, wait, self._http.timeout)
        return self._http.request(
            "POST", "/v1/jobs", json_body=body, headers=headers, timeout=timeout, deadline=deadline
        ).body

    @staticmethod
    def _job_body(
        service_id: str,
        input: Optional[Mapping[str, Any]],
        endpoint: Optional[str],
        *,
        webhook: Optional[str] = None,
        webhook_events_filter: Optional[Sequence[WebhookEventType]] = None,
    ) -> Dict[str, Any]:
        body: Dict[str, Any] = {"service_id": service_id, "input": dict(input or {})}
        if endpoint:
            body["endpoint"] = endpoint
        if webhook:
            body["webhook"] = webhook
        if webhook_events_filter is not None:
            body["webhook_events_filter"] = list(webhook_events_filter)
        return body

    def get(self, job_id: str) -> Job:
        return self._get(job_id, None)

    def _get(self, job_id: str, deadline: Optional[float]) -> Job:
        return self._http.request("GET", job_path(job_id), deadline=deadline).body

    def logs(self, job_id: str) -> List[LogLine]:
        """The lines the job's container wrote, oldest first (none for other runtimes)."""
        return list(self.get(job_id).get("logs") or [])  # type: ignore[call-overload]

    def cancel(self, job_id: str) -> Job:
        """Cancels a job; one that already ended is answered unchanged."""
        return self._http.request("POST", job_path(job_id, "/cancel")).body

    def estimate(self, service_id: str, endpoint: Optional[str] = None) -> JobEstimate:
        """The service's GPU price and the endpoint's recent run times, to estimate a run's cost."""
        return self._http.request("GET", estimate_path(service_id, endpoint)).body

    def pages(
        self, service_id: Optional[str] = None, *, page_size: int = 20, cursor: Optional[str] = None
    ) -> Iterator[JobList]:
        """Your jobs a page at a time, newest first, from ``cursor`` (an earlier page's
        ``next_cursor``, to go on later) or the start."""
        while True:
            page: JobList = self._http.request("GET", jobs_page_path(service_id, page_size, cursor)).body
            yield page
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def list(
        self, service_id: Optional[str] = None, *, page_size: int = 20, cursor: Optional[str] = None
    ) -> Iterator[Job]:
        """Every job of yours, newest first (from ``cursor`` when given), fetching pages as it goes."""
        for page in self.pages(service_id, page_size=page_size, cursor=cursor):
            yield from page["jobs"]

    def stream(
        self,
        job_id: str,
        *,
        last_event_id: Optional[str] = None,
        deadline: Optional[float] = None,
        on_log: Optional[OnLog] = None,
    ) -> Iterator[JobEvent]:
        """The job's server-sent events until its final status. A dropped connection is resumed with
        Last-Event-ID, so no change is lost and none is repeated. ``on_log`` gets each line the
        job's container writes, once (the server sends the stored lines again on every connection,
        and some after the final envelope: with ``on_log`` the stream is read to its end).
        At ``deadline`` (a ``time.monotonic()`` instant) JobTimeoutError with the ``job_id``."""
        path = stream_path(job_id)
        follower = StreamFollower(last_event_id, on_log)
        while True:
            try:
                with self._http.open(
                    "GET", path, headers=follower.headers(), timeout=STREAM_READ_TIMEOUT_S, deadline=deadline
                ) as response:
                    for message in parse_sse(read_lines(response, deadline)):
                        event = follower.message(message)
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
            except (OSError, http.client.HTTPException, ConnectionFailedError):
                if follower.finished:
                    return
                if deadline_passed(deadline):
                    raise still_running(job_id) from None
                follower.failures += 1
                if follower.failures > self._http.retry.max_retries:
                    raise
            # Ended without a final event (a proxy cut it, the server restarted): resume.
            pause = self._http.retry.delay(follower.failures, None)
            if not pause_fits(pause, deadline):
                raise still_running(job_id)
            time.sleep(pause)

    @staticmethod
    def _within(deadline: Optional[float], job_id: str, call: Callable[[], Job]) -> Job:
        try:
            return call()
        except DeadlineExceeded as error:
            raise still_running(job_id) from error

    # -- files and webhooks ----------------------------------------------------------------------

    def upload(self, file: FileInput, *, content_type: Optional[str] = None, filename: Optional[str] = None) -> FileRef:
        """Stores a file (a path as ``Path`` or ``str``, bytes or a binary file object) for a file
        input; pass its ``url``."""
        data, content_type, filename = read_file(file, content_type, filename)
        body, form_type = multipart(data, content_type, filename)
        return self._http.request("POST", "/v1/files", body=body, headers={"Content-Type": form_type}).body

    def webhook_secret(self) -> str:
        """The whsec_… secret that signs your job webhooks."""
        return self._http.request("GET", "/v1/jobs/webhook-secret").body["secret"]

    @staticmethod
    def verify_webhook(payload, headers, secret: str, **options: Any) -> Any:
        """See ``limelight.webhooks.verify``."""
        return webhooks.verify(payload, headers, secret, **options)

    def openapi(self, service_id: str) -> Dict[str, Any]:
        """The service's OpenAPI 3.1 document (its endpoints' input and output schemas)."""
        return self._http.request("GET", openapi_path(service_id)).body

    def _upload_files(self, service_id: str, endpoint: Optional[str], input: Dict[str, Any]) -> Dict[str, Any]:
        """Uploads the files among the input values and puts their URLs in their place. A ``str``
        naming an existing file is uploaded when the endpoint's parameter is a file input (its
        OpenAPI document says so): a prompt that happens to match a file name stays text."""
        fields = self._file_fields_of(service_id, endpoint) if has_path_strings(input) else frozenset()
        for name, index, value in files_in(input, fields):
            put_url(input, name, index, self.upload(value)["url"])
        return input

    def _file_fields_of(self, service_id: str, endpoint: Optional[str]) -> frozenset:
        """The endpoint's file input names (``x-lime-file``), read once per client."""
        key = (service_id, endpoint)
        if key not in self._file_fields:
            self._file_fields[key] = file_fields(self.openapi(service_id), endpoint)
        return self._file_fields[key]


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
