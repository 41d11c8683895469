"""``limelight push``: the built image into the platform's registry, signed in with an API key.

The platform says where (``GET /v1/registry``: its registry's host and the caller's namespace);
the push asks the platform's token endpoint first, so a refusal (quota, namespace) is printed in
the platform's words rather than the engine's "denied"; then Podman (or Docker) pushes with the
API key as password. What was pushed, with its digest and the local image's ID, is kept in
``.limelight/pushed.json`` for ``limelight deploy``, which pins that digest and reads the app's
OpenAPI document inside that local image. See docs/publishing.md ("limelight push and deploy").
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import tempfile
import urllib.parse
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Dict, Optional

from .._http import RetryPolicy, Transport
from ..client import __version__
from ..errors import APIError, ConnectionFailedError
from . import credentials
from .build import engine_command
from .project import Project

STATE_FOLDER = ".limelight"
PUSHED_FILE = "pushed.json"
DEFAULT_BASE_URL = "http://localhost:3000"


class PublishError(Exception):
    """A push or deploy that cannot go on: one line saying why and what to do. ``status`` and
    ``detail`` are the platform's answer when it refused a call."""

    def __init__(self, message: str, status: Optional[int] = None, detail: Optional[str] = None):
        super().__init__(message)
        self.status, self.detail = status, detail


@dataclass
class Platform:
    """Where the platform is and the API key that signs in (LIMELIGHT_BASE_URL, LIMELIGHT_API_KEY)."""

    base_url: str
    api_key: str

    @classmethod
    def from_env(cls) -> Platform:
        # LIMELIGHT_API_KEY, else the key `limelight login` saved for this platform (credentials.py,
        # the one place that decides); the older LIME_* names still work, with a warning.
        try:
            base_url, key, why = credentials.resolve(DEFAULT_BASE_URL)
        except credentials.CredentialsError as error:
            raise PublishError(str(error)) from error
        if key is None:
            raise PublishError(why)
        return cls(base_url, key)

    @cached_property
    def _transport(self) -> Transport:
        # The client's transport without its retries: a push or deploy says at once what refused it.
        return Transport(
            self.base_url,
            lambda: self.api_key,
            timeout=60,
            retry=RetryPolicy(max_retries=0),
            user_agent=f"limelight-cli/{__version__}",
        )

    def call(self, method: str, path: str, body: Any = None, headers: Optional[Dict[str, str]] = None) -> Any:
        """The JSON answer of ``method path``; a PublishError with the platform's words otherwise."""
        try:
            answer = self._transport.request(method, path, json_body=body, headers=headers).body
            return None if answer == "" else answer
        except APIError as error:
            raise PublishError(f"{method} {path}: {error.status} {error.detail}", error.status, error.detail) from error
        except ConnectionFailedError as error:
            reason = getattr(error.__cause__, "reason", error.__cause__ or error)
            raise PublishError(
                f"cannot reach the platform at {self.base_url} ({reason}): set LIMELIGHT_BASE_URL"
            ) from error


def registry_of(platform: Platform) -> Dict[str, str]:
    """{host, namespace} of the platform's registry for this key."""
    try:
        return platform.call("GET", "/v1/registry")
    except PublishError as error:
        if error.status == 404:
            raise PublishError(
                f"{platform.base_url} runs no registry (container hosting is off: the platform "
                "needs CONTAINER_RUNNER and PLATFORM_REGISTRY on)"
            ) from error
        if error.status == 401:
            raise PublishError(
                f"the API key was refused by {platform.base_url} (expired or deleted?): "
                "create another in Account → API keys and run `limelight login` (or set LIMELIGHT_API_KEY)"
            ) from error
        raise


def check_push_allowed(platform: Platform, repository: str) -> None:
    """Asks the token endpoint for push: its refusal (quota, namespace) in the platform's words."""
    query = urllib.parse.urlencode({"service": "limelight-registry", "scope": f"repository:{repository}:push,pull"})
    basic = base64.b64encode(f"limelight:{platform.api_key}".encode()).decode()
    try:
        platform.call("GET", f"/v1/registry/token?{query}", headers={"Authorization": f"Basic {basic}"})
    except PublishError as error:
        raise PublishError(f"the registry refuses the push: {error.detail or error}") from error


def _loopback(host: str) -> bool:
    return bool(re.match(r"^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$", host))


def _write_auth_file(folder: Path, host: str, api_key: str) -> Path:
    """The registry credential in an auth file only this user can read (``auth.json``, mode 0600):
    a key on the engine's command line would be visible to every user of the host in ``ps``."""
    path = folder / "auth.json"
    token = base64.b64encode(f"limelight:{api_key}".encode()).decode()
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as out:
        json.dump({"auths": {host: {"auth": token}}}, out)
    return path


def push_image(engine: str, local: str, remote: str, api_key: str, host: str) -> str:
    """Pushes ``local`` as ``remote`` with the engine; answers the manifest digest. The API key
    reaches the engine in a private auth file of its own (never its command line, never the
    user's or the host's stored logins, which it neither reads nor changes)."""
    insecure = _loopback(host)
    with tempfile.TemporaryDirectory(prefix="limelight-push-") as folder:
        if engine.endswith("podman"):
            digest_file = Path(folder) / "digest"
            command = [
                engine,
                "push",
                "--quiet",
                f"--tls-verify={'false' if insecure else 'true'}",
                "--authfile",
                str(_write_auth_file(Path(folder), host, api_key)),
                "--digestfile",
                str(digest_file),
                local,
                f"docker://{remote}",
            ]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                raise PublishError(
                    f"podman push failed: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}"
                )
            return digest_file.read_text().strip()
        # Docker reads credentials from its config folder: a temporary one holds only this key.
        _write_auth_file(Path(folder), host, api_key).rename(Path(folder) / "config.json")
        subprocess.run([engine, "tag", local, remote], check=True, capture_output=True)
        done = subprocess.run([engine, "--config", folder, "push", remote], capture_output=True, text=True)
        found = re.search(r"digest: (sha256:[0-9a-f]{64})", done.stdout)
        if done.returncode != 0 or not found:
            raise PublishError(f"docker push failed: {(done.stderr or done.stdout).strip()[-300:]}")
        return found.group(1)


def state_path(project: Project, name: str) -> Path:
    return project.folder / STATE_FOLDER / name


def push(
    project: Project,
    platform: Platform,
    *,
    image: Optional[str] = None,
    tag: str = "latest",
    engine: Optional[str] = None,
    log: Callable[[str], None] = print,
    ready: Optional[Callable[[], None]] = None,
) -> Dict[str, str]:
    """Pushes the project's built image; answers {image, digest, pinned} and keeps it for deploy.
    ``ready`` runs once the platform accepts the push, before the image is read (the CLI builds there)."""
    registry = registry_of(platform)
    repository = f"{registry['namespace']}/{project.name}"
    check_push_allowed(platform, repository)
    if ready is not None:
        ready()
    local = image or f"localhost/{project.name}:latest"
    engine_path = engine_command(engine)
    inspected = subprocess.run(
        [engine_path, "image", "inspect", "--format", "{{.Id}}", local], capture_output=True, text=True
    )
    if inspected.returncode != 0:
        raise PublishError(f"no image {local}: run `limelight build` first, or `limelight push` without --no-build")
    remote = f"{registry['host']}/{repository}:{tag}"
    log(f"pushing {local} to {remote}")
    digest = push_image(engine_path, local, remote, platform.api_key, registry["host"])
    pushed = {
        "image": remote,
        "digest": digest,
        "pinned": f"{registry['host']}/{repository}@{digest}",
        # The local image that was pushed, by its ID: `limelight deploy` reads the schema inside it.
        "local_id": inspected.stdout.strip().splitlines()[0] if inspected.stdout.strip() else local,
        "engine": engine_path,
    }
    path = state_path(project, PUSHED_FILE)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(pushed, indent=2) + "\n")
    return pushed
