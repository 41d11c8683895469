"""limelight against the real local platform server (tests/server.py): run, stream (with resume),
cancel, files, errors, webhooks and the type generator. Retries are checked against a tiny local
HTTP server that fails on purpose (a 503 the real server never sends on demand)."""

from __future__ import annotations

import base64
import json
import sys
import tempfile
import threading
import unittest
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import limelight  # noqa: E402
from limelight import types as limelight_types  # noqa: E402
from limelight import webhooks  # noqa: E402

from .server import platform  # noqa: E402

TEXT2IMG = "lime-diffusion-xl"
CUTOUT = "lime-cutout"  # background removal: a required image file input
TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")


def client() -> limelight.Client:
    server = platform()
    return limelight.Client(base_url=server["url"], api_key=server["apiKey"])


class RunTest(unittest.TestCase):
    def test_run_returns_the_finished_output_with_a_downloadable_image(self):
        output = client().run(TEXT2IMG, input={"prompt": "a lime on a desk", "width": 256, "height": 256})
        self.assertEqual(output["image"]["content_type"], "image/png")
        with urllib.request.urlopen(output["image"]["url"]) as response:
            self.assertEqual(response.read()[:8], b"\x89PNG\r\n\x1a\n")

    def test_invalid_input_raises_a_validation_error_per_field_and_queues_nothing(self):
        with self.assertRaises(limelight.ValidationError) as caught:
            client().run(TEXT2IMG, input={"width": "wide"})
        error = caught.exception
        self.assertEqual(error.status, 422)
        self.assertEqual(error.code, "invalid_input")
        self.assertEqual(sorted((f["name"], f["rule"]) for f in error.fields), [("prompt", "required"), ("width", "type")])

    def test_bad_credentials_and_unknown_services_raise_typed_errors(self):
        with self.assertRaises(limelight.AuthenticationError):
            limelight.Client(base_url=platform()["url"], api_key="lime_wrong").get("00000000-0000-4000-8000-000000000000")
        with self.assertRaises(limelight.NotFoundError):
            client().submit("no-such-service", {"prompt": "x"})

    def test_submit_get_and_list(self):
        c = client()
        job = c.submit(TEXT2IMG, {"prompt": "listed", "width": 64, "height": 64}, "/generate")
        self.assertIn(job["status"], ("QUEUED", "PROCESSING"))
        self.assertEqual(c.get(job["job_id"])["job_id"], job["job_id"])
        listed = [j["job_id"] for j in c.list(service_id=TEXT2IMG, page_size=1)]
        self.assertIn(job["job_id"], listed)
        self.assertEqual(len(listed), len(set(listed)))
        self.assertEqual(c.wait(job)["status"], "FINISHED")


class StreamTest(unittest.TestCase):
    def test_stream_yields_every_change_until_the_final_status_and_resumes_after_an_event(self):
        c = client()
        job = c.submit(TEXT2IMG, {"prompt": "streamed", "width": 128, "height": 128})
        events = list(c.stream(job["job_id"]))
        self.assertEqual(events[-1].job["status"], "FINISHED")
        self.assertTrue(all(e.event == "job" for e in events))
        versions = [int(e.id) for e in events]
        self.assertEqual(versions, sorted(set(versions)))
        # Resuming after the first event (as after a dropped connection) repeats nothing before it.
        resumed = list(c.stream(job["job_id"], last_event_id=events[0].id))
        self.assertGreater(int(resumed[0].id), versions[0])
        self.assertEqual(resumed[-1].job["status"], "FINISHED")


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
        self.assertEqual(c.wait(c.get(caught.exception.job_id))["status"], "FINISHED")


class FileTest(unittest.TestCase):
    def test_upload_from_a_path_bytes_and_a_file_object(self):
        c = client()
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "pixel.png"
            path.write_bytes(TINY_PNG)
            refs = [c.upload(path), c.upload(TINY_PNG)]
            with open(path, "rb") as handle:
                refs.append(c.upload(handle))
        for ref in refs:
            self.assertEqual((ref["content_type"], ref["size"]), ("image/png", len(TINY_PNG)))
            with urllib.request.urlopen(ref["url"]) as response:
                self.assertEqual(response.read(), TINY_PNG)

    def test_run_uploads_file_inputs_first(self):
        output = client().run(CUTOUT, input={"image": TINY_PNG}, endpoint="/remove")
        self.assertTrue(output["image"]["content_type"].startswith("image/"))


class _Receiver(BaseHTTPRequestHandler):
    received: list = []

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append((body, dict(self.headers.items())))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


class WebhookTest(unittest.TestCase):
    def test_a_delivered_webhook_verifies_and_a_tampered_or_stale_one_does_not(self):
        receiver = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
        threading.Thread(target=receiver.serve_forever, daemon=True).start()
        self.addCleanup(receiver.server_close)
        self.addCleanup(receiver.shutdown)
        c = client()
        url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
        job = c.submit(TEXT2IMG, {"prompt": "hooked", "width": 64, "height": 64}, webhook=url)
        c.wait(job)
        for _ in range(100):
            if _Receiver.received:
                break
            threading.Event().wait(0.1)
        body, headers = _Receiver.received[0]
        # The secret is an account secret: API keys may not read it (docs/security.md), the session may.
        secret = limelight.Client(base_url=platform()["url"], token=platform()["token"]).webhook_secret()
        event = webhooks.verify(body, headers, secret)
        self.assertEqual((event["type"], event["data"]["job_id"]), ("job.finished", job["job_id"]))
        self.assertEqual(limelight.Client.verify_webhook(body.decode(), headers, secret)["data"]["status"], "FINISHED")
        tampered = body.replace(b"FINISHED", b"FAILED")
        with self.assertRaises(limelight.WebhookVerificationError):
            webhooks.verify(tampered, headers, secret)
        with self.assertRaisesRegex(limelight.WebhookVerificationError, "tolerance"):
            webhooks.verify(body, headers, secret, now=int(headers["webhook-timestamp"]) + 3600)
        with self.assertRaises(limelight.WebhookVerificationError):
            webhooks.verify(body, headers, "whsec_" + base64.b64encode(b"x" * 32).decode())


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
        self.assertAlmostEqual(retry_after_seconds("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0), 10.0)
        policy = RetryPolicy(base_delay_s=1, max_delay_s=4)
        self.assertEqual(policy.delay(5, 2.0), 2.0)
        self.assertTrue(all(0 <= policy.delay(10, None) <= 4 for _ in range(50)))


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
