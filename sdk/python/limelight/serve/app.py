"""``App``: a FastAPI application whose endpoints answer as the platform's HTTP runtime expects.

A short run is answered plainly (JSON, or the file itself); a run still going after
``answer_within_s`` is answered job-style, ``202 {id, status, progress, message, status_url,
cancel_url}``, and ``GET /jobs/{id}`` reports it until ``output`` (docs/publishing.md, "How a
published service runs"). ``GET /health`` says STARTING, READY, BUSY, SETUP_FAILED or DEFUNCT.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List, Optional, cast

from fastapi import Body, FastAPI, HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute

from .._waiting import within
from .inputs import InputError, read_arguments
from .jobs import CANCELLED, FAILED, SUCCEEDED, Busy, Cancelled, Job, Run, RunTable
from .media import file_answer, jsonable_media
from .setuplog import SetupLog, capturing
from .signature import Inputs, output_media_type, response_model_of
from .threads import Interruptible

STARTING, READY, BUSY, SETUP_FAILED, DEFUNCT = "STARTING", "READY", "BUSY", "SETUP_FAILED", "DEFUNCT"
# The exit status of an instance that leaves because a run's function would not stop (EX_SOFTWARE).
DEFUNCT_EXIT_CODE = 70
# How long a sync function has after a cancel to stop at its own job.check() (a clean point)
# before Cancelled is raised wherever its thread is.
INTERRUPT_AFTER_S = 1.0

_JOB_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "status": {"type": "string", "enum": ["processing", SUCCEEDED, FAILED, CANCELLED]},
        "progress": {"type": "number"},
        "message": {"type": "string", "nullable": True},
        "status_url": {"type": "string"},
        "cancel_url": {"type": "string"},
        "output": {},
        "error": {"type": "string"},
    },
}


class _ServedRoute(APIRoute):
    """FastAPI documents the route from its signature; the request itself is answered by App."""

    def get_route_handler(self):
        return cast(Any, self.endpoint).limelight_handler


class Endpoint:
    def __init__(self, fn: Callable, path: str, method: str, time_limit_s: Optional[float], model_name: str):
        self.fn, self.path, self.method, self.time_limit_s = fn, path, method, time_limit_s
        self.inputs = Inputs(fn, model_name)
        self.output_type = output_media_type(fn)


def _model_name(fn: Callable, taken: set) -> str:
    base = "".join(part[:1].upper() + part[1:] for part in fn.__name__.split("_") if part) + "Input"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}{n}", n + 1
    taken.add(name)
    return name


def _prefer(request: Request, default: float) -> float:
    """How long to wait before answering job-style: ``Prefer: respond-async`` or ``wait=N`` (RFC 7240)."""
    prefer = request.headers.get("prefer", "").lower()
    if "respond-async" in prefer:
        return 0.0
    for part in prefer.split(","):
        name, _, value = part.strip().partition("=")
        if name == "wait":
            try:
                return max(0.0, float(value))
            except ValueError:
                pass
    return default


class App:
    """A FastAPI application (``app.fastapi``) with Limelight endpoints, setup and health.

    ``App(title="…")`` makes one; ``App(existing_fastapi_app)`` adds to yours. Everything a
    FastAPI app offers (``app.get``, ``app.include_router``, …) works on the App as well.
    """

    def __init__(
        self,
        fastapi_app: Optional[FastAPI] = None,
        *,
        title: Optional[str] = None,
        concurrency: int = 1,
        answer_within_s: float = 2.0,
        setup_wait_s: float = 600,
        keep_results_s: float = 3600,
        stop_grace_s: float = 30,
        **fastapi_options: Any,
    ):
        if not isinstance(stop_grace_s, (int, float)) or stop_grace_s <= 0:
            raise ValueError(f"stop_grace_s is a number of seconds above 0, got {stop_grace_s!r}")
        if fastapi_app is None:
            fastapi_app = FastAPI(title=title or "Limelight service", **fastapi_options)
        elif title:
            fastapi_app.title = title
        self.fastapi = fastapi_app
        self.runs = RunTable(concurrency, keep_results_s)
        self.answer_within_s = answer_within_s
        self.setup_wait_s = setup_wait_s
        self.setup_log = SetupLog()
        self.setup_error: Optional[str] = None
        self.stop_grace_s = stop_grace_s
        self.defunct: Optional[str] = None  # why the instance is leaving: a function that did not stop
        self.state = STARTING
        self._setups: List[Callable] = []
        self._setup_times: Dict[str, Optional[float]] = {"started_at": None, "finished_at": None}
        self._setup_done: Optional[asyncio.Event] = None
        self._endpoints: List[Endpoint] = []
        self._model_names: set = set()
        self._executor = ThreadPoolExecutor(max_workers=concurrency + 1, thread_name_prefix="limelight-run")
        self._tasks: set = set()
        self._grace_timers: Dict[str, asyncio.TimerHandle] = {}
        self._documented = False
        self._openapi = fastapi_app.openapi
        fastapi_app.openapi = self.openapi
        self._add_platform_routes()

    # -- FastAPI's own API on the App -------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        if name == "fastapi":  # not yet set: __init__ failed part-way
            raise AttributeError(name)
        return getattr(self.fastapi, name)

    async def __call__(self, scope, receive, send) -> None:
        if self._setup_done is None and scope["type"] in ("lifespan", "http"):
            self._start_setup()
        await self.fastapi(scope, receive, send)

    # -- setup and health ---------------------------------------------------------------------------
    def setup(self, fn: Callable) -> Callable:
        """Runs ``fn`` once when the server starts, before the App is READY (load weights here)."""
        self._setups.append(fn)
        return fn

    def _start_setup(self) -> asyncio.Event:
        done = self._setup_done = asyncio.Event()
        self._keep(asyncio.get_running_loop().create_task(self._run_setup(done)))
        return done

    async def _run_setup(self, done: asyncio.Event) -> None:
        self._setup_times["started_at"] = time.time()
        loop = asyncio.get_running_loop()
        current = None
        try:
            with capturing(self.setup_log):
                for current in self._setups:
                    if inspect.iscoroutinefunction(current):
                        await current()
                    else:
                        await loop.run_in_executor(self._executor, current)
        except BaseException as error:  # noqa: B902 - any failure, SystemExit included, is a failed setup
            self.setup_error = f"setup {getattr(current, '__name__', '')}() raised {type(error).__name__}: {error}"
            for line in traceback.format_exception(type(error), error, error.__traceback__):
                self.setup_log.write(line)
            print(f"limelight: {self.setup_error}", file=sys.stderr, flush=True)
            self.state = SETUP_FAILED
        else:
            self.state = READY
        self._setup_times["finished_at"] = time.time()
        done.set()

    def health(self) -> Dict[str, Any]:
        status = self.state
        if self.defunct:
            status = DEFUNCT
        elif status == READY and self.runs.active >= self.runs.limit:
            status = BUSY
        report = {
            "status": status,
            "setup": {**self._setup_times, "error": self.setup_error, "logs": self.setup_log.lines()},
            "runs": {"active": self.runs.active, "limit": self.runs.limit, "stopping": len(self.runs.stopping)},
        }
        if self.defunct:
            report["error"] = self.defunct
        return report

    async def _until_ready(self) -> Optional[Response]:
        """None when endpoints may run; else the 503 that says why."""
        done = self._setup_done or self._start_setup()
        try:
            await within(asyncio.shield(done.wait()), self.setup_wait_s)
        except asyncio.TimeoutError:
            return JSONResponse(
                {"detail": f"The service is still starting (setup has run {self.setup_wait_s:.0f} s)"},
                status_code=503,
                headers={"Retry-After": "10"},
            )
        if self.state == SETUP_FAILED:
            return JSONResponse({"detail": f"The service's setup failed: {self.setup_error}"}, status_code=503)
        if self.defunct:
            return JSONResponse(
                {"detail": f"This instance is leaving to be replaced: {self.defunct}"},
                status_code=503,
                headers={"Retry-After": "5"},
            )
        return None

    # -- endpoints ----------------------------------------------------------------------------------
    def endpoint(
        self,
        path: str,
        *,
        method: str = "POST",
        time_limit_s: Optional[float] = None,
        summary: Optional[str] = None,
        description: Optional[str] = None,
        tags: Optional[List[str]] = None,
    ):
        """Serves the decorated function at ``path``; its typed parameters are the endpoint's inputs."""
        method = method.upper()
        if method not in ("GET", "POST"):
            raise ValueError(f"endpoint {path}: the platform runs GET and POST endpoints, not {method}")
        if not path.startswith("/") or "{" in path:
            raise ValueError(f"endpoint {path!r}: a fixed path starting with / (the platform calls fixed paths)")

        def register(fn: Callable) -> Callable:
            endpoint = Endpoint(fn, path, method, time_limit_s, _model_name(fn, self._model_names))
            self._endpoints.append(endpoint)
            self.fastapi.router.add_api_route(
                path, self._documented_function(endpoint), **self._route_options(endpoint, summary, description, tags)
            )
            self._documented = False
            self.fastapi.openapi_schema = None
            return fn

        return register

    def _documented_function(self, endpoint: Endpoint) -> Callable:
        fields = getattr(endpoint.inputs.doc_model, "model_fields", None) or getattr(
            endpoint.inputs.doc_model, "__fields__", {}
        )

        def documented(**_: Any) -> None:  # never called: _ServedRoute answers with limelight_handler
            raise NotImplementedError

        parameters = []
        if fields:
            # pydantic 1's ModelField says .required, pydantic 2's FieldInfo answers .is_required().
            required = any(
                getattr(field, "required", None) is True
                or (callable(getattr(field, "is_required", None)) and field.is_required())
                for field in fields.values()
            )
            parameters.append(
                inspect.Parameter(
                    "input",
                    inspect.Parameter.KEYWORD_ONLY,
                    annotation=endpoint.inputs.doc_model,
                    default=Body(... if required else None),
                )
            )
        documented.__signature__ = inspect.Signature(parameters)
        documented.__name__ = endpoint.fn.__name__
        cast(Any, documented).limelight_handler = functools.partial(self._handle, endpoint)
        return documented

    def _route_options(self, endpoint: Endpoint, summary, description, tags) -> Dict[str, Any]:
        doc = inspect.getdoc(endpoint.fn) or ""
        responses: Dict[Any, Any] = {
            202: {
                "description": "A long run, answered job-style: poll status_url until status is final",
                "content": {"application/json": {"schema": _JOB_SCHEMA}},
            },
            409: {"description": "Every run slot of the container is taken; retry later"},
            503: {"description": "The service is starting, or its setup failed"},
        }
        options: Dict[str, Any] = {
            "methods": [endpoint.method],
            "route_class_override": _ServedRoute,
            "summary": summary or (doc.splitlines()[0] if doc else None),
            "description": description or doc or None,
            "tags": tags,
            "operation_id": f"{endpoint.fn.__name__}_{endpoint.method.lower()}",
            "response_model": response_model_of(endpoint.fn),
        }
        if endpoint.output_type:
            responses[200] = {
                "description": "The file",
                "content": {endpoint.output_type: {"schema": {"type": "string", "format": "binary"}}},
            }
            options["response_class"] = Response
        if endpoint.time_limit_s:
            options["openapi_extra"] = {"x-limelight-time-limit-s": endpoint.time_limit_s}
        options["responses"] = responses
        return options

    def openapi(self) -> Dict[str, Any]:
        """FastAPI's document, adjusted to what the platform sends: multipart for files, a query for GET."""
        document = self._openapi()
        if self._documented:
            return document
        schemas = document.get("components", {}).get("schemas", {})
        for endpoint in self._endpoints:
            operation = document.get("paths", {}).get(endpoint.path, {}).get(endpoint.method.lower())
            body = (operation or {}).get("requestBody")
            if not body:
                continue
            content = body["content"]
            if endpoint.method == "GET":
                ref = content["application/json"]["schema"].get("$ref", "")
                schema = schemas.get(ref.rsplit("/", 1)[-1], {})
                required = set(schema.get("required", []))
                operation["parameters"] = [
                    {"name": name, "in": "query", "required": name in required, "schema": prop}
                    for name, prop in schema.get("properties", {}).items()
                ]
                del operation["requestBody"]
            elif endpoint.inputs.media:
                content["multipart/form-data"] = content.pop("application/json")
                body["description"] = (
                    "Files as uploads; the same fields also come as JSON, each file a URL, a data: URI or base64"
                )
        self._documented = True
        return document

    # -- runs ----------------------------------------------------------------------------------------
    def _add_platform_routes(self) -> None:
        async def health(request: Request) -> JSONResponse:
            if self._setup_done is None:
                self._start_setup()
            report = self.health()
            return JSONResponse(
                report, status_code=503 if report["status"] in (STARTING, SETUP_FAILED, DEFUNCT) else 200
            )

        async def job_status(run_id: str, request: Request) -> JSONResponse:
            run = self.runs.get(run_id)
            if run is None:
                return self._unknown_run(run_id)
            return JSONResponse(self._job_json(run, request))

        async def job_cancel(run_id: str, request: Request) -> JSONResponse:
            run = self.runs.get(run_id)
            if run is None:
                return self._unknown_run(run_id)
            run.cancel("the job was cancelled")
            return JSONResponse(self._job_json(run, request))

        self.fastapi.add_api_route("/health", health, methods=["GET"], include_in_schema=False)
        self.fastapi.add_api_route("/jobs/{run_id}", job_status, methods=["GET"], include_in_schema=False)
        self.fastapi.add_api_route("/jobs/{run_id}/cancel", job_cancel, methods=["POST"], include_in_schema=False)

    def _unknown_run(self, run_id: str) -> JSONResponse:
        return JSONResponse(
            {"detail": f"No run {run_id} here (finished runs are kept {self.runs.keep_s:.0f} s)"}, status_code=404
        )

    def _job_json(self, run: Run, request: Request) -> Dict[str, Any]:
        base = str(request.base_url)
        status_url, cancel_url = f"{base}jobs/{run.id}", f"{base}jobs/{run.id}/cancel"
        body: Dict[str, Any] = {
            "id": run.id,
            "job_id": run.key,
            "endpoint": run.endpoint,
            "status": run.status,
            "progress": run.progress,
            "message": run.message,
            "attempts": run.attempts,
            "status_url": status_url,
            "cancel_url": cancel_url,
            "urls": {"get": status_url, "cancel": cancel_url},
        }
        if run.status == SUCCEEDED:
            body["output"] = jsonable_encoder(jsonable_media(run.output))
        if run.error:
            body["error"] = run.error
        return body

    def _keep(self, task: asyncio.Task) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, endpoint: Endpoint, request: Request) -> Response:
        refused = await self._until_ready()
        if refused is not None:
            return refused
        key = request.headers.get("idempotency-key") or None
        attempt_header = request.headers.get("limelight-attempt", "")
        attempt = int(attempt_header) if attempt_header.isdigit() else None
        earlier = self.runs.for_key(key, attempt)
        if earlier is not None:
            return await self._answer(earlier, request)
        try:
            arguments = await read_arguments(request, endpoint.inputs)
        except InputError as error:
            return JSONResponse({"detail": f"Invalid input: {error}", "errors": error.errors}, status_code=422)
        earlier = self.runs.for_key(key, attempt)  # a redelivery that arrived while this one was read
        if earlier is not None:
            return await self._answer(earlier, request)
        try:
            run = self.runs.start(endpoint.path, key, attempt)
        except Busy as error:
            return JSONResponse({"detail": str(error)}, status_code=409, headers={"Retry-After": "1"})
        run.finished_event = asyncio.Event()
        self._keep(asyncio.get_running_loop().create_task(self._execute(endpoint, run, arguments)))
        return await self._answer(run, request)

    async def _execute(self, endpoint: Endpoint, run: Run, arguments: Dict[str, Any]) -> None:
        loop = asyncio.get_running_loop()
        if endpoint.inputs.job_param:
            arguments[endpoint.inputs.job_param] = Job(run)
        limit = endpoint.time_limit_s
        timer = loop.call_later(limit, run.cancel, f"the run exceeded its time limit of {limit:g} s") if limit else None
        name = f"{endpoint.fn.__name__}()"
        try:
            if inspect.iscoroutinefunction(endpoint.fn):
                inner = asyncio.ensure_future(endpoint.fn(**arguments))
                run.on_cancel(lambda: loop.call_soon_threadsafe(inner.cancel))
                output = await inner
            else:
                output = await self._in_thread(run, functools.partial(endpoint.fn, **arguments), name)
            if run.cancel_reason:
                raise Cancelled(run.cancel_reason)
            run.finish(SUCCEEDED, output)
        except (Cancelled, asyncio.CancelledError):
            reason = run.cancel_reason or "the run was cancelled"
            run.finish(FAILED if "time limit" in reason else CANCELLED, error=reason)
        except HTTPException as error:
            run.finish(FAILED, error=f"{name} answered {error.status_code}: {error.detail}")
        except Exception as error:  # the function's own failure, reported in words; the server goes on
            traceback.print_exc()
            run.finish(FAILED, error=f"{name} raised {type(error).__name__}: {error}")
        finally:
            if timer:
                timer.cancel()
            if run.finished_event is not None:
                run.finished_event.set()

    async def _in_thread(self, run: Run, call: Callable[[], Any], name: str) -> Any:
        """A sync function in the pool. After a cancel it has ``INTERRUPT_AFTER_S`` to stop at its
        own job.check(); then Cancelled is raised in its thread and the run ends. A thread that
        runs on even so keeps the run's slot (``stopping``) until it really stops, and past
        ``stop_grace_s`` the instance is DEFUNCT and leaves (docs/publishing.md, "Cancel")."""
        loop = asyncio.get_running_loop()
        work = Interruptible(call)
        future = loop.run_in_executor(self._executor, work)
        cancelled = loop.create_future()
        run.on_cancel(lambda: loop.call_soon_threadsafe(lambda: cancelled.done() or cancelled.set_result(None)))
        if run.cancel_reason is not None and not cancelled.done():  # cancelled before it started
            cancelled.set_result(None)
        await asyncio.wait({future, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        if not future.done():
            await asyncio.wait({future}, timeout=INTERRUPT_AFTER_S)
        if not future.done() and work.interrupt(run.cancel_reason or "the run was cancelled"):
            await asyncio.wait({future}, timeout=0.2)
        if future.done():
            return future.result()
        run.stopping = True
        future.add_done_callback(lambda done: self._stopped(run, done))
        self._grace_timers[run.id] = loop.call_later(self.stop_grace_s, self._did_not_stop, run, name)
        raise Cancelled(run.cancel_reason or "the run was cancelled")

    def _stopped(self, run: Run, future: asyncio.Future) -> None:
        """The thread of an ended run returned at last: its slot is free again."""
        if not future.cancelled():
            future.exception()  # retrieved: its outcome was already decided by the cancel
        run.stopping = False
        timer = self._grace_timers.pop(run.id, None)
        if timer is not None:
            timer.cancel()

    def _did_not_stop(self, run: Run, name: str) -> None:
        self._grace_timers.pop(run.id, None)
        if not run.stopping or self.defunct:
            return
        self.defunct = (
            f"{name} (run {run.id}) did not stop {self.stop_grace_s:g} s after "
            f"{run.cancel_reason or 'its cancel'}, and its thread cannot be killed"
        )
        print(
            f"limelight: DEFUNCT: {self.defunct}; the instance exits once its other runs end",
            file=sys.stderr,
            flush=True,
        )
        self._keep(asyncio.get_running_loop().create_task(self._exit_when_drained()))

    async def _exit_when_drained(self) -> None:
        """Lets runs still going end (new ones are refused), then exits: the platform's container
        runtime replaces an instance that exited, which is the only way to get the stuck thread's
        CPU back. ``os._exit``: a normal exit would wait for that thread forever."""
        while any(not run.done for run in self.runs.all()):
            await asyncio.sleep(0.2)
        print(f"limelight: exiting with status {DEFUNCT_EXIT_CODE}: {self.defunct}", file=sys.stderr, flush=True)
        sys.stdout.flush()
        self._exit(DEFUNCT_EXIT_CODE)

    @staticmethod
    def _exit(code: int) -> None:
        os._exit(code)

    async def _answer(self, run: Run, request: Request) -> Response:
        waiting = _prefer(request, self.answer_within_s)
        deadline = time.monotonic() + waiting
        event = run.finished_event
        while not run.done and event is not None and time.monotonic() < deadline:
            try:
                await within(asyncio.shield(event.wait()), min(0.25, max(0.0, deadline - time.monotonic())))
            except asyncio.TimeoutError:
                if await request.is_disconnected():
                    # The caller gave up on a plain answer (a cancel or its time limit): stop the run,
                    # and let a redelivery of the same job run afresh.
                    run.cancel("the request was closed before the answer")
                    self.runs.forget_key(run)
                    return Response(status_code=499)
        if not run.done:
            body = self._job_json(run, request)
            return JSONResponse(body, status_code=202, headers={"Location": body["status_url"]})
        if run.status == SUCCEEDED:
            return self._plain(run.output)
        if run.status == FAILED:
            return JSONResponse({"detail": run.error, **self._job_json(run, request)}, status_code=500)
        return JSONResponse(self._job_json(run, request))

    @staticmethod
    def _plain(output: Any) -> Response:
        if isinstance(output, Response):
            return output
        as_file = file_answer(output)
        if as_file is not None:
            return Response(as_file.read(), media_type=as_file.content_type)
        return JSONResponse(jsonable_encoder(jsonable_media(output)))
