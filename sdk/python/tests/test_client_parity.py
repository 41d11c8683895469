"""limelight at the JavaScript client's level (docs/sdk.md, "Side by side"), beyond the shared
scenarios (test_scenarios.py: timeout, log events, callbacks, async, cursors, webhook filters): a
held create found by its key, str paths uploaded, estimate, logs, credentials from the environment
and py.typed. Against the real server (tests/server.py), and a small local server where the real
one cannot be made to misbehave (a held create)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, List, Tuple
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import limelight  # noqa: E402

from .server import platform  # noqa: E402
from .test_client import CUTOUT, TEXT2IMG, TINY_PNG, client  # noqa: E402

SDK = Path(__file__).resolve().parents[1]
# A text-to-image run takes 11 steps of 50 ms on the test server: at least 0.55 s.
SHORTER_THAN_A_RUN_S = 0.25


def serve(handler: type) -> str:
    """A local HTTP server for one test class's handler; its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    unittest.addModuleCleanup(server.server_close)
    unittest.addModuleCleanup(server.shutdown)
    return f"http://127.0.0.1:{server.server_address[1]}"


class TimeoutTest(unittest.TestCase):
    def test_a_create_the_server_holds_past_the_timeout_is_found_by_its_key(self):
        base_url = serve(_HeldCreate)
        started = time.monotonic()
        with self.assertRaises(limelight.JobTimeoutError) as caught:
            limelight.Client(base_url=base_url, api_key="lime_x").run("s", {"prompt": "x"}, timeout=2.5)
        self.assertLess(time.monotonic() - started, 3.2)
        self.assertEqual(caught.exception.job_id, "held-1")
        # The replay that found it carried the same Idempotency-Key and asked for no wait.
        (first_key, first_prefer), (second_key, second_prefer) = _HeldCreate.posts
        self.assertEqual(first_key, second_key)
        self.assertRegex(first_prefer, r"^wait=[12]$")
        self.assertIsNone(second_prefer)


class _HeldCreate(BaseHTTPRequestHandler):
    """Holds a create that asks for Prefer: wait for 4 s; answers one without it at once (200, as
    a replayed Idempotency-Key is answered)."""

    posts: List[Tuple[str, Any]] = []

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        type(self).posts.append((self.headers["Idempotency-Key"], self.headers.get("Prefer")))
        if self.headers.get("Prefer"):
            time.sleep(4)
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(json.dumps({"job_id": "held-1", "status": "PROCESSING"}).encode())
        except OSError:
            pass  # the client gave up on the held create (what the test wants)

    def log_message(self, *args):
        pass


class InputAndListTest(unittest.TestCase):
    def test_a_str_path_is_uploaded_for_a_file_input_and_a_prompt_naming_a_file_stays_text(self):
        c = client()
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "pixel.png"
            path.write_bytes(TINY_PNG)
            output = c.run(CUTOUT, input={"image": str(path)}, endpoint="/remove")
            self.assertTrue(output["image"]["content_type"].startswith("image/"))
            job = c.submit(TEXT2IMG, {"prompt": str(path), "width": 64, "height": 64})
            self.assertEqual(job["input"]["prompt"], str(path))
            c.cancel(job["job_id"])

    def test_estimate_and_logs(self):
        c = client()
        estimate = c.estimate(TEXT2IMG, "/generate")
        self.assertEqual((estimate["service_id"], estimate["endpoint"]), (TEXT2IMG, "/generate"))
        self.assertIsInstance(estimate["price_per_s_usd"], (int, float))
        job = c.submit(TEXT2IMG, {"prompt": "no container", "width": 64, "height": 64}, wait=30)
        self.assertEqual(c.logs(job["job_id"]), [])

    def test_credentials_and_base_url_come_from_the_environment(self):
        server = platform()
        with mock.patch.dict(os.environ, {"LIMELIGHT_API_KEY": server["apiKey"], "LIMELIGHT_BASE_URL": server["url"]}):
            from_env = limelight.Client()
        self.assertEqual(from_env.base_url, server["url"])
        self.assertEqual(from_env.estimate(TEXT2IMG)["service_id"], TEXT2IMG)


if __name__ == "__main__":
    unittest.main()
