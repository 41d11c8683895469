"""``limelight serve --simulate``: a local imitation of the platform in front of the app.

It offers the job API's core (``POST /v1/jobs`` with ``Prefer: wait``, ``GET /v1/jobs/{id}``,
``POST /v1/jobs/{id}/cancel``, ``GET /v1/jobs``) and delivers each job to the app exactly as the
platform's HTTP runtime does: over HTTP, with ``Idempotency-Key`` and ``Limelight-Attempt``,
following a job-style answer's ``status_url`` for progress and calling its ``cancel_url`` on
cancel. Files in results are kept in memory and served at ``/v1/files/{id}``. Everything else
(the endpoints, ``/openapi.json``, ``/docs``, ``/health``) is the app itself.
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from datetime import datetime, timezone
from typing import Any, Dict, Optional

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from .._rules import FINAL_JOB_STATUSES as FINAL
from .._waiting import within

POLL_S = 0.2


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


def _origin(url: str) -> Optional[tuple]:
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        return scheme, (parts.hostname or "").lower(), parts.port or {"http": 80, "https": 443}.get(scheme)
    except ValueError:  # a port that is not a number
        return None


def _app_opener() -> urllib.request.OpenerDirector:
    # http(s) only and no redirects (a 3xx is an answer), as the platform's HTTP runtime calls a
    # service: urllib's default opener would also read file: and ftp: URLs and follow redirects.
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.HTTPHandler,
        urllib.request.HTTPSHandler,
        urllib.request.HTTPDefaultErrorHandler,
        urllib.request.HTTPErrorProcessor,
    ):
        opener.add_handler(handler())
    return opener


class _Delivery:
    """One HTTP call to the app, run in a thread (urllib), answering (status, headers, body)."""

    _opener = _app_opener()

    @staticmethod
    def send(url: str, body: Optional[dict], headers: Dict[str, str], timeout: float) -> tuple:
        data = json.dumps(body).encode() if body is not None else None
        sent = {**headers, **({"Content-Type": "application/json"} if data is not None else {})}
        request = urllib.request.Request(url, data=data, headers=sent, method="POST" if data is not None else "GET")
        try:
            with _Delivery._opener.open(request, timeout=timeout) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()


class Simulator:
    """The simulated platform: a queue, one worker per run slot, jobs and files in memory."""

    def __init__(self, app: Any, own_url: str, slots: int):
        self.app, self.own_url, self.slots = app, own_url.rstrip("/"), slots
        self.jobs: Dict[str, Dict[str, Any]] = {}
        self.files: Dict[str, tuple] = {}
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self._upstream: Dict[str, Dict[str, str]] = {}
        self._changed: Dict[str, asyncio.Event] = {}

    def start(self) -> None:
        for _ in range(self.slots):
            asyncio.get_running_loop().create_task(self._worker())

    def submit(self, endpoint: str, input: Dict[str, Any]) -> Dict[str, Any]:
        job_id = str(uuid.uuid4())
        self.jobs[job_id] = {
            "job_id": job_id,
            "service_id": "local",
            "endpoint": endpoint,
            "status": "QUEUED",
            "progress": 0.0,
            "message": None,
            "input": input,
            "result": None,
            "error": None,
            "runtime": "http",
            "attempt": 0,
            "created_at": _now(),
            "started_at": None,
            "finished_at": None,
            "links": {"self": f"/v1/jobs/{job_id}", "cancel": f"/v1/jobs/{job_id}/cancel"},
        }
        self._changed[job_id] = asyncio.Event()
        self.queue.put_nowait(job_id)
        return self.jobs[job_id]

    def _update(self, job_id: str, **fields: Any) -> None:
        self.jobs[job_id].update(fields)
        self._changed[job_id].set()
        self._changed[job_id] = asyncio.Event()

    async def wait(self, job_id: str, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.jobs[job_id]["status"] not in FINAL and time.monotonic() < deadline:
            try:
                await within(self._changed[job_id].wait(), deadline - time.monotonic())
            except asyncio.TimeoutError:
                break

    async def cancel(self, job_id: str) -> None:
        job = self.jobs[job_id]
        if job["status"] in FINAL:
            return
        cancel_url = self._upstream.get(job_id, {}).get("cancel")
        self._update(
            job_id, status="CANCELLED", finished_at=_now(), error={"code": "cancelled", "message": "Cancelled"}
        )
        if cancel_url and self._own(cancel_url):
            await self._call(cancel_url, {}, {})

    def _own(self, url: str) -> bool:
        """Whether a URL the app's answer named is the app's own address: the only one called.

        A job-style answer is JSON the app returns, which may echo a caller's input; the platform
        calls a status or cancel URL only on the service's own origin (docs/security.md,
        "Service URLs"), and so does the simulator.
        """
        return _origin(url) == _origin(self.own_url)

    async def _call(self, url: str, body: Optional[dict], headers: Dict[str, str]) -> tuple:
        return await asyncio.get_running_loop().run_in_executor(None, _Delivery.send, url, body, headers, 600)

    async def _worker(self) -> None:
        while True:
            job_id = await self.queue.get()
            if self.jobs[job_id]["status"] != "QUEUED":
                continue
            try:
                await self._deliver(job_id)
            except Exception as error:  # the simulator reports, as the platform does, and goes on
                if self.jobs[job_id]["status"] not in FINAL:
                    self._fail(job_id, f"The service is unreachable ({error})")

    def _fail(self, job_id: str, message: str) -> None:
        self._update(job_id, status="FAILED", finished_at=_now(), error={"code": "service_error", "message": message})

    async def _deliver(self, job_id: str) -> None:
        job = self.jobs[job_id]
        attempt = job["attempt"] + 1
        self._update(job_id, status="PROCESSING", started_at=_now(), attempt=attempt)
        headers = {"Idempotency-Key": job_id, "Limelight-Attempt": str(attempt)}
        status, answer_headers, body = await self._call(f"{self.own_url}{job['endpoint']}", job["input"], headers)
        while True:
            if self.jobs[job_id]["status"] in FINAL:  # cancelled meanwhile
                return
            if 300 <= status < 400:
                return self._fail(
                    job_id, f"The service answered {status} (a redirect); the platform does not follow redirects"
                )
            if status >= 400:
                return self._fail(job_id, f"The service answered {status}: {_detail(body)}")
            content_type = (answer_headers.get("Content-Type") or "").split(";")[0]
            if content_type != "application/json":
                return self._finish(job_id, self._store(body, content_type))
            answer = json.loads(body)
            upstream = answer.get("status") if isinstance(answer, dict) and "id" in answer else None
            if upstream is None:
                return self._finish(job_id, _stored_media(answer, self._store))
            self._update(job_id, progress=answer.get("progress") or 0.0, message=answer.get("message"))
            if upstream == "succeeded":
                return self._finish(job_id, _stored_media(answer.get("output"), self._store))
            if upstream in ("failed", "cancelled"):
                return self._fail(job_id, f"The service's job {upstream}: {answer.get('error') or ''}".strip())
            if not isinstance(answer.get("status_url"), str) or not answer["status_url"]:
                return self._fail(job_id, "The service's job-style answer names no status_url")
            status_url = urllib.parse.urljoin(f"{self.own_url}/", answer["status_url"])
            cancel_url = urllib.parse.urljoin(f"{self.own_url}/", str(answer.get("cancel_url") or ""))
            if not self._own(status_url):
                return self._fail(
                    job_id,
                    f"The service named {status_url} as its job's status URL; only its own "
                    f"address ({self.own_url}) is called",
                )
            self._upstream[job_id] = {"get": status_url, "cancel": cancel_url if answer.get("cancel_url") else ""}
            await asyncio.sleep(POLL_S)
            status, answer_headers, body = await self._call(status_url, None, {})

    def _finish(self, job_id: str, result: Any) -> None:
        self._update(job_id, status="FINISHED", progress=1.0, result=result, finished_at=_now())

    def _store(self, data: bytes, content_type: str) -> Any:
        if content_type.startswith("text/"):
            return data.decode("utf-8", "replace")
        file_id = uuid.uuid4().hex
        self.files[file_id] = (data, content_type)
        return {"url": f"{self.own_url}/v1/files/{file_id}", "content_type": content_type, "size": len(data)}


def _detail(body: bytes) -> str:
    try:
        detail = json.loads(body).get("detail")
        return detail if isinstance(detail, str) else json.dumps(detail)
    except (ValueError, AttributeError):
        return body.decode("utf-8", "replace")[:300]


def _stored_media(value: Any, store, depth: int = 0) -> Any:
    if depth > 16:
        return value
    if isinstance(value, dict):
        if isinstance(value.get("content_type"), str) and isinstance(value.get("content"), str):
            return store(base64.b64decode(value["content"]), value["content_type"])
        return {key: _stored_media(item, store, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [_stored_media(item, store, depth + 1) for item in value]
    return value


def simulated(app: Any, own_url: str) -> FastAPI:
    """The simulator's ASGI app: the job API in front, the app behind it at every other path."""
    front = FastAPI(title="Limelight simulator", docs_url=None, redoc_url=None, openapi_url=None)
    slots = getattr(getattr(app, "runs", None), "limit", 1)
    state: Dict[str, Simulator] = {}

    @front.on_event("startup")
    async def start() -> None:
        state["sim"] = Simulator(app, own_url, slots)
        state["sim"].start()
        if hasattr(app, "_start_setup") and getattr(app, "_setup_done", None) is None:
            app._start_setup()  # a mounted app gets no lifespan events of its own

    def unknown(job_id: str) -> JSONResponse:
        return JSONResponse({"detail": f"No job {job_id}"}, status_code=404)

    @front.post("/v1/jobs")
    async def create(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except ValueError:
            body = None
        if (
            not isinstance(body, dict)
            or not isinstance(body.get("endpoint"), str)
            or not body["endpoint"].startswith("/")
        ):
            return JSONResponse({"detail": 'The body is {"endpoint": "/path", "input": {…}}'}, status_code=422)
        if not isinstance(body.get("input", {}), dict):
            return JSONResponse({"detail": "input is an object of the endpoint's parameters"}, status_code=422)
        sim = state["sim"]
        job = sim.submit(body["endpoint"], body.get("input") or {})
        wait = request.headers.get("prefer", "").partition("wait=")[2].split(",")[0].strip()
        if wait:
            await sim.wait(job["job_id"], min(60.0, float(wait) if wait.replace(".", "", 1).isdigit() else 0))
        return JSONResponse(sim.jobs[job["job_id"]], status_code=200 if job["status"] in FINAL else 201)

    @front.get("/v1/jobs")
    async def listing() -> JSONResponse:
        return JSONResponse({"jobs": list(reversed(state["sim"].jobs.values())), "next_cursor": None})

    @front.get("/v1/jobs/{job_id}")
    async def get(job_id: str) -> JSONResponse:
        job = state["sim"].jobs.get(job_id)
        return JSONResponse(job) if job else unknown(job_id)

    @front.post("/v1/jobs/{job_id}/cancel")
    async def cancel(job_id: str) -> JSONResponse:
        if job_id not in state["sim"].jobs:
            return unknown(job_id)
        await state["sim"].cancel(job_id)
        return JSONResponse(state["sim"].jobs[job_id])

    @front.get("/v1/files/{file_id}")
    async def file(file_id: str) -> Response:
        stored = state["sim"].files.get(file_id)
        if stored is None:
            return JSONResponse({"detail": f"No file {file_id}"}, status_code=404)
        return Response(stored[0], media_type=stored[1])

    front.mount("/", app)
    return front
