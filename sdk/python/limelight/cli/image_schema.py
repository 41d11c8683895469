"""The app's OpenAPI document read inside its built image, as Cog reads a model's schema.

``limelight deploy`` used to import ``main.py`` on the publisher's machine: that ran the service's
code with the host's Python, and failed (the endpoints then left to the platform) whenever the
image had packages the host lacks. Instead the image runs ``python3 -m limelight.serve.schema
<entry>`` (limelight/serve/schema.py) with the container engine the build used: no network, no
capabilities, a time limit and a bound on what it prints, and the container removed afterwards
(docs/publishing.md, "limelight push and deploy"; docs/security.md, the publisher's side).
"""

from __future__ import annotations

import json
import subprocess
import threading
import uuid
from typing import IO, Any, Callable, Dict, List, Optional

from .build import BuildError, engine_command

#: How long the image may take to import the app and print its document.
TIMEOUT_S = 120.0
#: The largest document read; more is an error, not a memory hog.
MAX_BYTES = 8 * 1024 * 1024
#: The label ``limelight build`` puts on its images (limelight/cli/build.py): the app's entry.
ENTRY_LABEL = "dev.limelight.entry"


class SchemaError(Exception):
    """The image could not give its OpenAPI document: the message says why."""


def labels(engine: str, image: str) -> Optional[Dict[str, str]]:
    """The local image's labels; None when the engine has no such image here."""
    done = subprocess.run(
        [engine, "image", "inspect", "--format", "{{json .Config.Labels}}", image], capture_output=True, text=True
    )
    if done.returncode != 0:
        return None
    try:
        found = json.loads(done.stdout.strip().splitlines()[0] if done.stdout.strip() else "null")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _read(stream: IO[bytes], into: List[bytes], limit: int, over: threading.Event) -> None:
    size = 0
    while True:
        chunk = stream.read(65536)
        if not chunk:
            return
        size += len(chunk)
        if size > limit:
            over.set()
            return
        into.append(chunk)


def run_schema(
    engine: str, image: str, entry: str, timeout_s: float = TIMEOUT_S, max_bytes: int = MAX_BYTES
) -> Dict[str, Any]:
    """Runs ``image`` once to print the document of ``entry``; answers it parsed."""
    name = f"limelight-schema-{uuid.uuid4().hex[:12]}"
    command = [
        engine,
        "run",
        "--rm",
        "--name",
        name,
        "--network",
        "none",
        "--pull",
        "never",
        "--cap-drop",
        "all",
        "--security-opt",
        "no-new-privileges",
        "--entrypoint",
        "python3",
        image,
        "-m",
        "limelight.serve.schema",
        entry,
    ]
    shown = f"python3 -m limelight.serve.schema {entry}"
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out: List[bytes] = []
    err: List[bytes] = []
    over, err_over = threading.Event(), threading.Event()
    assert process.stdout is not None and process.stderr is not None
    readers = [
        threading.Thread(target=_read, args=(process.stdout, out, max_bytes, over), daemon=True),
        threading.Thread(target=_read, args=(process.stderr, err, 1024 * 1024, err_over), daemon=True),
    ]
    for reader in readers:
        reader.start()
    timed_out = False
    try:
        waited = 0.0
        while process.poll() is None and not over.is_set() and waited < timeout_s:
            try:
                process.wait(0.25)
            except subprocess.TimeoutExpired:
                waited += 0.25
        timed_out = process.poll() is None and not over.is_set()
    finally:
        if process.poll() is None:
            # The engine's client going away leaves the container running: remove it by name.
            process.kill()
            subprocess.run([engine, "rm", "-f", name], capture_output=True)
            process.wait()
        for reader in readers:
            reader.join(5)
        process.stdout.close()
        process.stderr.close()
    if over.is_set():
        raise SchemaError(f"the image printed more than {max_bytes} bytes for {shown}: not an OpenAPI document")
    if timed_out:
        raise SchemaError(f"{shown} did not finish in {timeout_s:g} s inside the image")
    if process.returncode != 0:
        lines = b"".join(err).decode("utf-8", "replace").strip().splitlines()
        said = lines[-1] if lines else f"exit {process.returncode}"
        if "No module named limelight.serve.schema" in said:
            said += " (an image built by an older limelight: run limelight build again)"
        raise SchemaError(f"{shown} failed inside the image (exit {process.returncode}): {said}")
    try:
        document = json.loads(b"".join(out).decode("utf-8"))
    except ValueError as error:
        raise SchemaError(f"{shown} printed something that is not JSON ({error})") from error
    if not isinstance(document, dict) or not isinstance(document.get("paths"), dict):
        raise SchemaError(f"{shown} printed JSON that is not an OpenAPI document (no paths)")
    return document


def image_openapi(
    image: Optional[str], entry: str, engine: Optional[str], log: Callable[[str], None]
) -> Optional[Dict[str, Any]]:
    """The document read inside ``image`` (a local image built by ``limelight build``); None, said
    in ``log``, when there is no engine or no such image here, or the image was not built by
    ``limelight build`` (the platform then reads it from the running container)."""
    if image is None:
        log("endpoints: read by the platform from the container's /openapi.json once it is healthy")
        return None
    try:
        engine_path = engine_command(engine)
    except BuildError as error:
        log(f"endpoints: read by the platform from the container once it is healthy ({error})")
        return None
    found = labels(engine_path, image)
    if found is None:
        log(f"endpoints: read by the platform from the container once it is healthy (no local image {image} here)")
        return None
    if ENTRY_LABEL not in found:
        log(
            f"endpoints: read by the platform from the container once it is healthy ({image} was not made by limelight build)"
        )
        return None
    log(f"endpoints: reading the OpenAPI document inside {image} (no network)")
    return run_schema(engine_path, image, found[ENTRY_LABEL] or entry)
