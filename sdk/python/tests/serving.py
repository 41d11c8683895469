"""Helpers of the limelight.serve tests: a real uvicorn server on a loopback port in a thread, and
plain urllib requests to it (JSON, multipart, headers)."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import unittest
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

try:
    import fastapi  # noqa: F401
    import multipart  # noqa: F401
    import uvicorn

    MISSING = None
except ImportError as error:
    MISSING = (
        f"limelight.serve needs FastAPI, python-multipart and uvicorn ({error}); on Debian: apt-get install "
        "python3-fastapi python3-pydantic python3-uvicorn python3-multipart"
    )

needs_serving = unittest.skipIf(MISSING is not None, MISSING or "")


@contextlib.contextmanager
def served(app: Any, *, build: Optional[Callable[[str], Any]] = None) -> Iterator[str]:
    """The app on http://127.0.0.1:<free port> for the block; the server stops after it.

    ``build(url)``, when given, makes the app once its own URL is known (the simulator needs it)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    if build is not None:
        app = build(f"http://127.0.0.1:{port}")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    server.install_signal_handlers = lambda: None
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


class Answer:
    def __init__(self, status: int, headers: Any, body: bytes):
        self.status, self.headers, self.body = status, headers, body

    def json(self) -> Any:
        return json.loads(self.body)

    def __repr__(self) -> str:
        return f"Answer({self.status}, {self.body[:300]!r})"


def call(
    method: str,
    url: str,
    *,
    json_body: Any = None,
    form: Optional[Dict[str, Any]] = None,
    headers: Optional[Dict[str, str]] = None,
    timeout: float = 30,
) -> Answer:
    """One request. ``form`` values that are (bytes, content_type, name) tuples are file uploads."""
    data, sent = None, dict(headers or {})
    if json_body is not None:
        data, sent["Content-Type"] = json.dumps(json_body).encode(), "application/json"
    elif form is not None:
        data, sent["Content-Type"] = encode_form(form)
    request = urllib.request.Request(url, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, error.read())


def encode_form(form: Dict[str, Any]) -> Tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in form.items():
        if isinstance(value, tuple):
            content, content_type, file_name = value
            head = (
                f'Content-Disposition: form-data; name="{name}"; filename="{file_name}"\r\n'
                f"Content-Type: {content_type}\r\n\r\n"
            )
        else:
            content, head = str(value).encode(), f'Content-Disposition: form-data; name="{name}"\r\n\r\n'
        parts.append(f"--{boundary}\r\n{head}".encode() + content + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def until(predicate, timeout: float = 10, what: str = "the condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def stop_process(process: subprocess.Popen) -> None:
    """Stops a child process (a `limelight serve`): SIGTERM, SIGKILL if it has not ended 20 s later;
    closes the pipe its output was read from."""
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stdout is not None:
        process.stdout.close()
