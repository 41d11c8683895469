"""limelight against the real local platform server (tests/server.py): submit, get and list,
cancel, file inputs and the type generator (the shared scenarios: test_scenarios.py). Retries are checked against a tiny local
HTTP server that fails on purpose (a 503 the real server never sends on demand)."""

from __future__ import annotations

import asyncio
import base64
import json
import sys
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import limelight  # noqa: E402
from limelight import types as limelight_types  # noqa: E402

from .server import platform  # noqa: E402

TEXT2IMG = "lime-diffusion-xl"
CUTOUT = "lime-cutout"  # background removal: a required image file input
TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def client() -> limelight.Client:
    server = platform()
    return limelight.Client(base_url=server["url"], api_key=server["apiKey"])


class RunTest(unittest.TestCase):
    def test_submit_get_and_list(self):
        c = client()
        job = c.submit(TEXT2IMG, {"prompt": "listed", "width": 64, "height": 64}, "/generate")
        self.assertIn(job["status"], ("QUEUED", "PROCESSING"))
        self.assertEqual(c.get(job["job_id"])["job_id"], job["job_id"])
        listed = [j["job_id"] for j in c.list(service_id=TEXT2IMG, page_size=1)]
        self.assertIn(job["job_id"], listed)
        self.assertEqual(len(listed), len(set(listed)))
        self.assertEqual(c.wait(job)["status"], "FINISHED")


class CancelTest(unittest.TestCase):
    def test_cancel_ends_a_job_cancelled(self):
        c = client()
        job = c.submit(TEXT2IMG, {"prompt": "to cancel", "num_inference_steps": 150})
        cancelled = c.cancel(job["job_id"])
        self.assertEqual(cancelled["status"], "CANCELLED")
        self.assertEqual(c.get(job["job_id"])["status"], "CANCELLED")
        # An ended job is answered unchanged.
        self.assertEqual(c.cancel(job["job_id"])["status"], "CANCELLED")

    def test_a_timeout_while_waiting_keeps_the_job_id(self):
        c = client()
        with self.assertRaises(limelight.JobTimeoutError) as caught:
            c.run(TEXT2IMG, input={"prompt": "slow", "num_inference_steps": 150}, timeout=0)
        job_id = caught.exception.job_id
        assert job_id is not None
        self.assertEqual(c.wait(c.get(job_id))["status"], "FINISHED")


class FileTest(unittest.TestCase):
    def test_run_uploads_file_inputs_first(self):
        output = client().run(CUTOUT, input={"image": TINY_PNG}, endpoint="/remove")
        self.assertTrue(output["image"]["content_type"].startswith("image/"))


class _Flaky(BaseHTTPRequestHandler):
    """503 (with Retry-After: 0) on the first POST, then 201: records each Idempotency-Key."""

    keys: list = []

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        type(self).keys.append(self.headers["Idempotency-Key"])
        first = len(type(self).keys) == 1
        self.send_response(503 if first else 201)
        self.send_header("Content-Type", "application/json")
        if first:
            self.send_header("Retry-After", "0")
        self.end_headers()
        self.wfile.write(json.dumps({"detail": "busy"} if first else {"job_id": "j1", "status": "QUEUED"}).encode())

    def log_message(self, *args):
        pass


class _SlowCreate(BaseHTTPRequestHandler):
    """Stores an upload; holds the first create past the caller's deadline; answers the replay."""

    bodies: list = []

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/v1/files":
            answer = {"url": "http://127.0.0.1:9/f/pixel.png", "content_type": "image/png", "size": len(TINY_PNG)}
        else:
            type(self).bodies.append(json.loads(body))
            if len(type(self).bodies) == 1:
                time.sleep(3)
            answer = {"job_id": "j1", "status": "QUEUED"}
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps(answer).encode())

    def log_message(self, *args):
        pass


class SubmissionTimeoutTest(unittest.TestCase):
    def test_a_submission_past_the_deadline_is_replayed_with_the_uploaded_files_url(self):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _SlowCreate)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        slow = limelight.Client(base_url=f"http://127.0.0.1:{server.server_address[1]}", api_key="lime_x")
        with self.assertRaises(limelight.JobTimeoutError) as caught:
            slow.run("s", input={"image": TINY_PNG}, timeout=1.6)
        self.assertEqual(caught.exception.job_id, "j1")
        created, replayed = _SlowCreate.bodies
        self.assertEqual(replayed, created)
        self.assertEqual(replayed["input"]["image"], "http://127.0.0.1:9/f/pixel.png")
        # The same with AsyncClient (either transport).
        _SlowCreate.bodies = []

        async def run_async() -> None:
            async with limelight.AsyncClient(base_url=slow.base_url, api_key="lime_x") as c:
                await c.run("s", input={"image": TINY_PNG}, timeout=1.6)

        with self.assertRaises(limelight.JobTimeoutError) as caught:
            asyncio.run(run_async())
        self.assertEqual(caught.exception.job_id, "j1")
        created, replayed = _SlowCreate.bodies
        self.assertEqual(replayed["input"]["image"], created["input"]["image"])


class RetryTest(unittest.TestCase):
    def test_a_503_is_retried_with_the_same_idempotency_key(self):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        flaky = limelight.Client(base_url=f"http://127.0.0.1:{server.server_address[1]}", api_key="lime_x")
        self.assertEqual(flaky.submit("s", {"prompt": "x"})["job_id"], "j1")
        self.assertEqual(len(_Flaky.keys), 2)
        self.assertEqual(_Flaky.keys[0], _Flaky.keys[1])

    def test_retry_after_and_backoff(self):
        from limelight._http import RetryPolicy, retry_after_seconds

        self.assertEqual(retry_after_seconds("3"), 3.0)
        dated = retry_after_seconds("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0)
        assert dated is not None
        self.assertAlmostEqual(dated, 10.0)
        policy = RetryPolicy(base_delay_s=1, max_delay_s=4)
        self.assertEqual(policy.delay(5, 2.0), 2.0)
        self.assertTrue(all(0 <= policy.delay(10, None) <= 4 for _ in range(50)))


class OptionsTest(unittest.TestCase):
    def test_a_client_timeout_that_bounds_nothing_is_refused(self):
        for bad in (0, -1, float("nan")):
            with self.assertRaisesRegex(ValueError, "timeout must be a positive number of seconds"):
                limelight.Client(base_url="http://127.0.0.1:9", api_key="lime_x", timeout=bad)


class TypesTest(unittest.TestCase):
    def test_generated_module_types_inputs_and_outputs(self):
        c = client()
        source = limelight_types.generate({TEXT2IMG: c.openapi(TEXT2IMG)})
        namespace: dict = {}
        exec(compile(source, "limelight_types.py", "exec"), namespace)  # noqa: S102
        input_type = namespace["LimeDiffusionXlGenerateInput"]
        self.assertEqual(input_type.__required_keys__, frozenset({"prompt"}))
        self.assertIn("width", input_type.__optional_keys__)
        self.assertEqual(namespace["LimeDiffusionXlGenerateOutput"].__required_keys__, frozenset({"image"}))
        output = namespace["run_lime_diffusion_xl_generate"](c, {"prompt": "typed", "width": 64, "height": 64})
        self.assertEqual(output["image"]["content_type"], "image/png")


if __name__ == "__main__":
    unittest.main()
