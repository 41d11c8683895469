"""URLs a caller names in limelight.serve's input (issue 47, finding 5): only http(s) and data:
URLs are read, redirects are followed only to http(s), and a URL is cut at the size limit while it
is read and at the time limit however slowly the server trickles; the simulator calls only the
app's own address. Each refusal is a 422 naming the field."""

from __future__ import annotations

import base64
import importlib.util
import socket
import sys
import tempfile
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from .serving import MISSING, call, needs_serving, served, until

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
LIMIT = 1000  # bytes, set as the library's MAX_MEDIA_BYTES for these tests
TIME_LIMIT_S = 1.0  # set as its URL_TIMEOUT_S
ALLOWED = "a file URL must be http://, https:// or data:"

if MISSING is None:
    from fastapi.responses import RedirectResponse
    from limelight.cli import scaffold
    from limelight.serve import App, MediaFile, media
    from limelight.serve.simulate import simulated


class Listener:
    """A bare TCP port that counts the connections it gets (an FTP server, another origin)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            try:
                conn.sendall(b"421 not here\r\n")  # an FTP client's banner, so an old client ends at once
            except OSError:
                pass
            conn.close()

    def close(self):
        self.sock.close()


class Files(BaseHTTPRequestHandler):
    """The caller's file server: a file, redirects, bodies over the limit, slow answers."""

    protocol_version = "HTTP/1.1"
    ftp_port = 0
    stop = threading.Event()

    def do_GET(self):
        try:
            self._answer()
        except OSError:  # the client hung up, as it should when a limit is reached
            pass

    def _head(self, status, headers):
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()

    def _trickle(self, data: bytes):
        for byte in data:
            if Files.stop.wait(0.2):
                return
            self.wfile.write(bytes([byte]))
            self.wfile.flush()

    def _answer(self):
        if self.path == "/pixel.png":
            self._head(200, {"Content-Type": "image/png", "Content-Length": str(len(PNG))})
            self.wfile.write(PNG)
        elif self.path == "/moved":
            self._head(302, {"Location": "/pixel.png", "Content-Length": "0"})
        elif self.path == "/to-file":
            self._head(302, {"Location": "file:///etc/passwd", "Content-Length": "0"})
        elif self.path == "/to-ftp":
            self._head(302, {"Location": f"ftp://127.0.0.1:{Files.ftp_port}/etc/passwd", "Content-Length": "0"})
        elif self.path == "/exact":
            self._head(200, {"Content-Length": str(LIMIT)})
            self.wfile.write(b"x" * LIMIT)
        elif self.path == "/declared-big":
            # Headers only: a reader that waits for the body it was promised is held until its time limit.
            self._head(200, {"Content-Length": str(100_000_000)})
            Files.stop.wait(10)
        elif self.path == "/streamed-big":
            self._head(200, {"Connection": "close"})  # no length: read until the server closes
            for _ in range(1000):
                self.wfile.write(b"x" * 1024)
        elif self.path == "/slow-body":
            self._head(200, {"Content-Length": "30"})
            self._trickle(b"y" * 30)  # a byte every 0.2 s: 6 s in all, no pause near a read timeout
        elif self.path == "/slow-headers":
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            self._trickle(b"X-Slow: " + b"z" * 22 + b"\r\n")
            self.wfile.write(b"Content-Length: 1\r\n\r\nz")
        else:
            self._head(404, {"Content-Length": "0"})

    def log_message(self, *args):
        pass


def photo_app() -> App:
    app = App(title="Photos")

    @app.endpoint("/size")
    def size(photo: MediaFile) -> dict:
        return {"size": photo.size, "content_type": photo.content_type, "head": photo.read()[:40].decode("latin-1")}

    return app


@needs_serving
class UrlInputTest(unittest.TestCase):
    def setUp(self):
        for name, value in (("MAX_MEDIA_BYTES", LIMIT), ("URL_TIMEOUT_S", TIME_LIMIT_S)):
            self.addCleanup(setattr, media, name, getattr(media, name))
            setattr(media, name, value)
        self.ftp = Listener()
        self.addCleanup(self.ftp.close)
        Files.ftp_port = self.ftp.port
        Files.stop.clear()
        self.files = ThreadingHTTPServer(("127.0.0.1", 0), Files)
        threading.Thread(target=self.files.serve_forever, daemon=True).start()
        self.addCleanup(self.files.server_close)
        self.addCleanup(self.files.shutdown)
        self.addCleanup(Files.stop.set)  # ends the handlers still trickling
        self.file_url = f"http://127.0.0.1:{self.files.server_port}"

    def refused(self, url: str, value) -> dict:
        """The 422 for a photo given as ``value``: its one error is on the photo field."""
        answer = call("POST", f"{url}/size", json_body={"photo": value})
        self.assertEqual(answer.status, 422, answer)
        errors = answer.json()["errors"]
        self.assertEqual([e["loc"] for e in errors], [["photo"]], errors)
        self.assertIn("photo: ", answer.json()["detail"])
        return errors[0]

    def test_file_urls_are_refused_naming_the_field_and_the_allowed_schemes(self):
        with served(photo_app()) as url:
            for value in (
                {"url": "file:///etc/passwd"},
                "file:///etc/passwd",
                {"url": "FILE:///etc/passwd"},
                {"url": "/etc/passwd"},
            ):
                with self.subTest(value=value):
                    error = self.refused(url, value)
                    self.assertIn(ALLOWED, error["msg"])
                    self.assertNotIn("root:", error["msg"])
            self.assertIn("not file:", self.refused(url, {"url": "file:///etc/passwd"})["msg"])

    def test_ftp_urls_are_refused_without_connecting(self):
        with served(photo_app()) as url:
            for value in ({"url": f"ftp://127.0.0.1:{self.ftp.port}/etc/passwd"}, f"ftp://127.0.0.1:{self.ftp.port}/x"):
                with self.subTest(value=value):
                    error = self.refused(url, value)
                    self.assertIn(f"{ALLOWED}, not ftp:", error["msg"])
        self.assertEqual(self.ftp.accepted, 0)

    def test_redirects_are_followed_only_to_http_and_https(self):
        with served(photo_app()) as url:
            moved = call("POST", f"{url}/size", json_body={"photo": f"{self.file_url}/moved"})
            self.assertEqual(
                (moved.status, moved.json()["size"], moved.json()["content_type"]), (200, len(PNG), "image/png"), moved
            )
            for path, target in (("/to-file", "file:///etc/passwd"), ("/to-ftp", f"ftp://127.0.0.1:{self.ftp.port}/")):
                with self.subTest(path):
                    error = self.refused(url, {"url": f"{self.file_url}{path}"})
                    self.assertIn(f"redirected to {target}", error["msg"])
                    self.assertIn("redirects are followed only to http:// and https://", error["msg"])
        self.assertEqual(self.ftp.accepted, 0)

    def test_data_urls_are_decoded_without_a_fetch(self):
        with served(photo_app()) as url:
            for value in ({"url": "data:text/plain,hi%20there"}, "data:text/plain;charset=utf-8;base64,aGkgdGhlcmU="):
                with self.subTest(value=value):
                    answer = call("POST", f"{url}/size", json_body={"photo": value})
                    self.assertEqual(answer.json(), {"size": 8, "content_type": "text/plain", "head": "hi there"})

    def test_a_body_over_the_size_limit_is_refused_while_it_is_read(self):
        with served(photo_app()) as url:
            exact = call("POST", f"{url}/size", json_body={"photo": f"{self.file_url}/exact"})
            self.assertEqual((exact.status, exact.json()["size"]), (200, LIMIT), exact)
            media.URL_TIMEOUT_S = 10.0  # (setUp restores it)
            started = time.monotonic()
            declared = self.refused(url, f"{self.file_url}/declared-big")
            # Refused on its Content-Length, before any byte of the body, not at the time limit.
            self.assertLess(time.monotonic() - started, 5)
            self.assertIn(f"is 100000000 bytes; at most {LIMIT} are accepted", declared["msg"])
            streamed = self.refused(url, f"{self.file_url}/streamed-big")
            self.assertIn(f"is more than {LIMIT} bytes; at most {LIMIT} are accepted", streamed["msg"])

    def test_a_slow_server_is_cut_at_the_time_limit(self):
        with served(photo_app()) as url:
            for path in ("/slow-body", "/slow-headers"):
                with self.subTest(path):
                    started = time.monotonic()
                    error = self.refused(url, f"{self.file_url}{path}")
                    took = time.monotonic() - started
                    self.assertIn(f"was not read within {TIME_LIMIT_S:g} s", error["msg"])
                    self.assertGreaterEqual(took, TIME_LIMIT_S * 0.9)
                    self.assertLess(took, TIME_LIMIT_S + 3)  # the server would go on for 6 s


@needs_serving
class InitExampleTest(unittest.TestCase):
    def test_the_example_of_limelight_init_does_not_read_etc_passwd(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        scaffold.write_example(Path(folder.name), "word-counter")
        spec = importlib.util.spec_from_file_location("limelight_init_example", Path(folder.name) / "main.py")
        assert spec is not None and spec.loader is not None
        example = importlib.util.module_from_spec(spec)
        loader: Any = spec.loader
        loader.exec_module(example)
        with served(example.app) as url:
            answer = call("POST", f"{url}/count", json_body={"text": "", "file": {"url": "file:///etc/passwd"}})
            self.assertEqual(answer.status, 422, answer)
            self.assertEqual(
                answer.json()["errors"],
                [{"loc": ["file"], "msg": f"file:///etc/passwd is refused: {ALLOWED}, not file:"}],
            )


@needs_serving
class SimulatorCallsOnlyTheAppTest(unittest.TestCase):
    """The simulator follows a job-style answer's status URL: only on the app's own address, and
    it does not follow redirects (as the platform's HTTP runtime, docs/security.md)."""

    def setUp(self):
        self.other = Listener()
        self.addCleanup(self.other.close)

    def app(self) -> App:
        app = App(title="Echo")

        @app.endpoint("/echo")
        def echo(status_url: str) -> dict:  # an answer built from the caller's input
            return {"id": "echoed", "status": "processing", "status_url": status_url}

        @app.post("/hop")
        def hop():
            return RedirectResponse(f"http://127.0.0.1:{self.other.port}/elsewhere", status_code=307)

        return app

    def job(self, url: str, endpoint: str, input: dict) -> dict:
        created = call(
            "POST", f"{url}/v1/jobs", json_body={"endpoint": endpoint, "input": input}, headers={"Prefer": "wait=20"}
        ).json()
        return until(
            lambda: (lambda j: j if j["status"] in ("FINISHED", "FAILED") else None)(
                call("GET", f"{url}/v1/jobs/{created['job_id']}").json()
            ),
            20,
            "the job to end",
        )

    def test_status_urls_elsewhere_and_redirects_are_not_called(self):
        with served(None, build=lambda own: simulated(self.app(), own)) as url:
            for status_url in (f"http://127.0.0.1:{self.other.port}/steal", "file:///etc/passwd"):
                with self.subTest(status_url):
                    job = self.job(url, "/echo", {"status_url": status_url})
                    self.assertEqual(job["status"], "FAILED")
                    self.assertIn(
                        f"The service named {status_url} as its job's status URL; only its own address "
                        f"({url}) is called",
                        job["error"]["message"],
                    )
            hop = self.job(url, "/hop", {})
            self.assertEqual(hop["status"], "FAILED")
            self.assertIn(
                "The service answered 307 (a redirect); the platform does not follow redirects", hop["error"]["message"]
            )
        self.assertEqual(self.other.accepted, 0)


if MISSING is not None:
    print(f"limelight serve tests skipped: {MISSING}", file=sys.stderr)
