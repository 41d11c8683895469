"""The client's settings from the environment (docs/sdk.md): LIMELIGHT_API_KEY and
LIMELIGHT_BASE_URL, as in JavaScript; the older LIME_API_KEY and LIME_BASE_URL still work with a
FutureWarning once per process, and the new name wins when both are set. Requests go to a tiny
local HTTP server that records the Authorization header it gets."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import unittest
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, List, Optional
from unittest import mock

SDK_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SDK_ROOT))

import limelight  # noqa: E402
from limelight import client as client_module  # noqa: E402

NAMES = ("LIMELIGHT_API_KEY", "LIMELIGHT_BASE_URL", "LIME_API_KEY", "LIME_BASE_URL")


class Recorder(BaseHTTPRequestHandler):
    seen: List[Optional[str]] = []

    def do_GET(self):
        Recorder.seen.append(self.headers.get("Authorization"))
        body = b'{"openapi": "3.1.0", "paths": {}}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class EnvNamesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.url = f"http://127.0.0.1:{cls.server.server_address[1]}"

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def setUp(self):
        Recorder.seen = []
        # Each test starts as a new process would: no older name warned about yet.
        client_module._warned_env_names.clear()
        environ = {k: v for k, v in os.environ.items() if k not in NAMES}
        patcher = mock.patch.dict(os.environ, environ, clear=True)
        patcher.start()
        self.addCleanup(patcher.stop)

    def run_clients(self, env, count=1, **options):
        os.environ.update(env)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            clients = [limelight.Client(**options) for _ in range(count)]
            for c in clients:
                c.openapi("svc")
        return clients, [str(w.message) for w in caught if issubclass(w.category, FutureWarning)]

    def test_new_names_without_a_warning(self):
        clients, warned = self.run_clients({"LIMELIGHT_API_KEY": "lime_new", "LIMELIGHT_BASE_URL": self.url})
        self.assertEqual(clients[0].base_url, self.url)
        self.assertEqual(Recorder.seen, ["Bearer lime_new"])
        self.assertEqual(warned, [])

    def test_older_names_still_work_with_one_warning_each(self):
        clients, warned = self.run_clients({"LIME_API_KEY": "lime_old", "LIME_BASE_URL": self.url}, count=2)
        self.assertEqual([c.base_url for c in clients], [self.url, self.url])
        self.assertEqual(Recorder.seen, ["Bearer lime_old", "Bearer lime_old"])
        self.assertEqual(
            sorted(warned),
            [
                "LIME_API_KEY is deprecated, set LIMELIGHT_API_KEY instead (the older name still works for now)",
                "LIME_BASE_URL is deprecated, set LIMELIGHT_BASE_URL instead (the older name still works for now)",
            ],
        )

    def test_the_new_name_wins_and_the_old_one_is_not_warned_about(self):
        _, warned = self.run_clients(
            {
                "LIMELIGHT_API_KEY": "lime_new",
                "LIME_API_KEY": "lime_old",
                "LIMELIGHT_BASE_URL": self.url,
                "LIME_BASE_URL": "http://127.0.0.1:9",
            }
        )
        self.assertEqual(Recorder.seen, ["Bearer lime_new"])
        self.assertEqual(warned, [])

    def test_an_empty_new_name_counts_as_unset(self):
        _, warned = self.run_clients({"LIMELIGHT_API_KEY": "", "LIME_API_KEY": "lime_old"}, base_url=self.url)
        self.assertEqual(Recorder.seen, ["Bearer lime_old"])
        self.assertEqual(len(warned), 1)

    def test_arguments_given_leave_the_environment_unread(self):
        _, warned = self.run_clients(
            {"LIME_API_KEY": "lime_old", "LIME_BASE_URL": "http://127.0.0.1:9"}, base_url=self.url, api_key="lime_given"
        )
        self.assertEqual(Recorder.seen, ["Bearer lime_given"])
        self.assertEqual(warned, [])

    def test_once_per_process_under_the_default_warning_filters(self):
        # A real interpreter with Python's own filters: FutureWarning is shown to users.
        code = "import limelight\nfor _ in range(3): limelight.Client().openapi('svc')\n"
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHONWARNINGS")}
        env.update({"LIME_API_KEY": "lime_old", "LIME_BASE_URL": self.url, "PYTHONPATH": str(SDK_ROOT)})
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(
            done.stderr.count("FutureWarning: LIME_API_KEY is deprecated, set LIMELIGHT_API_KEY"), 1, done.stderr
        )
        self.assertEqual(done.stderr.count("FutureWarning: LIME_BASE_URL is deprecated"), 1, done.stderr)
        self.assertEqual(Recorder.seen, ["Bearer lime_old"] * 3)


if __name__ == "__main__":
    unittest.main()
