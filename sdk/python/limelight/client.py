"""The Limelight client: run services through the job API (docs/jobs.md, docs/sdk.md)."""

from __future__ import annotations

import http.client
import json
import os
import time
import uuid
from typing import Any, Dict, Iterator, Mapping, Optional
from urllib.parse import quote, urlencode

from . import webhooks
from ._http import RetryPolicy, Transport
from .errors import APIError, ConnectionFailedError, JobFailedError, JobTimeoutError
from .files import FileInput, is_file_input, multipart, read_file
from .models import FileRef, Job, JobEvent, JobList, is_final

__version__ = "0.1.0"

#: The server answers a submission when the job ends or after this many seconds (Prefer: wait).
MAX_PREFER_WAIT_S = 60
DEFAULT_BASE_URL = "http://localhost:3000"


class Client:
    """``Client(base_url=..., api_key=...)``; both default to the environment variables
    LIMELIGHT_BASE_URL and LIME_API_KEY. ``token`` may be given instead of an API key (a signed-in
    access token)."""

    def __init__(self, base_url: Optional[str] = None, api_key: Optional[str] = None, *,
                 token: Optional[str] = None, timeout: float = 90.0, max_retries: int = 4) -> None:
        credential = api_key or token or os.environ.get("LIME_API_KEY")
        self._http = Transport(base_url or os.environ.get("LIMELIGHT_BASE_URL") or DEFAULT_BASE_URL,
                               lambda: credential, timeout=timeout, retry=RetryPolicy(max_retries=max_retries),
                               user_agent=f"limelight-python/{__version__}")

    @property
    def base_url(self) -> str:
        return self._http.base_url

    # -- running ---------------------------------------------------------------------------------

    def run(self, service_id: str, input: Optional[Mapping[str, Any]] = None, endpoint: Optional[str] = None, *,
            timeout: Optional[float] = 600.0, webhook: Optional[str] = None) -> Any:
        """Runs an endpoint and returns the finished job's output (``result``).

        Waits with ``Prefer: wait`` and then follows the job's event stream. Raises JobFailedError
        when the job ends FAILED/TIMEOUT/CANCELLED, and JobTimeoutError (with ``job_id``: the job
        goes on, fetch it later) when ``timeout`` seconds pass first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        job = self.submit(service_id, input, endpoint, webhook=webhook,
                          wait=MAX_PREFER_WAIT_S if deadline is None else min(MAX_PREFER_WAIT_S, timeout or 0))
        try:
            job = self.wait(job, deadline=deadline)
        except (ConnectionFailedError, APIError) as error:
            # The job exists; whoever catches this must be able to fetch it.
            error.job_id = error.job_id or job["job_id"]
            raise
        if job["status"] != "FINISHED":
            raise JobFailedError(job)
        return job["result"]

    def wait(self, job: Job, *, deadline: Optional[float] = None) -> Job:
        """The job once final, following its stream (and re-reading it if the stream ends early)."""
        while not is_final(job):
            if deadline is not None and time.monotonic() >= deadline:
                raise JobTimeoutError(f"job {job['job_id']} is still {job['status']}: fetch it later with "
                                      f"client.get({job['job_id']!r})", job_id=job["job_id"])
            for event in self.stream(job["job_id"], deadline=deadline):
                job = event.job
            if not is_final(job):
                job = self.get(job["job_id"])
        return job

    def submit(self, service_id: str, input: Optional[Mapping[str, Any]] = None, endpoint: Optional[str] = None, *,
               webhook: Optional[str] = None, wait: Optional[float] = None,
               idempotency_key: Optional[str] = None) -> Job:
        """Queues a job and returns its envelope. Files among the input values (paths, bytes, binary
        file objects) are uploaded first. One Idempotency-Key is sent on every retry, so a retried
        submission answers the same job and is never charged twice."""
        body: Dict[str, Any] = {"service_id": service_id, "input": self._upload_files(dict(input or {}))}
        if endpoint:
            body["endpoint"] = endpoint
        if webhook:
            body["webhook"] = webhook
        headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
        timeout = None
        if wait:
            seconds = max(0, min(MAX_PREFER_WAIT_S, int(wait)))
            headers["Prefer"] = f"wait={seconds}"
            timeout = max(self._http.timeout, seconds + 30)
        return self._http.request("POST", "/v1/jobs", json_body=body, headers=headers, timeout=timeout).body

    def get(self, job_id: str) -> Job:
        return self._http.request("GET", f"/v1/jobs/{quote(job_id, safe='')}").body

    def cancel(self, job_id: str) -> Job:
        """Cancels a job; one that already ended is answered unchanged."""
        return self._http.request("POST", f"/v1/jobs/{quote(job_id, safe='')}/cancel").body

    def list(self, service_id: Optional[str] = None, *, page_size: int = 20) -> Iterator[Job]:
        """Every job of yours, newest first, fetching pages as it goes."""
        cursor: Optional[str] = None
        while True:
            query = {"limit": page_size, **({"service_id": service_id} if service_id else {}),
                     **({"cursor": cursor} if cursor else {})}
            page: JobList = self._http.request("GET", f"/v1/jobs?{urlencode(query)}").body
            yield from page["jobs"]
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def stream(self, job_id: str, *, last_event_id: Optional[str] = None,
               deadline: Optional[float] = None) -> Iterator[JobEvent]:
        """The job's server-sent events until its final status. A dropped connection is resumed with
        Last-Event-ID, so no change is lost and none is repeated."""
        path = f"/v1/jobs/{quote(job_id, safe='')}/stream"
        failures = 0
        while True:
            headers = {"Accept": "text/event-stream"}
            if last_event_id:
                headers["Last-Event-ID"] = last_event_id
            try:
                with self._http.open("GET", path, headers=headers, timeout=45) as response:
                    for event in _parse_sse(response):
                        failures = 0
                        last_event_id = event.id or last_event_id
                        yield event
                        if event.final:
                            return
            except (OSError, http.client.HTTPException, ConnectionFailedError):
                failures += 1
                if failures > self._http.retry.max_retries:
                    raise
            # Ended without a final event (a proxy cut it, the server restarted): resume.
            if deadline is not None and time.monotonic() >= deadline:
                return
            time.sleep(self._http.retry.delay(failures, None))

    # -- files and webhooks ----------------------------------------------------------------------

    def upload(self, file: FileInput, *, content_type: Optional[str] = None, filename: Optional[str] = None) -> FileRef:
        """Stores a file (a path, bytes or a binary file object) for a file input; pass its ``url``."""
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
        path = "/".join(quote(part, safe="") for part in service_id.split("/"))
        return self._http.request("GET", f"/v1/services/{path}/openapi.json").body

    def _upload_files(self, input: Dict[str, Any]) -> Dict[str, Any]:
        for name, value in input.items():
            if is_file_input(value):
                input[name] = self.upload(value)["url"]
            elif isinstance(value, list) and any(is_file_input(v) for v in value):
                input[name] = [self.upload(v)["url"] if is_file_input(v) else v for v in value]
        return input


def _parse_sse(response) -> Iterator[JobEvent]:
    """Server-sent events from a response read line by line (comments are heartbeats)."""
    event, event_id, data = "message", None, []
    for raw in response:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield JobEvent(id=event_id, event=event, job=json.loads("\n".join(data)))
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            event_id = value
