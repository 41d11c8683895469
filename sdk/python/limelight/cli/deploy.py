"""``limelight deploy``: creates or updates the container service running the pushed image.

The service runs the digest ``limelight push`` recorded (``.limelight/pushed.json``), so pushing
the tag again changes nothing until the next deploy. Its endpoints are read from the app's own
OpenAPI document, printed inside the local image that was pushed (image_schema.py: the app is never
imported here), through the platform's importer (types, bounds, files, per-endpoint time limits);
scaling and visibility come from limelight.yaml; the health check is the library's ``/health``.
The service's id is kept in ``.limelight/service.json``, so the next deploy updates it. It then
waits for the rollout of that image: done only when the image serves; a rollout the runner
refused or that failed (the previous version keeps serving) is an error with the platform's reason.
See docs/publishing.md ("limelight push and deploy", "Rollouts").
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

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


def service_body(project: Project, image: str, gpu: str, endpoints: Optional[List[Any]]) -> Dict[str, Any]:
    settings = {key: project.extra.get(key, default) for key, default in DEPLOY_DEFAULTS.items()}
    body: Dict[str, Any] = {
        "display_name": str(project.extra.get("title") or project.name),
        "visibility": settings["visibility"],
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
    if project.extra.get("description"):
        body["model_desc"] = str(project.extra["description"])
    if endpoints is not None:
        body["endpoints"] = endpoints
    return body


def _saved_service(project: Project, platform: Platform) -> Optional[str]:
    path = state_path(project, SERVICE_FILE)
    if not path.exists():
        return None
    saved = json.loads(path.read_text())
    return saved.get("id") if saved.get("base_url") == platform.base_url else None


def _log_tail(hosting: Dict[str, Any]) -> str:
    lines = [
        str(line.get("text", line.get("line", line))) if isinstance(line, dict) else str(line)
        for line in (hosting.get("logs") or [])[-10:]
    ]
    return "\n" + "\n".join(lines) if lines else ""


def wait_for_rollout(
    platform: Platform, service_id: str, image: str, timeout_s: float, log: Callable[[str], None]
) -> Dict[str, Any]:
    """Follows model_hosting_information until ``image``'s rollout ends: answers the hosting
    information once it serves; raises with the platform's reason when it failed (an update that
    did not start leaves the previous version ``running``, so the status alone would read as done),
    when the deployment failed, or when ``timeout_s`` passed first."""
    deadline = time.monotonic() + timeout_s
    last = None
    while True:
        hosting = platform.call("GET", f"/v1/model_management/model_hosting_information?model_id={service_id}")
        if "rollout" not in hosting:
            raise PublishError(
                "the platform does not report rollouts (model_hosting_information has no `rollout`), "
                "so whether this image serves cannot be known: update the platform, "
                f"or follow the service's page (its deployment is {hosting.get('status')})"
            )
        status, rollout = hosting.get("status"), hosting.get("rollout") or {}
        # Another image's rollout (an earlier deploy) says nothing of this one: it is still pending.
        ours = rollout.get("image") == image
        step = rollout.get("status") if ours else "pending"
        reason = rollout.get("message") if ours else None
        if (status, step, reason) != last:
            last = (status, step, reason)
            log(
                f"deployment: {status}"
                + (f" ({hosting['message']})" if hosting.get("message") else "")
                + f"; rollout: {step}"
                + (f" ({reason})" if reason and step != "failed" else "")
            )
        if step == "failed":
            raise PublishError(f"the rollout of {image} failed: {reason}{_log_tail(hosting)}")
        if step == "succeeded":
            if status in ("failed", "stopped"):
                raise PublishError(f"the deployment {status}: {hosting.get('message')}{_log_tail(hosting)}")
            if status in SERVING:
                return hosting
        if time.monotonic() > deadline:
            raise PublishError(
                f"the rollout of {image} is still {step} after {timeout_s:g} s (the deployment is {status}; "
                "an earlier version, if any, still serves): follow it on the service's page, "
                "or wait longer with --wait"
            )
        time.sleep(1)


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
    path = state_path(project, SERVICE_FILE)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"id": service["id"], "base_url": platform.base_url}, indent=2) + "\n")
    if wait_s > 0:
        wait_for_rollout(platform, service["id"], image, wait_s, log)
    return {
        "id": service["id"],
        "image": image,
        "page": f"{platform.base_url}/APIs/service/{service['id']}",
        "waited": wait_s > 0,
    }
