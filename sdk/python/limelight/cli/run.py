"""``limelight run``: the built image run here and one endpoint called as the platform calls it.

    limelight run [ENDPOINT] -i name=value [-i file=@path] [--image REF] [--output DIR]

Like ``cog predict``: the image (``localhost/<name>:latest``, what ``limelight build`` made, or
``--image``) starts with the container engine on a free port bound to 127.0.0.1, and the call is
the platform's HTTP runtime's (docs/publishing.md, "Try the built image locally"):

- inputs are typed by the endpoint's parameters, read from the image's OpenAPI document (inside
  the image with no network, image_schema.py; from the running container for an image
  ``limelight build`` did not make): ``steps=4`` is a number where the endpoint takes one;
- the container is called once its health path answers 2xx (``/health`` for a limelight.serve
  image), as the runner's health gate does;
- the input goes as JSON, or as ``multipart/form-data`` with the files' bytes when a file is given
  (``-i image=@cat.png``), with ``Idempotency-Key`` and ``Limelight-Attempt``; a job-style answer
  (202 with a ``status_url``) is followed on the container's own address;
- files in the answer (a file answered as such, ``{content_type, content}`` or a ``data:`` URI in
  JSON) are written under ``--output`` and named by their place in the answer, never outside it;
- ``-e NAME`` gives the container what the platform gives it from the service's secrets: the
  variable's value from this environment (or ``-e NAME=VALUE``), handed to the engine through its
  environment, never its command line.

The container is always stopped and removed: after the answer, on an error and on Ctrl-C.
Bad input (an unknown name, a missing ``@file``, an unknown endpoint) is one line and exit 2.
"""

from __future__ import annotations

import argparse
import base64
import json
import mimetypes
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .._rules import CONTAINER_RUNTIME_DEFAULTS
from . import project as project_file
from .app import CliError
from .build import BuildError, engine_command
from .image_schema import ENTRY_LABEL, SchemaError, labels, run_schema

HELP = "run the built image here and call an endpoint as the platform does (like cog predict)"
#: How long the container has to pass its health check (the app's setup included).
READY_TIMEOUT_S = 300.0
#: A run's longest wait for its answer (the platform's longest endpoint time limit is 3600 s).
CALL_TIMEOUT_S = 3600.0
#: Between status polls of a job-style answer, as the platform's HTTP runtime waits (500 ms).
POLL_S = 0.5
#: The largest answer read, as the platform's HTTP runtime's default bound (50 MB).
MAX_ANSWER_BYTES = 50 * 1024 * 1024
#: Writable scratch of the platform's instances (reference-app/server/hosting/limits.ts): the rest is read-only.
SCRATCH_MOUNTS = {"/tmp": 64, "/var/tmp": 64, "/run": 8, "/dev/shm": 64}
_PENDING = {"queued", "pending", "starting", "processing", "running", "in_progress", "in_queue", "in progress"}
_SUCCEEDED = {"finished", "succeeded", "completed", "complete", "done", "success", "ok"}
_FAILED = {"failed", "error", "timeout", "timed_out"}
_CANCELLED = {"canceled", "cancelled", "aborted"}
_DATA_URI = re.compile(r"^data:([\w.+-]+/[\w.+-]+)(?:;[^,]*)?;base64,(.*)$", re.S)
_MEDIA_TYPE = re.compile(r"^[\w.+-]+/[\w.+-]+")


class InputError(Exception):
    """Bad input on the command line: one line, exit 2."""


# -- the endpoints, from the OpenAPI document -------------------------------------------------------
@dataclass
class Parameter:
    name: str
    type: str  # string, integer, number, boolean, array, object or file
    required: bool = False
    items: Optional[str] = None


@dataclass
class Endpoint:
    method: str
    path: str
    parameters: List[Parameter] = field(default_factory=list)

    def parameter(self, name: str) -> Optional[Parameter]:
        return next((p for p in self.parameters if p.name == name), None)


def _resolve(document: Dict[str, Any], value: Any, depth: int = 0) -> Dict[str, Any]:
    """A schema with its $ref followed and FastAPI's Optional (anyOf X, null) and allOf reduced,
    as the platform's importer does (reference-app/server/publishing/openapiImport.ts)."""
    if not isinstance(value, dict) or depth > 32:
        return {}
    ref = value.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = document
        for part in ref[2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(target, dict) else None
        return _resolve(document, {**(target or {}), **{k: v for k, v in value.items() if k != "$ref"}}, depth + 1)
    for key in ("anyOf", "oneOf"):
        if isinstance(value.get(key), list):
            options = [_resolve(document, o, depth + 1) for o in value[key]]
            kept = [o for o in options if o.get("type") != "null"]
            rest = {k: v for k, v in value.items() if k != key}
            return _resolve(document, {**kept[0], **rest}, depth + 1) if len(kept) == 1 else {}
    if isinstance(value.get("allOf"), list):
        merged: Dict[str, Any] = {}
        for part in value["allOf"]:
            merged.update(_resolve(document, part, depth + 1))
        merged.update({k: v for k, v in value.items() if k != "allOf"})
        return _resolve(document, merged, depth + 1)
    if isinstance(value.get("type"), list):
        types = [t for t in value["type"] if t != "null"]
        return {**value, "type": types[0]} if len(types) == 1 else {}
    return value


def _kind(schema: Dict[str, Any]) -> Optional[str]:
    kind = schema.get("type")
    if kind == "string" and (schema.get("format") == "binary" or "contentMediaType" in schema):
        return "file"
    if kind in ("string", "integer", "number", "boolean", "array", "object"):
        return kind
    if kind is None and isinstance(schema.get("enum"), list):
        return "string"
    if kind is None and isinstance(schema.get("properties"), dict):
        return "object"
    return None


def _parameter(document: Dict[str, Any], name: str, raw: Any, required: bool) -> Parameter:
    schema = _resolve(document, raw)
    kind = _kind(schema) or "string"
    items = _kind(_resolve(document, schema.get("items"))) if kind == "array" else None
    if items == "file":
        kind, items = "file", None
    return Parameter(name, kind, required, items)


def endpoints_of(document: Dict[str, Any]) -> List[Endpoint]:
    """The endpoints the platform imports from ``document``: GET and POST on fixed paths, their
    query parameters and the properties of a JSON or form body."""
    found: List[Endpoint] = []
    for path, item in (document.get("paths") or {}).items():
        if not isinstance(item, dict) or re.search(r"\{[^}]+\}", path):
            continue
        for method in ("get", "post"):
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            parameters = []
            for raw in list(item.get("parameters") or []) + list(operation.get("parameters") or []):
                declared = _resolve(document, raw)
                if declared.get("in") == "query":
                    parameters.append(
                        _parameter(
                            document, str(declared.get("name")), declared.get("schema"), bool(declared.get("required"))
                        )
                    )
            content = _resolve(document, operation.get("requestBody")).get("content") or {}
            media = next(
                (
                    m
                    for m in ("application/json", "multipart/form-data", "application/x-www-form-urlencoded")
                    if m in content
                ),
                None,
            )
            if media:
                body = _resolve(document, (content[media] or {}).get("schema"))
                required = set(body.get("required") or [])
                for name, raw in (body.get("properties") or {}).items():
                    parameters.append(_parameter(document, name, raw, name in required))
            found.append(Endpoint(method.upper(), path, parameters))
    return found


def choose_endpoint(endpoints: List[Endpoint], wanted: Optional[str]) -> Endpoint:
    listed = ", ".join(e.path.lstrip("/") for e in endpoints) or "none"
    if wanted is None:
        if len(endpoints) == 1:
            return endpoints[0]
        raise InputError(f"name the endpoint to call (limelight run ENDPOINT -i …): the image has {listed}")
    path = "/" + wanted.strip().lstrip("/")
    chosen = [e for e in endpoints if e.path == path]
    if not chosen:
        raise InputError(f"the image has no endpoint {wanted!r}: it has {listed}")
    return next((e for e in chosen if e.method == "POST"), chosen[0])


# -- inputs ------------------------------------------------------------------------------------------
@dataclass
class LocalFile:
    """A file input: its bytes and media type, sent as an upload as the platform sends stored files."""

    path: Path
    data: bytes
    content_type: str


def split_inputs(pairs: List[str]) -> List[Tuple[str, str]]:
    """``name=value`` pairs in order; a malformed one or a missing ``@file`` is an InputError."""
    found = []
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name.strip():
            raise InputError(f"-i {pair!r}: give name=value (a file as name=@path)")
        if value.startswith("@") and not Path(value[1:]).expanduser().is_file():
            raise InputError(f"-i {name}: no file {value[1:]!r}")
        found.append((name.strip(), value))
    return found


def environment_of(pairs: List[str], environ: Dict[str, str]) -> Dict[str, str]:
    """``-e NAME`` (its value from ``environ``, as ``docker run -e NAME``) or ``-e NAME=VALUE``: the
    variables the container starts with, as the platform starts it with the service's secrets.
    Names follow the secrets' rules (secrets.py), so what runs here can be set there; an InputError
    names a bad or unset one."""
    from .secrets import name_problem

    found: Dict[str, str] = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        problem = name_problem(name)
        if problem:
            raise InputError(f"-e {problem}")
        if not equals:
            if name not in environ:
                raise InputError(f"-e {name} is not set here: export {name}=… first, or give -e {name}=VALUE")
            value = environ[name]
        if "\0" in value:
            raise InputError(f"-e {name}: the value contains a NUL character")
        found[name] = value
    return found


def _read_file(name: str, value: str) -> Any:
    if value.startswith("@"):
        path = Path(value[1:]).expanduser()
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return LocalFile(path, path.read_bytes(), content_type)
    match = _DATA_URI.match(value)
    if match:
        try:
            return LocalFile(Path(name), base64.b64decode(match.group(2), validate=True), match.group(1))
        except ValueError as error:
            raise InputError(f"-i {name}: the data: URI's base64 is not valid") from error
    if value.startswith(("http://", "https://")):
        return value  # fetched by the container, as the app fetches a URL input
    raise InputError(f"-i {name} is a file: give {name}=@path (or a data: URI or an http(s) URL)")


def _convert(parameter: Parameter, value: str, kind: Optional[str] = None) -> Any:
    kind = kind or parameter.type
    name = parameter.name
    if kind == "file":
        return _read_file(name, value)
    if value.startswith("@"):
        raise InputError(f"-i {name} takes a {kind}, not a file")
    try:
        if kind == "integer":
            return int(value)
        if kind == "number":
            number = float(value)
            return int(number) if number.is_integer() and re.fullmatch(r"[+-]?\d+", value.strip()) else number
    except ValueError as error:
        raise InputError(f"-i {name} takes a{'n' if kind == 'integer' else ''} {kind}, got {value!r}") from error
    if kind == "boolean":
        lowered = value.strip().lower()
        if lowered in ("true", "1", "yes", "on"):
            return True
        if lowered in ("false", "0", "no", "off"):
            return False
        raise InputError(f"-i {name} takes true or false, got {value!r}")
    if kind in ("array", "object"):
        try:
            decoded = json.loads(value)
        except ValueError:
            decoded = None
        if kind == "object" and not isinstance(decoded, dict):
            raise InputError(f"-i {name} takes a JSON object, got {value!r}")
        if kind == "array":
            return decoded if isinstance(decoded, list) else [_convert(parameter, value, parameter.items or "string")]
        return decoded
    return value


def typed_inputs(endpoint: Endpoint, pairs: List[Tuple[str, str]]) -> Dict[str, Any]:
    """The input the platform would send: each value typed by its parameter; a name given again
    adds to a list (an array or several files)."""
    known = ", ".join(p.name for p in endpoint.parameters) or "none"
    values: Dict[str, Any] = {}
    for name, value in pairs:
        parameter = endpoint.parameter(name)
        if parameter is None:
            raise InputError(f"{endpoint.path} has no input {name!r}: its inputs are {known}")
        converted = _convert(parameter, value)
        if name in values:
            if parameter.type not in ("array", "file"):
                raise InputError(f"-i {name} is given twice ({name} takes one {parameter.type})")
            before = values[name] if isinstance(values[name], list) else [values[name]]
            values[name] = before + (converted if isinstance(converted, list) else [converted])
        else:
            values[name] = converted
    missing = [p.name for p in endpoint.parameters if p.required and p.name not in values]
    if missing:
        raise InputError(f"{endpoint.path} needs {', '.join(missing)}: give -i {missing[0]}=…")
    return values


# -- the call ----------------------------------------------------------------------------------------
def _extension(content_type: str) -> str:
    base = content_type.split(";")[0].strip().lower()
    return {"image/jpeg": ".jpg", "text/plain": ".txt", "audio/mpeg": ".mp3"}.get(base) or (
        mimetypes.guess_extension(base) or "." + (re.split(r"[;+]", base.split("/")[-1])[0] or "bin")
    )


def _multipart(values: Dict[str, Any]) -> Tuple[bytes, str]:
    boundary = f"limelight-{uuid.uuid4().hex}"
    parts: List[bytes] = []
    for name, value in values.items():
        for item in value if isinstance(value, list) and any(isinstance(v, LocalFile) for v in value) else [value]:
            if isinstance(item, LocalFile):
                # As the platform names an upload: the input's name and the type's extension.
                head = (
                    f'Content-Disposition: form-data; name="{name}"; filename="{name}{_extension(item.content_type)}"\r\n'
                    f"Content-Type: {item.content_type}\r\n\r\n"
                )
                parts.append(f"--{boundary}\r\n{head}".encode() + item.data + b"\r\n")
            else:
                text = (
                    json.dumps(item)
                    if isinstance(item, (dict, list))
                    else str(item).lower()
                    if isinstance(item, bool)
                    else str(item)
                )
                head = f'Content-Disposition: form-data; name="{name}"\r\n\r\n'
                parts.append(f"--{boundary}\r\n{head}".encode() + text.encode() + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def request_of(endpoint: Endpoint, values: Dict[str, Any]) -> Tuple[str, Optional[bytes], Dict[str, str]]:
    """(query, body, headers) as the platform's HTTP runtime builds them: a GET's query, JSON, or a
    form with the files' bytes when a file is given."""
    if endpoint.method == "GET":
        query = {
            n: json.dumps(v) if isinstance(v, (dict, list)) else str(v).lower() if isinstance(v, bool) else str(v)
            for n, v in values.items()
        }
        return urllib.parse.urlencode(query), None, {}
    files = any(
        isinstance(v, LocalFile) or (isinstance(v, list) and any(isinstance(i, LocalFile) for i in v))
        for v in values.values()
    )
    if not files:
        return "", json.dumps(values).encode(), {"Content-Type": "application/json"}
    body, content_type = _multipart(values)
    return "", body, {"Content-Type": content_type}


def _opener() -> urllib.request.OpenerDirector:
    # http only and no redirects, as the platform calls a container (a 3xx is an answer).
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.HTTPHandler,
        urllib.request.HTTPDefaultErrorHandler,
        urllib.request.HTTPErrorProcessor,
    ):
        opener.add_handler(handler())
    return opener


def _send(
    url: str, method: str, body: Optional[bytes], headers: Dict[str, str], timeout: float
) -> Tuple[int, Any, bytes]:
    request = urllib.request.Request(url, data=body, headers=headers, method=method)
    try:
        with _opener().open(request, timeout=timeout) as response:
            return response.status, response.headers, response.read(MAX_ANSWER_BYTES + 1)
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read(MAX_ANSWER_BYTES + 1)


def _detail(data: bytes) -> str:
    text = data.decode("utf-8", "replace")
    try:
        body = json.loads(text)
        if isinstance(body, dict):
            for key in ("detail", "message", "error"):
                if key in body:
                    said = body[key]
                    return said if isinstance(said, str) else json.dumps(said)
    except ValueError:
        pass
    return " ".join(text.split())[:500] or "no details"


@dataclass
class Answer:
    """What the service answered: a JSON result, text, or a file's bytes."""

    result: Any = None
    file: Optional[Tuple[bytes, str]] = None


def call(base_url: str, endpoint: Endpoint, values: Dict[str, Any], log: Callable[[str], None]) -> Answer:
    """Calls the endpoint once, as the platform's HTTP runtime does, following a job-style answer."""
    query, body, headers = request_of(endpoint, values)
    job_id = str(uuid.uuid4())
    delivery = {"Idempotency-Key": job_id, "Limelight-Attempt": "1", "limelight-platform-request": "1"}
    url = base_url + endpoint.path + (f"?{query}" if query else "")
    deadline = time.monotonic() + CALL_TIMEOUT_S
    status, answered, data = _send(url, endpoint.method, body, {**delivery, **headers}, CALL_TIMEOUT_S)
    shown = -1.0
    while True:
        if len(data) > MAX_ANSWER_BYTES:
            raise CliError(f"the service answered more than {MAX_ANSWER_BYTES} bytes (the platform's limit)")
        if 300 <= status < 400:
            raise CliError(f"the service answered {status} (a redirect); the platform does not follow redirects")
        if status >= 400:
            raise CliError(f"the service answered {status}: {_detail(data)}")
        content_type = (answered.get("Content-Type") or "application/octet-stream").split(";")[0].strip().lower()
        if not (content_type == "application/json" or content_type.endswith("+json")):
            if content_type.startswith("text/"):
                return Answer(result=data.decode("utf-8", "replace"))
            return Answer(file=(data, content_type))
        try:
            result = json.loads(data.decode("utf-8"))
        except ValueError as error:
            raise CliError("the service answered invalid JSON") from error
        job = result if isinstance(result, dict) else {}
        job_key = job.get("id", job.get("job_id", job.get("request_id")))
        state = job.get("status")
        if not isinstance(job_key, (str, int)) or not isinstance(state, str):
            return Answer(result=result)
        state = state.lower()
        if isinstance(job.get("progress"), (int, float)) and job["progress"] != shown:
            shown = float(job["progress"])
            fraction = shown / 100 if shown > 1 else shown
            log(f"progress {fraction:.0%}" + (f": {job['message']}" if isinstance(job.get("message"), str) else ""))
        if state in _SUCCEEDED:
            return Answer(result=next((job[k] for k in ("output", "result", "data") if job.get(k) is not None), None))
        if state in _FAILED:
            raise CliError(f"the service's job failed: {job.get('error') or job.get('message') or state}")
        if state in _CANCELLED:
            raise CliError("the service cancelled the job")
        if state not in _PENDING:
            raise CliError(f"the service answered an unknown job status {state!r}")
        status_url = (
            next(
                (
                    u
                    for u in (
                        job.get("urls", {}).get("get") if isinstance(job.get("urls"), dict) else None,
                        job.get("status_url"),
                    )
                    if isinstance(u, str)
                ),
                None,
            )
            or answered.get("Location")
            or f"/status?job_id={urllib.parse.quote(str(job_key))}"
        )
        status_url = urllib.parse.urljoin(url, status_url)
        if urllib.parse.urlsplit(status_url)[:2] != urllib.parse.urlsplit(base_url)[:2]:
            raise CliError("the service named another address as its job's status URL; only its own address is called")
        if time.monotonic() > deadline:
            raise CliError(f"the job did not end within {CALL_TIMEOUT_S:g} s")
        time.sleep(POLL_S)
        status, answered, data = _send(status_url, "GET", None, delivery, 60)


# -- files in the answer -----------------------------------------------------------------------------
def _safe_name(text: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip(".-")
    return cleaned[:100] or "output"


def _write(folder: Path, stem: str, data: bytes, content_type: str, log: Callable[[str], None]) -> str:
    """Writes ``data`` as ``stem`` plus the type's extension inside ``folder`` (a number added
    rather than overwriting a file there); answers the path written."""
    folder.mkdir(parents=True, exist_ok=True)
    root = folder.resolve()
    name, extension = _safe_name(stem), _extension(content_type)
    target = root / f"{name}{extension}"
    number = 1
    while target.exists():
        target = root / f"{name}-{number}{extension}"
        number += 1
    if target.resolve().parent != root:  # the name is ours, cleaned: a guard, not a hope
        raise CliError(f"refusing to write {target} outside {root}")
    target.write_bytes(data)
    shown = str(folder / target.name)
    log(f"wrote {shown} ({content_type}, {len(data)} bytes)")
    return shown


def _media(value: Any) -> Optional[Tuple[bytes, str]]:
    """A file inside a JSON answer, as the platform stores it: a data: URI or {content_type, content}."""
    try:
        if isinstance(value, str):
            match = _DATA_URI.match(value)
            return (base64.b64decode(match.group(2)), match.group(1)) if match else None
        if isinstance(value, dict):
            content_type = value.get("content_type", value.get("media_type"))
            if (
                isinstance(content_type, str)
                and _MEDIA_TYPE.match(content_type)
                and isinstance(value.get("content"), str)
            ):
                return base64.b64decode(value["content"]), content_type
    except ValueError:
        return None
    return None


def write_files(value: Any, folder: Path, log: Callable[[str], None], stem: str = "output", depth: int = 0) -> Any:
    """``value`` with each file in it written under ``folder`` and replaced by its path."""
    media = _media(value)
    if media:
        return _write(folder, stem, media[0], media[1], log)
    if depth > 32:
        return value
    if isinstance(value, list):
        return [write_files(v, folder, log, f"{stem}-{i}", depth + 1) for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {
            k: write_files(v, folder, log, k if stem == "output" else f"{stem}-{k}", depth + 1)
            for k, v in value.items()
        }
    return value


# -- the container -----------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _image_port(engine: str, image: str, fallback: int) -> int:
    done = subprocess.run(
        [engine, "image", "inspect", "--format", "{{json .Config.Env}}", image], capture_output=True, text=True
    )
    try:
        env = json.loads(done.stdout.strip() or "null") or []
    except ValueError:
        env = []
    port = next((e.split("=", 1)[1] for e in env if isinstance(e, str) and e.startswith("PORT=")), "")
    return int(port) if port.isdigit() else fallback


def _tail(engine: str, name: str, count: int = 20) -> str:
    done = subprocess.run([engine, "logs", "--tail", str(count), name], capture_output=True, text=True)
    lines = (done.stdout + done.stderr).strip().splitlines()
    return ("\n" + "\n".join(f"  | {line}" for line in lines)) if lines else ""


def _running(engine: str, name: str) -> bool:
    done = subprocess.run([engine, "inspect", "--format", "{{.State.Running}}", name], capture_output=True, text=True)
    return done.stdout.strip() == "true"


def wait_ready(engine: str, name: str, base_url: str, health_path: str, timeout_s: float) -> None:
    """Polls the health path until it answers 2xx, as the runner's health gate does."""
    deadline, attempts, said = time.monotonic() + timeout_s, 0, "no answer"
    while time.monotonic() < deadline:
        attempts += 1
        try:
            status = _send(base_url + health_path, "GET", None, {}, 2)[0]
            if 200 <= status < 300:
                return
            said = f"GET {health_path} answered {status}"
        except OSError as error:
            said = f"GET {health_path}: {getattr(error, 'reason', error)}"
        if attempts % 10 == 0 and not _running(engine, name):
            raise CliError(f"the container exited before it answered{_tail(engine, name)}")
        time.sleep(0.2)
    raise CliError(f"the health check failed for {timeout_s:g} s: {said}{_tail(engine, name)}")


def start_command(
    engine: str, image: str, name: str, host_port: int, port: int, env_names: Sequence[str] = ()
) -> List[str]:
    """The engine's run command: the platform's isolation (reference-app/server/hosting/limits.ts:
    no capabilities, no new privileges, a read-only root with tmpfs scratch) and the port
    published on 127.0.0.1 only. ``env_names`` are passed by name only (``-e NAME``): the engine
    reads their values from its own environment, so a secret is never on a command line."""
    scratch = [f"--tmpfs={path}:rw,noexec,nosuid,nodev,size={mb}m" for path, mb in SCRATCH_MOUNTS.items()]
    return [
        engine,
        "run",
        "-d",
        "--name",
        name,
        "--pull",
        "never",
        "--cap-drop",
        "all",
        "--security-opt",
        "no-new-privileges",
        "--read-only",
        *scratch,
        "-e",
        f"PORT={port}",
        *[flag for env_name in env_names for flag in ("-e", env_name)],
        "-p",
        f"127.0.0.1:{host_port}:{port}",
        image,
    ]


# -- the command -------------------------------------------------------------------------------------
def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("endpoint", nargs="?", help="the endpoint's path, e.g. count (default: the only one)")
    parser.add_argument(
        "-i", "--input", action="append", default=[], metavar="NAME=VALUE", help="an input; a file as NAME=@path"
    )
    parser.add_argument(
        "--image", help="the image to run (default: localhost/<name>:latest, what limelight build made)"
    )
    parser.add_argument(
        "-e",
        "--env",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="an environment variable of the container, as a secret on the platform; NAME alone takes its value from here",
    )
    parser.add_argument("--output", default=".", metavar="DIR", help="where returned files are written (default: here)")
    parser.add_argument(
        "--engine", choices=["podman", "docker"], help="the container engine (default: whichever is there)"
    )


def _interrupted(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def execute(args: argparse.Namespace, log: Callable[[str], None]) -> Any:
    pairs = split_inputs(args.input)  # a missing @file is said before anything starts
    variables = environment_of(args.env, dict(os.environ))
    folder = Path(".")
    project = project_file.load(folder) if (folder / project_file.FILE_NAME).exists() else None
    if args.image is None and project is None:
        raise InputError(f"no {project_file.FILE_NAME} here: run in the service's folder or give --image")
    image = args.image or f"localhost/{project.name}:latest"  # type: ignore[union-attr]
    try:
        engine = engine_command(args.engine)
    except BuildError as error:
        raise CliError(str(error)) from error
    found = labels(engine, image)
    if found is None:
        raise CliError(f"no local image {image}: run limelight build first (or give --image)")
    document: Optional[Dict[str, Any]] = None
    endpoint: Optional[Endpoint] = None
    values: Dict[str, Any] = {}
    if ENTRY_LABEL in found:
        try:
            document = run_schema(engine, image, found[ENTRY_LABEL] or (project.entry if project else "main:app"))
        except SchemaError as error:
            raise CliError(f"cannot read the endpoints inside {image}: {error}") from error
        endpoint = choose_endpoint(endpoints_of(document), args.endpoint)
        values = typed_inputs(endpoint, pairs)
    default_port = project.port if project else int(CONTAINER_RUNTIME_DEFAULTS["port"])
    port = _image_port(engine, image, default_port)
    health_path = found.get("dev.limelight.health_path") or str(CONTAINER_RUNTIME_DEFAULTS["health_path"])
    name = f"limelight-run-{uuid.uuid4().hex[:12]}"
    host_port = _free_port()
    base_url = f"http://127.0.0.1:{host_port}"
    previous = signal.signal(signal.SIGTERM, _interrupted)
    try:
        log(f"starting {image} ({Path(engine).name}, 127.0.0.1:{host_port})")
        started = subprocess.run(
            start_command(engine, image, name, host_port, port, list(variables)),
            capture_output=True,
            text=True,
            env={**os.environ, **variables},
        )
        if started.returncode != 0:
            said = (started.stderr or started.stdout).strip().splitlines()
            raise CliError(f"the container did not start: {said[-1] if said else f'exit {started.returncode}'}")
        wait_ready(engine, name, base_url, health_path, READY_TIMEOUT_S)
        if endpoint is None:  # an image limelight build did not make: its document from the container
            _, _, data = _send(base_url + "/openapi.json", "GET", None, {}, 30)
            try:
                document = json.loads(data)
            except ValueError as error:
                raise CliError(f"{image} serves no OpenAPI document at /openapi.json") from error
            endpoint = choose_endpoint(endpoints_of(document or {}), args.endpoint)
            values = typed_inputs(endpoint, pairs)
        log(f"calling {endpoint.method} {endpoint.path}")
        answer = call(base_url, endpoint, values, log)
    finally:
        # Podman's rm -f waits out the stop timeout (10 s) unless told not to; Docker's kills at once.
        subprocess.run(
            [engine, "rm", "-f", *(["-t", "0"] if engine.endswith("podman") else []), name], capture_output=True
        )
        signal.signal(signal.SIGTERM, previous)
    output = Path(args.output)
    if answer.file is not None:
        return _write(output, "output", answer.file[0], answer.file[1], log)
    return write_files(answer.result, output, log)


def run(args: argparse.Namespace) -> int:
    """``limelight run``: bad input exits 2, a failed run 1, Ctrl-C 130; the container is gone in each case."""

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        result = execute(args, log)
    except InputError as error:
        print(f"limelight run: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("limelight run: interrupted (the container is removed)", file=sys.stderr)
        return 130
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0
