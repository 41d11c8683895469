"""The API key goes to the base URL's origin and nowhere else (issue 47, finding 6; docs/sdk.md,
"Redirects and plain HTTP"). Two local servers on 127.0.0.1, two ports and so two origins: the
platform's stand-in redirects, the other records every header it gets. The sync client, the async
client and ``limelight push`` (the CLI's own transport) follow the redirect without the key; a
redirect within the same origin keeps it."""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import json
import os
import sys
import threading
import unittest
import urllib.error
import urllib.request
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import limelight  # noqa: E402
from limelight import _http  # noqa: E402
from limelight.cli.push import Platform, registry_of  # noqa: E402

from .test_cli import limelight as limelight_cli  # noqa: E402
from .test_cli import temp_folder  # noqa: E402

# What urllib passes redirect_request, which the handler never reads (the body and the headers).
NO_BODY: Any = None
NO_HEADERS: Any = {}

KEY = "lime_secret_redirect_test"
JOB = {"job_id": "j1", "status": "QUEUED"}


class Recorder:
    """A local HTTP server: ``route(method, path)`` answers (status, headers, body); every request's
    method, path and headers are kept in ``seen``."""

    def __init__(self, route: Callable[[str, str], Tuple[int, Dict[str, str], Any]]):
        self.seen: List[Tuple[str, str, Dict[str, str]]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                if length:
                    self.rfile.read(length)
                recorder.seen.append((self.command, self.path, dict(self.headers.items())))
                status, headers, body = route(self.command, self.path.split("?")[0])
                data = json.dumps(body).encode()
                self.send_response(status)
                for name, value in {"content-type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def carries_key(headers: Dict[str, str]) -> Optional[str]:
    """The first header that carries the key, as a bearer or inside Basic credentials."""
    basic = base64.b64encode(f"limelight:{KEY}".encode()).decode()
    for name, value in headers.items():
        if KEY in value or basic in value:
            return f"{name}: {value}"
    return None


class Redirects(unittest.TestCase):
    def setUp(self) -> None:
        # The other origin: answers everything, records what it got.
        def other(method: str, path: str) -> Tuple[int, Dict[str, str], Any]:
            if path == "/v1/registry":
                return 200, {}, {"host": "127.0.0.1:5000", "namespace": "ada-0123456789ab"}
            if path == "/v1/registry/token":  # a push stops here, before any engine is asked
                return 403, {}, {"detail": "stopped by the test"}
            return 200, {}, JOB

        self.other = self.server(other)

        def platform(method: str, path: str) -> Tuple[int, Dict[str, str], Any]:
            if path == "/moved":  # within the platform's own origin
                return 302, {"location": "/v1/jobs/j1"}, {}
            if path == "/v1/jobs/j1" and method == "GET":
                return 200, {}, JOB
            return 302, {"location": f"{self.other.url}{path}"}, {}

        self.platform = self.server(platform)

    def server(self, route: Callable[[str, str], Tuple[int, Dict[str, str], Any]]) -> Recorder:
        recorder = Recorder(route)
        self.addCleanup(recorder.close)
        return recorder

    def assert_key_stayed_home(self) -> None:
        self.assertTrue(self.other.seen, "the redirect was not followed")
        for method, path, headers in self.other.seen:
            self.assertIsNone(carries_key(headers), f"{method} {path} at the other origin got the key")
        for _, _, headers in self.platform.seen:
            self.assertEqual(headers.get("Authorization"), f"Bearer {KEY}")

    def test_the_client_follows_a_redirect_to_another_origin_without_the_key(self) -> None:
        client = limelight.Client(base_url=self.platform.url, api_key=KEY, max_retries=0)
        self.assertEqual(cast(Any, client.estimate("svc"))["job_id"], "j1")  # GET, 302 to the other origin
        self.assertEqual(client.submit("svc", {"prompt": "x"})["job_id"], "j1")  # POST, 302: a GET there
        self.assertEqual(
            [(m, p.split("?")[0]) for m, p, _ in self.other.seen], [("GET", "/v1/jobs/estimate"), ("GET", "/v1/jobs")]
        )
        self.assert_key_stayed_home()

    def test_the_async_client_too(self) -> None:
        # Both transports: httpx's redirects are followed by _http's rule, the threads' by urllib's
        # handler; a POST becomes a GET there too, and a redirect within the origin keeps the key.
        for transport in ("httpx", "threads") if importlib.util.find_spec("httpx") else ("threads",):
            with self.subTest(transport=transport):
                self.other.seen.clear()
                self.platform.seen.clear()

                async def main(transport: str = transport) -> Any:
                    async with limelight.AsyncClient(
                        base_url=self.platform.url, api_key=KEY, max_retries=0, transport=transport
                    ) as client:
                        estimate = await client.estimate("svc")
                        submitted = await client.submit("svc", {"prompt": "x"})
                        if client._http is not None:
                            self.assertEqual((await client._http.request("GET", "/moved")).body, JOB)
                        return estimate, submitted

                estimate, submitted = asyncio.run(main())
                self.assertEqual((cast(Any, estimate)["job_id"], submitted["job_id"]), ("j1", "j1"))
                self.assertEqual(
                    [(m, p.split("?")[0]) for m, p, _ in self.other.seen],
                    [("GET", "/v1/jobs/estimate"), ("GET", "/v1/jobs")],
                )
                self.assert_key_stayed_home()

    def test_a_redirect_within_the_origin_keeps_the_key(self) -> None:
        transport = limelight.Client(base_url=self.platform.url, api_key=KEY)._http
        self.assertEqual(transport.request("GET", "/moved").body, JOB)
        self.assertEqual([(m, p) for m, p, _ in self.platform.seen], [("GET", "/moved"), ("GET", "/v1/jobs/j1")])
        self.assertEqual(self.platform.seen[1][2].get("Authorization"), f"Bearer {KEY}")
        self.assertEqual(self.other.seen, [])

    def test_an_absolute_url_of_another_origin_gets_no_key(self) -> None:
        transport = limelight.Client(base_url=self.platform.url, api_key=KEY)._http
        self.assertEqual(transport.request("GET", f"{self.other.url}/v1/jobs/j1").body, JOB)
        self.assert_key_stayed_home()

    def test_push_and_its_token_check_keep_the_key_home(self) -> None:
        # The CLI's transport (push.Platform), then `limelight push` itself as a publisher runs it:
        # the registry lookup and the token check (Basic credentials) are both redirected away.
        self.assertEqual(registry_of(Platform(self.platform.url, KEY))["namespace"], "ada-0123456789ab")
        folder = temp_folder(self)
        self.assertEqual(limelight_cli("init", ".", "--name", "ocr", cwd=folder).returncode, 0)
        env = {"LIMELIGHT_BASE_URL": self.platform.url, "LIMELIGHT_API_KEY": KEY}
        saved = {name: os.environ.get(name) for name in env}
        os.environ.update(env)
        try:
            done = limelight_cli("push", cwd=folder)
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)
        self.assertIn("the registry refuses the push: stopped by the test", done.stderr)
        self.assertIn(("GET", "/v1/registry/token"), [(m, p.split("?")[0]) for m, p, _ in self.other.seen])
        for method, path, headers in self.other.seen:
            self.assertIsNone(carries_key(headers), f"{method} {path} at the other origin got the key")

    def test_https_to_http_is_another_origin(self) -> None:
        # The redirect handler itself (a local TLS server would need a trusted certificate): the
        # same host and path, only the scheme goes down to http.
        handler = _http._SameOriginCredentials()
        for start, target, kept in [
            ("https://api.example/v1/jobs/j1", "http://api.example/v1/jobs/j1", False),
            ("https://api.example/v1/jobs/j1", "https://api.example:8443/v1/jobs/j1", False),
            ("https://api.example/v1/jobs/j1", "https://other.example/v1/jobs/j1", False),
            ("https://api.example/v1/jobs/j1", "https://API.example:443/v1/jobs/j2", True),
            ("http://127.0.0.1:3000/a", "http://127.0.0.1:3000/b", True),
        ]:
            request = urllib.request.Request(
                start, headers={"Authorization": f"Bearer {KEY}", "Cookie": "s=1", "Accept": "application/json"}
            )
            follow = handler.redirect_request(request, NO_BODY, 302, "Found", NO_HEADERS, target)
            self.assertEqual(follow.has_header("Authorization"), kept, f"{start} -> {target}")
            self.assertEqual(follow.has_header("Cookie"), kept, f"{start} -> {target}")
            self.assertEqual(follow.get_header("Accept"), "application/json")
        with self.assertRaises(urllib.error.HTTPError):
            handler.redirect_request(
                urllib.request.Request("https://api.example/x"),
                NO_BODY,
                302,
                "Found",
                NO_HEADERS,
                "ftp://api.example/x",
            )


class PlainHttpWarning(unittest.TestCase):
    def warnings_of(self, base_url: str) -> List[str]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            limelight.Client(base_url=base_url, api_key=KEY)
        return [str(w.message) for w in caught if issubclass(w.category, limelight.InsecureTransportWarning)]

    def test_plain_http_to_another_machine_warns_once(self) -> None:
        found = self.warnings_of("http://api.example.com")
        self.assertEqual(len(found), 1)
        self.assertIn("http://api.example.com is plain HTTP to another machine", found[0])
        self.assertEqual(len(self.warnings_of("http://10.0.0.7:3000")), 1)

    def test_loopback_and_https_do_not(self) -> None:
        for url in [
            "http://localhost:3000",
            "http://127.0.0.1:3000",
            "http://127.8.9.10",
            "http://[::1]:3000",
            "https://api.example.com",
            "HTTP://LOCALHOST:3000",
        ]:
            self.assertEqual(self.warnings_of(url), [], url)


if __name__ == "__main__":
    unittest.main()
