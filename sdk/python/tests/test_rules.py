"""The platform's rules in Python come from the generated ``limelight._rules`` (docs/architecture.md,
"Where the rules live"): the client and the simulator apply the platform's values, not copies."""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Dict, List

import limelight
from limelight import _rules
from limelight.cli import deploy, project
from limelight.serve import simulate


class _Jobs(BaseHTTPRequestHandler):
    """Answers every job submission with a finished job, keeping the Prefer header it was sent."""

    prefers: List[str] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        type(self).prefers.append(self.headers.get("Prefer") or "")
        body = json.dumps({"job_id": "job-1", "status": "FINISHED", "result": {}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class RulesTest(unittest.TestCase):
    def test_a_longer_wait_asks_for_the_platforms_longest(self) -> None:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Jobs)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        _Jobs.prefers = []
        client = limelight.Client(f"http://127.0.0.1:{server.server_address[1]}", api_key="lime_test")
        client.submit("svc", {"prompt": "x"}, wait=600)
        client.submit("svc", {"prompt": "x"}, wait=5)
        self.assertEqual(_Jobs.prefers, [f"wait={_rules.MAX_PREFER_WAIT_S}", "wait=5"])
        self.assertEqual(_rules.MAX_PREFER_WAIT_S, 60)

    def test_final_statuses_are_the_platforms(self) -> None:
        finals: Dict[str, bool] = {status: status in limelight.FINAL_STATUSES for status in _rules.JOB_STATUSES}
        self.assertEqual(
            finals,
            {
                "QUEUED": False,
                "PROCESSING": False,
                "FINISHED": True,
                "FAILED": True,
                "TIMEOUT": True,
                "CANCELLED": True,
            },
        )
        # The simulator stops following a job at the same statuses.
        self.assertEqual(tuple(simulate.FINAL), _rules.FINAL_JOB_STATUSES)

    def test_the_price_table_lists_each_offer_once_with_a_price(self) -> None:
        ids = [offer["id"] for offer in _rules.GPU_PRICES]
        self.assertEqual(len(ids), len(set(ids)))
        self.assertIn(_rules.DEFAULT_GPU, {offer["display_name"] for offer in _rules.GPU_PRICES})
        for offer in _rules.GPU_PRICES:
            self.assertGreater(offer["customer_price_per_s_usd"], 0)

    def test_limelight_yaml_is_checked_against_the_platforms_bounds_and_defaults(self) -> None:
        folder = Path(tempfile.mkdtemp(prefix="limelight-rules-"))
        self.addCleanup(shutil.rmtree, folder, True)
        yaml = folder / "limelight.yaml"
        most = _rules.RESOURCE_BOUNDS["memory_mb"]["max"]
        yaml.write_text(f"name: x\nresources: {{memory_mb: {most}}}\n")
        loaded = project.load(folder)
        self.assertEqual(loaded.resources, {"memory_mb": most})
        self.assertEqual(loaded.port, _rules.CONTAINER_RUNTIME_DEFAULTS["port"])
        yaml.write_text(f"name: x\nresources: {{memory_mb: {most + 1}}}\n")
        least = _rules.RESOURCE_BOUNDS["memory_mb"]["min"]
        with self.assertRaisesRegex(
            project.ProjectError, f"resources.memory_mb is a whole number from {least} to {most}"
        ):
            project.load(folder)
        self.assertEqual(deploy.DEPLOY_DEFAULTS["concurrency"], _rules.CONTAINER_RUNTIME_DEFAULTS["concurrency"])


if __name__ == "__main__":
    unittest.main()
