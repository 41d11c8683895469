"""The Limelight client: run services through the job API (docs/jobs.md, docs/sdk.md)."""

from __future__ import annotations

import contextlib
import os
import time
import warnings
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Set, Tuple, TypeVar

from . import _core, webhooks
from ._http import RetryPolicy, Transport
from ._sse import STREAM_READ_TIMEOUT_S, read_lines
from .errors import JobTimeoutError
from .files import FileInput, read_file
from .models import FileRef, Job, JobEstimate, JobEvent, JobList, LogLine, WebhookEventType
from .output import FileOutput, with_file_outputs

__version__ = "0.1.0"

DEFAULT_BASE_URL = "http://localhost:3000"

T = TypeVar("T")
#: What stops a run's wait on the caller's side (``cancel_on_abort`` then cancels the job).
_ABORTS = (JobTimeoutError, KeyboardInterrupt)

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

    def _settings(self) -> _core.Settings:
        return _core.Settings(self._http.retry, self._http.timeout, self._file_fields)

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
        result = self._run(
            _core.run(
                self._settings(),
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
                aborts=_ABORTS,
            )
        )
        return self.file_outputs(result)

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
        """Cancels the job a run stopped waiting for and answers the error to raise (``_core.abandon``)."""
        return self._run(_core.abandon(job_id, error))

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
        return self._run(_core.wait_for(self._settings(), job, deadline=deadline, on_event=on_event, on_log=on_log))

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
        return self._run(
            _core.submit(
                self._settings(),
                service_id,
                input,
                endpoint,
                webhook=webhook,
                webhook_events_filter=webhook_events_filter,
                wait=wait,
                idempotency_key=idempotency_key,
                deadline=deadline,
            )
        )

    def get(self, job_id: str) -> Job:
        return self._run(_core.get(job_id))

    def logs(self, job_id: str) -> List[LogLine]:
        """The lines the job's container wrote, oldest first (none for other runtimes)."""
        return list(self.get(job_id).get("logs") or [])  # type: ignore[call-overload]

    def cancel(self, job_id: str) -> Job:
        """Cancels a job; one that already ended is answered unchanged."""
        return self._run(_core.cancel(job_id))

    def estimate(self, service_id: str, endpoint: Optional[str] = None) -> JobEstimate:
        """The service's GPU price and the endpoint's recent run times, to estimate a run's cost."""
        return self._run(_core.estimate(service_id, endpoint))

    def pages(
        self, service_id: Optional[str] = None, *, page_size: int = 20, cursor: Optional[str] = None
    ) -> Iterator[JobList]:
        """Your jobs a page at a time, newest first, from ``cursor`` (an earlier page's
        ``next_cursor``, to go on later) or the start."""
        return self._drive(_core.Driving(_core.pages(service_id, page_size, cursor)))

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
        return self._drive(_core.Driving(_core.stream(self._settings(), job_id, last_event_id, deadline, on_log)))

    # -- the driver: the I/O the flows of _core.py ask for, blocking -------------------------------

    def _run(self, flow: _core.Flow[T]) -> T:
        """A flow that emits nothing, driven to its value."""
        driving = _core.Driving(flow)
        for _ in self._drive(driving):
            raise TypeError("a flow emitted outside an iteration")
        return driving.value

    def _drive(self, driving: _core.Driving) -> Iterator[Any]:
        """Does each operation the flow asks for and yields what it emits; an operation's failure
        (KeyboardInterrupt included) is the flow's to handle."""
        with contextlib.closing(driving), _Connection() as connection:
            for operation in driving:
                if isinstance(operation, _core.Emit):
                    yield operation.value
                    continue
                try:
                    driving.answer(self._do(operation, connection))
                except BaseException as error:  # noqa: BLE001 - handed to the flow, which decides
                    driving.fail(error)

    def _do(self, operation: _core.Operation, connection: _Connection) -> Any:
        if isinstance(operation, _core.Call):
            return self._http.request(**vars(operation))
        if isinstance(operation, _core.Pause):
            return time.sleep(operation.seconds)
        if isinstance(operation, _core.ReadFile):
            return read_file(operation.file, operation.content_type, operation.filename)
        if isinstance(operation, _core.Connect):
            response = self._http.open(
                "GET",
                operation.path,
                headers=operation.headers,
                timeout=STREAM_READ_TIMEOUT_S,
                deadline=operation.deadline,
            )
            return connection.open(response, read_lines(response, operation.deadline))
        if isinstance(operation, _core.NextLine):
            return connection.next_line()
        raise TypeError(f"not an operation: {operation!r}")

    # -- files and webhooks ----------------------------------------------------------------------

    def upload(self, file: FileInput, *, content_type: Optional[str] = None, filename: Optional[str] = None) -> FileRef:
        """Stores a file (a path as ``Path`` or ``str``, bytes or a binary file object) for a file
        input; pass its ``url``."""
        return self._run(_core.upload(file, content_type, filename))

    def webhook_secret(self) -> str:
        """The whsec_… secret that signs your job webhooks."""
        return self._run(_core.webhook_secret())

    @staticmethod
    def verify_webhook(payload, headers, secret: str, **options: Any) -> Any:
        """See ``limelight.webhooks.verify``."""
        return webhooks.verify(payload, headers, secret, **options)

    def openapi(self, service_id: str) -> Dict[str, Any]:
        """The service's OpenAPI 3.1 document (its endpoints' input and output schemas)."""
        return self._run(_core.openapi(service_id))


class _Connection:
    """The job stream a flow has open (``Connect``), read a line at a time (``NextLine``); closed
    when it ends or fails, when another is opened and when the flow ends."""

    def __init__(self) -> None:
        self._response: Any = None
        self._lines: Iterator[bytes] = iter(())

    def __enter__(self) -> _Connection:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def open(self, response: Any, lines: Iterator[bytes]) -> None:
        self.close()
        self._response, self._lines = response, lines

    def next_line(self) -> Optional[bytes]:
        try:
            line = next(self._lines, None)
        except BaseException:
            self.close()
            raise
        if line is None:
            self.close()
        return line

    def close(self) -> None:
        response, self._response, self._lines = self._response, None, iter(())
        if response is not None:
            response.close()
