"""limelight versions and rollback against a small stand-in for the platform's API (the real
platform, engine and registry are in test/integration/hosting/rollback.test.ts): the table with
the serving version marked, pages followed, the service from .limelight/service.json or --service,
a rollback by a short digest that waits for its rollout (exit 0 once it serves, 1 with the
platform's reason when it fails), and refusals in the platform's words."""

from __future__ import annotations

import json
import os
import threading
import unittest
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from .test_cli import limelight, temp_folder

OLD, NEW = "sha256:" + "a1" * 32, "sha256:" + "b2" * 32
IMAGE_OLD, IMAGE_NEW = f"127.0.0.1:5000/ada/ocr@{OLD}", f"127.0.0.1:5000/ada/ocr@{NEW}"
ADA = {"id": "b0b1b0b1-0000-4000-8000-000000000003", "email": "ada@example.com"}


def version(vid: str, image: str, digest: str, at: str, outcome: str, current: bool, kind: str = "deploy") -> dict:
    return {
        "id": vid,
        "image": image,
        "digest": digest,
        "kind": kind,
        "deployed_at": at,
        "deployed_by": ADA,
        "outcome": outcome,
        "outcome_message": None,
        "current": current,
    }


V2 = version("2", IMAGE_NEW, NEW, "2026-12-06T09:30:00.000Z", "succeeded", True)
V1 = version("1", IMAGE_OLD, OLD, "2026-12-06T08:00:05.000Z", "succeeded", False)


class Platform:
    """The versions in two pages of one; a rollback answered by `rollback`; the hosting information
    a list of answers, the last repeated. Records the calls."""

    def __init__(self, rollback: Tuple[int, Any], hosting: List[dict]):
        self.calls: List[Tuple[str, str, Any]] = []
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _answer(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                platform.calls.append(("GET", self.path, None))
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                if url.path == "/v1/model_management/services/svc-1/versions":
                    if query.get("cursor") == "next":
                        return self._answer(200, {"versions": [V1], "next_cursor": None})
                    return self._answer(200, {"versions": [V2], "next_cursor": "next"})
                if url.path.endswith("/versions"):
                    return self._answer(404, {"detail": "No service svc-x"})
                if url.path == "/v1/model_management/services/svc-1/rollout":
                    answer = hosting.pop(0) if len(hosting) > 1 else hosting[0]
                    return self._answer(200, answer)
                self._answer(404, {"detail": f"No route {self.path}"})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"null")
                platform.calls.append(("POST", self.path, body))
                self._answer(*rollback)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def hosting(status: str, rollout: str, image: str = IMAGE_OLD, message: str = "Serving") -> dict:
    return {"status": status, "message": message, "rollout": {"image": image, "status": rollout, "message": message}}


class Versions(unittest.TestCase):
    def run_cli(
        self,
        *args: str,
        rollback: Tuple[int, Any] = (200, {}),
        hosting_answers: Optional[List[dict]] = None,
        saved: Optional[Dict[str, str]] = None,
    ):
        platform = Platform(rollback, hosting_answers or [hosting("running", "succeeded")])
        self.addCleanup(platform.close)
        folder = temp_folder(self)
        if saved is not None:
            (folder / ".limelight").mkdir()
            (folder / ".limelight" / "service.json").write_text(
                json.dumps({"id": saved["id"], "base_url": saved.get("base_url", platform.url)})
            )
        kept = {name: os.environ.get(name) for name in ("LIMELIGHT_BASE_URL", "LIMELIGHT_API_KEY")}
        os.environ.update({"LIMELIGHT_BASE_URL": platform.url, "LIMELIGHT_API_KEY": "lime_test"})
        try:
            return platform, limelight(*args, cwd=Path(folder))
        finally:
            for name, value in kept.items():
                os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)

    def test_lists_the_versions_newest_first_with_the_serving_one_marked(self) -> None:
        platform, done = self.run_cli("versions", saved={"id": "svc-1"})
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertRegex(lines[0], r"^\s+DIGEST\s+DEPLOYED\s+BY\s+KIND\s+OUTCOME$")
        self.assertRegex(lines[1], r"^\* b2b2b2b2b2b2 2026-12-06 09:30:00 UTC ada@example.com deploy succeeded$")
        self.assertRegex(lines[2], r"^  a1a1a1a1a1a1 2026-12-06 08:00:05 UTC ada@example.com deploy succeeded$")
        self.assertEqual(lines[3], "* serves now")
        # Both pages were read, the second with the first's cursor.
        gets = [path for method, path, _ in platform.calls if method == "GET"]
        self.assertEqual(len(gets), 2)
        self.assertIn("cursor=next", gets[1])
        _, done = self.run_cli("versions", "--json", "--service", "svc-1")
        self.assertEqual(json.loads(done.stdout), [V2, V1])

    def test_without_a_deployed_service_says_what_to_do(self) -> None:
        _, done = self.run_cli("versions")
        self.assertEqual(done.returncode, 1)
        self.assertIn(
            "no service deployed from this folder: run `limelight deploy` here, or pass --service ID", done.stderr
        )
        # A service deployed to another platform is not this platform's.
        _, done = self.run_cli("versions", saved={"id": "svc-1", "base_url": "http://elsewhere:3000"})
        self.assertEqual(done.returncode, 1)
        self.assertIn("no service deployed from this folder on http://127.0.0.1:", done.stderr)
        _, done = self.run_cli("versions", "--service", "svc-x")
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stderr.strip(), "limelight versions: No service svc-x")

    def test_rollback_by_a_short_digest_waits_until_it_serves(self) -> None:
        answers = [
            hosting("running", "pending", message="Saved"),
            hosting("deploying", "in_progress", message="Rolling"),
        ]
        answers.append(hosting("running", "succeeded"))
        platform, done = self.run_cli(
            "rollback",
            "a1a1a1",
            rollback=(200, version("3", IMAGE_OLD, OLD, "2026-12-06T10:00:00.000Z", "pending", False, "rollback")),
            hosting_answers=answers,
            saved={"id": "svc-1"},
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(("POST", "/v1/model_management/services/svc-1/rollback", {"digest": "a1a1a1"}), platform.calls)
        lines = done.stdout.splitlines()
        self.assertEqual(lines[0], f"rolling service svc-1 back to a1a1a1a1a1a1 ({IMAGE_OLD})")
        self.assertIn("deployment: deploying (Rolling); rollout: in_progress", lines)
        self.assertEqual(lines[-1], f"rolled back: {IMAGE_OLD} serves")

    def test_rollback_without_a_digest_asks_for_the_previous_version(self) -> None:
        platform, done = self.run_cli(
            "rollback",
            "--wait",
            "0",
            rollback=(200, version("3", IMAGE_OLD, OLD, "2026-12-06T10:00:00.000Z", "pending", False, "rollback")),
            saved={"id": "svc-1"},
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(("POST", "/v1/model_management/services/svc-1/rollback", {}), platform.calls)
        self.assertIn("saved (not waiting for the rollout", done.stdout)
        self.assertFalse([c for c in platform.calls if c[1].endswith("/rollout")])

    def test_a_failed_rollout_exits_1_with_the_reason(self) -> None:
        reason = "The update did not start, the previous version still runs: The runner has no room"
        _, done = self.run_cli(
            "rollback",
            "--service",
            "svc-1",
            rollback=(200, version("3", IMAGE_OLD, OLD, "2026-12-06T10:00:00.000Z", "pending", False, "rollback")),
            hosting_answers=[hosting("running", "failed", message=reason)],
        )
        self.assertEqual(done.returncode, 1)
        self.assertIn(f"limelight rollback: the rollout of {IMAGE_OLD} failed: {reason}", done.stderr)
        self.assertNotIn("rolled back", done.stdout)

    def test_refusals_in_the_platforms_words(self) -> None:
        gone = "The image ada/ocr@a1a1a1a1a1a1… is no longer in the platform's registry (it was deleted): push it again"
        _, done = self.run_cli("rollback", "a1a1", rollback=(422, {"detail": gone}), saved={"id": "svc-1"})
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stderr.strip(), f"limelight rollback: {gone}")
        _, done = self.run_cli(
            "rollback",
            "ffff",
            rollback=(404, {"detail": "No version of the service svc-1 has the digest ffff"}),
            saved={"id": "svc-1"},
        )
        self.assertEqual(done.returncode, 1)
        self.assertIn("No version of the service svc-1 has the digest ffff", done.stderr)
        _, done = self.run_cli("rollback", "--wait", "-1", saved={"id": "svc-1"})
        self.assertEqual(done.returncode, 1)
        self.assertIn("--wait: give the seconds", done.stderr)


if __name__ == "__main__":
    unittest.main()
