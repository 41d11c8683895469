"""``limelight deploy``: creates or updates the container service running the pushed image.

The service runs the digest ``limelight push`` recorded (``.limelight/pushed.json``), so pushing
the tag again changes nothing until the next deploy. Its endpoints are read from the app's own
OpenAPI document, printed inside the local image that was pushed (image_schema.py: the app is never
imported here), through the platform's importer (types, bounds, files, per-endpoint time limits);
scaling and visibility come from limelight.yaml; the health check is the library's ``/health``.
The service's id is kept in ``.limelight/service.json``, so the next deploy updates it. It then
waits for the rollout of that image, printing the deployment's states and log lines as they come
(pull, start, the app's setup output, health: ``GET …/services/{id}/rollout`` since a cursor): done
only when the image serves; a rollout the runner refused or that failed (the previous version keeps
serving) is an error with the platform's reason and the last log lines.
See docs/publishing.md ("limelight push and deploy", "Rollouts").
"""

from __future__ import annotations

import json
import time
import urllib.parse
from collections import deque
from typing import Any, Callable, Deque, Dict, List, Optional, Tuple

from .._rules import CONTAINER_RUNTIME_DEFAULTS
from .image_schema import SchemaError, image_openapi
from .project import Project
from .push import PUSHED_FILE, Platform, PublishError, state_path

SERVICE_FILE = "service.json"
#: limelight.yaml's deploy settings and their defaults (docs/publishing.md, "limelight.yaml").
DEPLOY_DEFAULTS: Dict[str, Any] = {
    "visibility": "public",
    "min_instances": 0,
    "max_instances": 1,
    "idle_timeout_s": 300,
    "concurrency": CONTAINER_RUNTIME_DEFAULTS["concurrency"],
}
#: The deployment's statuses in which a rolled-out image serves (or starts on the next run).
SERVING = {"running", "scaled_to_zero"}


def _local_image(project: Project, image: str) -> Tuple[Optional[str], Optional[str]]:
    """(the local image to read the schema from, the engine): the one ``limelight push`` pushed
    (its ID and engine, in pushed.json) when deploying that push; else ``image`` itself, which the
    engine may have here."""
    path = state_path(project, PUSHED_FILE)
    pushed = json.loads(path.read_text()) if path.exists() else {}
    if isinstance(pushed, dict) and pushed.get("pinned") == image and pushed.get("local_id"):
        return str(pushed["local_id"]), pushed.get("engine")
    return image, None


def app_openapi(project: Project, image: str, log: Callable[[str], None]) -> Optional[Dict[str, Any]]:
    """The app's OpenAPI document, read inside the image it will run (limelight/cli/image_schema.py),
    never by importing the app here; None when there is no local copy of it to run (the platform
    then reads it from the container once it is healthy). A PublishError when the image cannot give it."""
    local, engine = _local_image(project, image)
    try:
        return image_openapi(local, project.entry, engine, log)
    except SchemaError as error:
        raise PublishError(f"cannot read the app's endpoints from the image {local}: {error}") from error


def endpoints_of(
    platform: Platform, document: Optional[Dict[str, Any]], log: Callable[[str], None]
) -> Optional[List[Any]]:
    if document is None:
        return None
    imported = platform.call("POST", "/v1/model_management/import_openapi", {"document": document})
    for problem in imported.get("unsupported", []):
        log(f"endpoint not imported: {problem}")
    return imported["endpoints"]


def gpu_offer(platform: Platform, project: Project) -> str:
    """limelight.yaml's ``gpu_offer``, else the first offer of the ``gpu`` tier, else the first offer."""
    if project.extra.get("gpu_offer"):
        return str(project.extra["gpu_offer"])
    offers = [offer["id"] for offer in platform.call("GET", "/v1/model_management/pricing_servers")]
    if not offers:
        raise PublishError("the platform lists no GPU offers (pricing_servers): set gpu_offer in limelight.yaml")
    matching = [offer for offer in offers if project.gpu != "none" and project.gpu in offer.lower()]
    return (matching or offers)[0]


def record_body(project: Project) -> Dict[str, Any]:
    """The service's own fields from limelight.yaml (its name, visibility and description): what
    ``limelight secrets set`` creates the service with before its first deploy, so code that reads
    a secret at setup has it on that deploy, and what every deploy saves again
    (docs/publishing.md, "Secrets")."""
    body: Dict[str, Any] = {
        "display_name": str(project.extra.get("title") or project.name),
        "visibility": project.extra.get("visibility", DEPLOY_DEFAULTS["visibility"]),
    }
    if project.extra.get("description"):
        body["model_desc"] = str(project.extra["description"])
    return body


def remember_service(project: Project, platform: Platform, service_id: str) -> None:
    """Keeps the service's id in ``.limelight/service.json``: the next deploy (or ``secrets``,
    ``versions``) from this folder uses the same service."""
    path = state_path(project, SERVICE_FILE)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"id": service_id, "base_url": platform.base_url}, indent=2) + "\n")


def service_body(project: Project, image: str, gpu: str, endpoints: Optional[List[Any]]) -> Dict[str, Any]:
    settings = {key: project.extra.get(key, default) for key, default in DEPLOY_DEFAULTS.items()}
    body: Dict[str, Any] = {
        **record_body(project),
        "runtime": {
            "type": "container",
            "image": image,
            "gpu": gpu,
            "min_instances": settings["min_instances"],
            "max_instances": settings["max_instances"],
            "idle_timeout_s": settings["idle_timeout_s"],
            "port": project.port,
            "health_path": "/health",
            "concurrency": settings["concurrency"],
        },
    }
    if project.resources:
        # What one instance may use; absent, the platform's defaults (docs/publishing.md, "Resources").
        body["runtime"]["resources"] = dict(project.resources)
    if not project.snapshot:
        # snapshot: false in limelight.yaml: the platform's runner never snapshots the service
        # (docs/deploy.md, "Snapshot cold starts"); left out, the platform's default (true).
        body["runtime"]["snapshot"] = False
    if endpoints is not None:
        body["endpoints"] = endpoints
    return body


def _saved_service(project: Project, platform: Platform) -> Optional[str]:
    path = state_path(project, SERVICE_FILE)
    if not path.exists():
        return None
    saved = json.loads(path.read_text())
    return saved.get("id") if saved.get("base_url") == platform.base_url else None


#: App log lines a failure quotes (the ones printed last).
FAILURE_LINES = 10


def _progress_path(service_id: str) -> str:
    return f"/v1/model_management/services/{urllib.parse.quote(service_id, safe='')}/rollout"


def rollout_cursor(platform: Platform, service_id: str) -> str:
    """Where the service's log lines are now: a wait started after a save prints only what came
    after it. "0" (everything) when the platform does not know the service (it is created next)."""
    try:
        return str(platform.call("GET", _progress_path(service_id)).get("cursor", "0"))
    except PublishError as error:
        if error.status == 404:
            return "0"
        raise


def _format_line(line: Dict[str, Any]) -> str:
    # The runner's own words (pull, start, health, failures) apart from the app's output.
    who = "platform" if line.get("stream") == "runner" else "app"
    return f"  {who}: {line.get('text', '')}"


def wait_for_rollout(
    platform: Platform,
    service_id: str,
    image: str,
    timeout_s: float,
    log: Callable[[str], None],
    since: Optional[str] = None,
) -> Dict[str, Any]:
    """Follows the service's rollout (``GET …/services/{id}/rollout``) until ``image``'s ends,
    printing as they come the deployment's states and its log lines written after ``since`` (the
    runner's pull, start and health words, the app's setup output; without ``since``, the last few
    first). Answers the last progress once the image serves; raises with the platform's reason and
    the last log lines when it failed (an update that did not start leaves the previous version
    ``running``, so the status alone would read as done), when the deployment failed, or when
    ``timeout_s`` passed first. See docs/publishing.md ("Rollouts")."""
    deadline = time.monotonic() + timeout_s
    last = None
    cursor = since
    app_lines: Deque[str] = deque(maxlen=FAILURE_LINES)
    while True:
        query = f"?since={urllib.parse.quote(cursor)}" if cursor is not None else ""
        try:
            progress = platform.call("GET", _progress_path(service_id) + query)
        except PublishError as error:
            if error.status == 404:
                raise PublishError(
                    f"the platform does not report the rollout of service {service_id} ({error.detail or error}): "
                    "update the platform, or follow the service's page"
                ) from error
            raise
        lines = progress.get("lines") or []
        if cursor is None:
            lines = lines[-FAILURE_LINES:]  # the first answer without a cursor: only the latest as context
        for line in lines:
            log(_format_line(line))
            if line.get("stream") != "runner":
                app_lines.append(str(line.get("text", "")))
        cursor = str(progress.get("cursor", cursor or "0"))
        status, rollout = progress.get("status"), progress.get("rollout") or {}
        # Another image's rollout (an earlier deploy) says nothing of this one: it is still pending.
        ours = rollout.get("image") == image
        step = rollout.get("status") if ours else "pending"
        reason = rollout.get("message") if ours else None
        if (status, step, reason, progress.get("message")) != last:
            last = (status, step, reason, progress.get("message"))
            log(
                f"deployment: {status}"
                + (f" ({_first_line(progress['message'])})" if progress.get("message") else "")
                + f"; rollout: {step}"
                # While in progress the deployment's message says what happens; the rollout's repeats it.
                + (f" ({reason})" if reason and step not in ("failed", "in_progress") else "")
            )
        # The lines printed, else those the runner's message quotes (lines not yet stored when it failed).
        quoted = str(progress.get("message") or "").split("\n")[1:]
        shown = list(app_lines) or [line for line in quoted if line and not line.startswith("Last log lines")]
        tail = "\nlast log lines:\n" + "\n".join(shown[-FAILURE_LINES:]) if shown else ""
        if step == "failed":
            raise PublishError(f"the rollout of {image} failed: {reason}{tail}")
        if step == "succeeded":
            if status in ("failed", "stopped"):
                raise PublishError(f"the deployment {status}: {_first_line(progress.get('message'))}{tail}")
            if status in SERVING:
                return progress
        if time.monotonic() > deadline:
            raise PublishError(
                f"the rollout of {image} is still {step} after {timeout_s:g} s (the deployment is {status}; "
                "an earlier version, if any, still serves): follow it on the service's page, "
                f"or wait longer with --wait{tail}"
            )
        if not progress.get("more"):
            time.sleep(1)


def _first_line(message: Any) -> str:
    # A failure's message quotes the container's last lines after its first: printed as lines already.
    return str(message or "").split("\n", 1)[0]


def deploy(
    project: Project,
    platform: Platform,
    *,
    image: Optional[str] = None,
    wait_s: float = 300,
    log: Callable[[str], None] = print,
) -> Dict[str, Any]:
    """Creates or updates the service and, unless ``wait_s`` is 0, waits until ``image`` serves;
    answers {id, image, page, waited}. Raises PublishError when the rollout fails or times out."""
    if image is None:
        pushed = state_path(project, PUSHED_FILE)
        if not pushed.exists():
            raise PublishError("nothing pushed from this folder yet: run `limelight push` first (or pass --image)")
        image = str(json.loads(pushed.read_text())["pinned"])
    endpoints = endpoints_of(platform, app_openapi(project, image, log), log)
    body = service_body(project, image, gpu_offer(platform, project), endpoints)
    service_id = _saved_service(project, platform)
    service = None
    # The log lines from here on are this deploy's: the wait prints those, not older ones.
    since = rollout_cursor(platform, service_id) if service_id and wait_s > 0 else "0"
    if service_id:
        try:
            service = platform.call("PATCH", f"/v1/model_management/services/{service_id}", body)
            log(f"updated service {service_id} to {image}")
        except PublishError as error:
            if error.status not in (403, 404):  # deleted meanwhile, or another account's: create anew
                raise
    if service is None:
        service = platform.call("POST", "/v1/model_management/services", body)
        log(f"created service {service['id']} running {image}")
    remember_service(project, platform, str(service["id"]))
    if wait_s > 0:
        wait_for_rollout(platform, service["id"], image, wait_s, log, since=since)
    return {
        "id": service["id"],
        "image": image,
        "page": f"{platform.base_url}/APIs/service/{service['id']}",
        "waited": wait_s > 0,
    }
