"""limelight images against a small stand-in for the platform's API (the real platform and registry
are in test/integration/registry/images.test.ts): the listing with the quota used, and rm of a tag, a
shortened digest and a whole reference as the API's DELETE routes, a refusal (an image a service
uses) and a malformed name said in words with exit status 1."""

from __future__ import annotations

import json
import os
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Tuple

from .test_cli import limelight, temp_folder

HOST, NAMESPACE = "127.0.0.1:5000", "ada-0123456789ab"
OLD, NEW = "sha256:" + "a1" * 32, "sha256:" + "b2" * 32
LISTING = {
    "host": HOST,
    "namespace": NAMESPACE,
    "plan": "free",
    "used_bytes": 3 * 1024 * 1024,
    "quota_bytes": 2048 * 1024 * 1024,
    "garbage_collection": {"pending": False, "last": None},
    "repositories": [
        {
            "name": "ocr",
            "images": [
                {
                    "digest": NEW,
                    "tags": ["2", "latest"],
                    "size_bytes": 2 * 1024 * 1024,
                    "pushed_at": "2026-12-06T08:00:00.000Z",
                    "used_by": [{"id": "svc-1", "name": "Reader"}],
                },
                {
                    "digest": OLD,
                    "tags": [],
                    "size_bytes": 1024 * 1024,
                    "pushed_at": "2026-12-05T08:00:00.000Z",
                    "used_by": [],
                },
            ],
        }
    ],
}
IN_USE = 'ocr:2 is the image of your service "Reader": point the service at another image (or delete the service) first'


class Platform:
    """GET /v1/registry/images answers LISTING; DELETEs answer from `deletes` by raw path; records the calls."""

    def __init__(self, listing: Any, deletes: Dict[str, Tuple[int, Any]]):
        self.calls: List[Tuple[str, str]] = []
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
                platform.calls.append(("GET", self.path))
                self._answer(*(listing if isinstance(listing, tuple) else (200, listing)))

            def do_DELETE(self) -> None:
                platform.calls.append(("DELETE", self.path))
                self._answer(*deletes.get(self.path, (404, {"detail": f"No route {self.path}"})))

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Images(unittest.TestCase):
    def run_cli(self, listing: Any, deletes: Dict[str, Tuple[int, Any]], *args: str):
        platform = Platform(listing, deletes)
        self.addCleanup(platform.close)
        saved = {name: os.environ.get(name) for name in ("LIMELIGHT_BASE_URL", "LIMELIGHT_API_KEY")}
        os.environ.update({"LIMELIGHT_BASE_URL": platform.url, "LIMELIGHT_API_KEY": "lime_test"})
        try:
            return platform, limelight("images", *args, cwd=temp_folder(self))
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)

    def test_lists_images_with_the_quota_used(self) -> None:
        _, done = self.run_cli(LISTING, {})
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(lines[0], f"{HOST}/{NAMESPACE}: 3.0 MB of 2048.0 MB used (free plan)")
        self.assertRegex(lines[2], r"^ocr\s+2,latest\s+sha256:b2b2b2b2b2b2\s+2\.0 MB\s+2026-12-06 08:00 UTC\s+Reader$")
        self.assertRegex(lines[3], r"^ocr\s+<none>\s+sha256:a1a1a1a1a1a1\s+1\.0 MB\s+2026-12-05 08:00 UTC\s+-$")
        _, done = self.run_cli(LISTING, {}, "--json")
        self.assertEqual(json.loads(done.stdout), LISTING)
        _, done = self.run_cli({**LISTING, "repositories": []}, {})
        self.assertIn("no images yet", done.stdout)

    def test_rm_a_tag_a_short_digest_and_a_whole_reference(self) -> None:
        deletes = {
            "/v1/registry/images/ocr/latest": (
                200,
                {"name": "ocr", "deleted_digests": [], "untagged": ["latest"], "repository_deleted": False},
            ),
            f"/v1/registry/images/ocr/sha256%3A{'a1' * 32}": (
                200,
                {"name": "ocr", "deleted_digests": [OLD], "untagged": [], "repository_deleted": False},
            ),
        }
        platform, done = self.run_cli(
            LISTING, deletes, "rm", "ocr:latest", "ocr@sha256:a1a1a1a1", f"{HOST}/{NAMESPACE}/ocr:latest"
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(
            [c for c in platform.calls if c[0] == "DELETE"],
            [
                ("DELETE", "/v1/registry/images/ocr/latest"),
                ("DELETE", f"/v1/registry/images/ocr/sha256%3A{'a1' * 32}"),
                ("DELETE", "/v1/registry/images/ocr/latest"),
            ],
        )
        self.assertEqual(
            done.stdout.splitlines(),
            [
                "untagged ocr:latest (its image keeps its other tags)",
                f"deleted ocr@{OLD} (no tag); its bytes are freed within a minute",
                "untagged ocr:latest (its image keeps its other tags)",
            ],
        )

    def test_rm_a_whole_repository(self) -> None:
        deletes = {
            "/v1/registry/images/ocr": (
                200,
                {"name": "ocr", "deleted_digests": [OLD, NEW], "untagged": ["2"], "repository_deleted": True},
            )
        }
        _, done = self.run_cli(LISTING, deletes, "rm", "ocr")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.strip(), "deleted ocr (2 images); its bytes are freed within a minute")

    def test_refusals_in_words(self) -> None:
        platform, done = self.run_cli(LISTING, {"/v1/registry/images/ocr/2": (409, {"detail": IN_USE})}, "rm", "ocr:2")
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stderr.strip(), f"limelight images: cannot delete ocr:2: {IN_USE}")
        platform, done = self.run_cli(LISTING, {}, "rm", "OCR!:1")
        self.assertEqual(done.returncode, 1)
        self.assertIn("'OCR!:1' is not one of your images: give NAME, NAME:TAG or NAME@DIGEST", done.stderr)
        self.assertFalse([c for c in platform.calls if c[0] == "DELETE"])
        _, done = self.run_cli(LISTING, {}, "rm", "ocr@sha256:ffff")
        self.assertIn("ocr has no image sha256:ffff", done.stderr)
        _, done = self.run_cli((404, {"detail": "This platform runs no registry (container hosting is off)"}), {})
        self.assertEqual(done.returncode, 1)
        self.assertIn("runs no registry (container hosting is off", done.stderr)


if __name__ == "__main__":
    unittest.main()
