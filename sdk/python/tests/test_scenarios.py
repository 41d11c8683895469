"""The shared SDK scenarios (test/sdk/scenarios.json, docs/sdk.md) in Python: one test per scenario
the list runs in Python, from the same list @limelight/client runs in Node and Chromium
(test/client/scenarios.ts), and a test that every one listed has its implementation here. Against
the real server (tests/server.py), except the log events: a container job's stream comes from a
small local server (the real server's are tested in test/integration/hosting/hosting-wire.test.ts)."""

from __future__ import annotations

import asyncio
import base64
import json
import sys
import tempfile
import threading
import time
import unittest
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import limelight  # noqa: E402
from limelight import webhooks  # noqa: E402

from .server import REPO, platform  # noqa: E402
from .test_client import TEXT2IMG, TINY_PNG, client  # noqa: E402

SCENARIOS: List[dict] = json.loads((REPO / "test" / "sdk" / "scenarios.json").read_text())["scenarios"]
LISTED = [s for s in SCENARIOS if "python" in s["runs"]]
# A text-to-image run takes 11 steps of 50 ms on the test server: at least 0.55 s.
SHORTER_THAN_A_RUN_S = 0.25

IMPLEMENTATIONS: Dict[str, Callable[[unittest.TestCase], None]] = {}


def scenario(name: str) -> Callable[[Callable[[unittest.TestCase], None]], Callable[[unittest.TestCase], None]]:
    def register(implementation: Callable[[unittest.TestCase], None]) -> Callable[[unittest.TestCase], None]:
        IMPLEMENTATIONS[name] = implementation
        return implementation

    return register


def serve(t: unittest.TestCase, handler: type) -> str:
    """A local HTTP server for one test's handler; its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    t.addCleanup(server.server_close)
    t.addCleanup(server.shutdown)
    return f"http://127.0.0.1:{server.server_address[1]}"


def small(prompt: str) -> dict:
    return {"prompt": prompt, "width": 64, "height": 64}


def until(done: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.05)


@scenario("run-output")
def run_output(t: unittest.TestCase) -> None:
    output = client().run(TEXT2IMG, input={"prompt": "a lime on a desk", "width": 128, "height": 128})
    t.assertEqual(output["image"].content_type, "image/png")
    with urllib.request.urlopen(output["image"].url) as response:
        downloaded = response.read()
    t.assertEqual(downloaded[:8], b"\x89PNG\r\n\x1a\n")
    t.assertEqual(output["image"].read(), downloaded)


@scenario("stream-resume")
def stream_resume(t: unittest.TestCase) -> None:
    c = client()
    job = c.submit(TEXT2IMG, {"prompt": "streamed", "width": 128, "height": 128})
    events = list(c.stream(job["job_id"]))
    t.assertEqual(events[-1].job["status"], "FINISHED")
    t.assertTrue(all(e.event == "job" for e in events))
    versions = [int(cast(str, e.id)) for e in events]
    t.assertEqual(versions, sorted(set(versions)))
    # Resuming after the first event (as after a dropped connection) repeats nothing before it.
    resumed = list(c.stream(job["job_id"], last_event_id=events[0].id))
    t.assertGreater(int(cast(str, resumed[0].id)), versions[0])
    t.assertEqual(resumed[-1].job["status"], "FINISHED")


@scenario("timeout")
def timeout(t: unittest.TestCase) -> None:
    c = client()
    started = time.monotonic()
    # A job of 7.5 s, so that "within the timeout" (a second's slack for a loaded machine, as the
    # JS scenario allows) is far from "when the job ended".
    with t.assertRaises(limelight.JobTimeoutError) as caught:
        c.run(TEXT2IMG, input={"prompt": "timed", "num_inference_steps": 150}, timeout=SHORTER_THAN_A_RUN_S)
    t.assertLess(time.monotonic() - started, SHORTER_THAN_A_RUN_S + 1.0)
    job_id = caught.exception.job_id
    assert job_id is not None
    t.assertIn(job_id, str(caught.exception))
    t.assertNotIn(c.get(job_id)["status"], ("CANCELLED", "FAILED"))  # the job goes on
    t.assertEqual(c.cancel(job_id)["status"], "CANCELLED")


@scenario("cancel-on-abort")
def cancel_on_abort(t: unittest.TestCase) -> None:
    server = platform()
    c = limelight.Client(base_url=server["url"], api_key=server["apiKey"])
    slow = {"prompt": "abandoned", "num_inference_steps": 150}
    started: List[str] = []

    def interrupt(job: limelight.Job) -> None:  # Ctrl-C while run waits for the job
        started.append(job["job_id"])
        raise KeyboardInterrupt

    with t.assertRaises(KeyboardInterrupt):
        c.run(TEXT2IMG, input=slow, on_job=interrupt, cancel_on_abort=True)
    t.assertEqual(c.get(started[-1])["status"], "CANCELLED")
    # A timeout is the caller giving up too; without the option the job goes on (see "timeout").
    with t.assertRaises(limelight.JobTimeoutError) as caught:
        c.run(TEXT2IMG, input=slow, timeout=SHORTER_THAN_A_RUN_S, cancel_on_abort=True)
    timed_out = caught.exception.job_id
    assert timed_out is not None
    t.assertIn("was cancelled", str(caught.exception))
    t.assertEqual(c.get(timed_out)["status"], "CANCELLED")

    # A cancelled task, while its run waits.
    async def main() -> str:
        async with limelight.AsyncClient(base_url=server["url"], api_key=server["apiKey"]) as a:
            ids: List[str] = []
            task = asyncio.ensure_future(
                a.run(TEXT2IMG, input=slow, on_job=lambda j: ids.append(j["job_id"]), cancel_on_abort=True)
            )
            until_async = time.monotonic() + 10
            while not ids and time.monotonic() < until_async:
                await asyncio.sleep(0.02)
            task.cancel()
            with t.assertRaises(asyncio.CancelledError):
                await task
            return ids[0]

    t.assertEqual(c.get(asyncio.run(main()))["status"], "CANCELLED")

    # A cancel that fails (here refused: the key is wrong by then) does not hide the interruption.
    lossy = limelight.Client(base_url=server["url"], api_key=server["apiKey"], max_retries=0)

    def interrupt_after_losing_the_key(job: limelight.Job) -> None:
        started.append(job["job_id"])
        lossy._http._auth = lambda: "lime_wrong"
        raise KeyboardInterrupt

    with t.assertRaises(KeyboardInterrupt) as interrupted:
        lossy.run(TEXT2IMG, input=slow, on_job=interrupt_after_losing_the_key, cancel_on_abort=True)
    if sys.version_info >= (3, 11):
        t.assertIn("cancelling job", " ".join(getattr(interrupted.exception, "__notes__", [])))
    t.assertNotEqual(c.get(started[-1])["status"], "CANCELLED")
    c.cancel(started[-1])


@scenario("callbacks")
def callbacks(t: unittest.TestCase) -> None:
    events: list = []
    first: list = []
    client().run(
        TEXT2IMG,
        input=small("watched"),
        on_job=lambda job: first.append(job["status"]),
        on_event=lambda e: events.append(e.job["status"]),
    )
    t.assertIn(first[0], ("QUEUED", "PROCESSING"))
    t.assertEqual(events[-1], "FINISHED")
    t.assertIn("PROCESSING", events)


def _log(n: int) -> dict:
    return {"at": f"2026-01-01T00:00:0{n}Z", "stream": "stdout" if n % 2 else "stderr", "text": f"line {n}"}


class _LoggingStream(BaseHTTPRequestHandler):
    """A container job as the server streams it: its stored log lines (no event id) before each
    envelope, every stored line again on a resumed connection, and a line after the final
    envelope. The first connection ends after one envelope (as a proxy cutting it would)."""

    protocol_version = "HTTP/1.0"
    last_event_ids: List[Any] = []

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        self._json(201, {"job_id": "j1", "status": "QUEUED"})

    def do_GET(self):  # noqa: N802
        if not self.path.endswith("/stream"):
            return self._json(200, {"job_id": "j1", "status": "FINISHED", "result": {"ok": True}, "logs": [_log(1)]})
        type(self).last_event_ids.append(self.headers.get("Last-Event-ID"))
        first = len(type(self).last_event_ids) == 1

        def log(n: int) -> str:
            return f"event: log\ndata: {json.dumps(_log(n))}\n\n"

        def job(version: int, status: str) -> str:
            result = {"ok": True} if status == "FINISHED" else None
            return f"event: job\nid: {version}\ndata: {json.dumps({'job_id': 'j1', 'status': status, 'result': result})}\n\n"

        text = (
            log(1) + log(2) + job(3, "PROCESSING")
            if first
            else ": heartbeat\n\n"
            + log(1)
            + log(2)
            + log(3)
            + "event: other\ndata: {}\n\n"
            + job(4, "FINISHED")
            + log(4)
        )
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(text.encode())

    def _json(self, status: int, body: Any) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps(body).encode())

    def log_message(self, *args):
        pass


@scenario("log-events")
def log_events(t: unittest.TestCase) -> None:
    _LoggingStream.last_event_ids = []
    c = limelight.Client(base_url=serve(t, _LoggingStream), api_key="lime_x")
    c._http.retry.base_delay_s = 0.01
    # Without a callback the log events are skipped (they once crashed it with KeyError 'status').
    t.assertEqual([e.job["status"] for e in c.stream("j1")], ["PROCESSING", "FINISHED"])
    _LoggingStream.last_event_ids = []
    seen: list = []
    output = c.run(
        "s",
        {"prompt": "x"},
        on_job=lambda j: seen.append(("job", j["status"])),
        on_event=lambda e: seen.append(("event", e.job["status"])),
        on_log=lambda line: seen.append(("log", line["text"])),
    )
    t.assertEqual(output, {"ok": True})
    t.assertEqual(
        seen,
        [
            ("job", "QUEUED"),
            ("log", "line 1"),
            ("log", "line 2"),
            ("event", "PROCESSING"),
            ("log", "line 3"),
            ("event", "FINISHED"),
            ("log", "line 4"),
        ],
    )
    t.assertEqual(_LoggingStream.last_event_ids, [None, "3"])
    t.assertEqual(c.logs("j1"), [_log(1)])


@scenario("async")
def async_client(t: unittest.TestCase) -> None:
    server = platform()

    async def main():
        async with limelight.AsyncClient(base_url=server["url"], api_key=server["apiKey"]) as c:
            jobs: list = []
            outputs = await asyncio.gather(
                *(c.run(TEXT2IMG, input=small(f"async {n}"), on_job=jobs.append) for n in range(2))
            )
            submitted = await c.submit(TEXT2IMG, small("async stream"))
            statuses = [event.job["status"] async for event in c.stream(submitted["job_id"])]
            listed = [job["job_id"] async for job in c.list(TEXT2IMG, page_size=2)]
            with t.assertRaises(limelight.JobTimeoutError) as caught:
                await c.run(TEXT2IMG, input=small("async late"), timeout=SHORTER_THAN_A_RUN_S)
            return outputs, jobs, submitted, statuses, listed, caught.exception.job_id

    outputs, jobs, submitted, statuses, listed, late = asyncio.run(main())
    t.assertEqual([o["image"]["content_type"] for o in outputs], ["image/png", "image/png"])
    t.assertEqual(len(jobs), 2)
    t.assertEqual(statuses[-1], "FINISHED")
    t.assertIn(submitted["job_id"], listed)
    t.assertIsNotNone(late)


@scenario("uploads")
def uploads(t: unittest.TestCase) -> None:
    c = client()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pixel.png"
        path.write_bytes(TINY_PNG)
        refs = [c.upload(path), c.upload(TINY_PNG)]
        with open(path, "rb") as handle:
            refs.append(c.upload(handle))
    for ref in refs:
        t.assertEqual((ref["content_type"], ref["size"]), ("image/png", len(TINY_PNG)))
        with urllib.request.urlopen(ref["url"]) as response:
            t.assertEqual(response.read(), TINY_PNG)


@scenario("typed-errors")
def typed_errors(t: unittest.TestCase) -> None:
    with t.assertRaises(limelight.ValidationError) as caught:
        client().run(TEXT2IMG, input={"width": "wide"})
    error = caught.exception
    t.assertEqual((error.status, error.code), (422, "invalid_input"))
    t.assertEqual(sorted((f["name"], f["rule"]) for f in error.fields), [("prompt", "required"), ("width", "type")])
    with t.assertRaises(limelight.NotFoundError):
        client().get("00000000-0000-4000-8000-000000000000")
    with t.assertRaises(limelight.AuthenticationError):
        limelight.Client(base_url=platform()["url"], api_key="lime_wrong").get("x")
    # A key reused for another input is a 409 that names the job the key made.
    key = str(uuid.uuid4())
    first = client().submit(TEXT2IMG, small("first"), idempotency_key=key)
    with t.assertRaises(limelight.ConflictError) as conflict:
        client().submit(TEXT2IMG, small("second"), idempotency_key=key)
    t.assertEqual((conflict.exception.status, conflict.exception.code), (409, "conflict"))
    t.assertEqual(conflict.exception.job_id, first["job_id"])


@scenario("list-cursor")
def list_cursor(t: unittest.TestCase) -> None:
    c = client()
    ids = [c.submit(TEXT2IMG, small(p))["job_id"] for p in ("one", "two", "three")]
    first = next(c.pages(TEXT2IMG, page_size=2))
    t.assertEqual([j["job_id"] for j in first["jobs"]], ids[::-1][:2])
    listed = [j["job_id"] for j in c.list(TEXT2IMG, page_size=2)]
    t.assertEqual(len(listed), len(set(listed)))
    rest = [j["job_id"] for j in c.list(TEXT2IMG, page_size=2, cursor=first["next_cursor"])]
    t.assertEqual(rest[0], ids[0])
    for job_id in ids:
        c.wait(c.get(job_id))


class _Receiver(BaseHTTPRequestHandler):
    """Records each delivery's body and headers."""

    received: List[tuple] = []

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append((body, dict(self.headers.items())))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@scenario("webhook-verify")
def webhook_verify(t: unittest.TestCase) -> None:
    _Receiver.received = []
    url = serve(t, _Receiver) + "/hook"
    c = client()
    job = c.submit(TEXT2IMG, small("hooked"), webhook=url)
    c.wait(job)
    until(lambda: bool(_Receiver.received))
    body, headers = _Receiver.received[0]
    # The secret is an account secret: API keys may not read it (docs/security.md), the session may.
    secret = limelight.Client(base_url=platform()["url"], token=platform()["token"]).webhook_secret()
    event = webhooks.verify(body, headers, secret)
    t.assertEqual((event["type"], event["data"]["job_id"]), ("job.finished", job["job_id"]))
    t.assertEqual(limelight.Client.verify_webhook(body.decode(), headers, secret)["data"]["status"], "FINISHED")
    with t.assertRaises(limelight.WebhookVerificationError):
        webhooks.verify(body.replace(b"FINISHED", b"FAILED"), headers, secret)
    with t.assertRaisesRegex(limelight.WebhookVerificationError, "tolerance"):
        webhooks.verify(body, headers, secret, now=int(headers["webhook-timestamp"]) + 3600)
    with t.assertRaises(limelight.WebhookVerificationError):
        webhooks.verify(body, headers, "whsec_" + base64.b64encode(b"x" * 32).decode())


@scenario("webhook-filter")
def webhook_filter(t: unittest.TestCase) -> None:
    _Receiver.received = []
    url = serve(t, _Receiver) + "/hook"
    c = client()
    started = c.submit(TEXT2IMG, small("start only"), webhook=url, webhook_events_filter=["start"])
    both = c.submit(TEXT2IMG, small("start and end"), webhook=url, webhook_events_filter=["start", "completed"])
    c.wait(started)
    c.wait(both)
    until(lambda: len(_Receiver.received) >= 3)
    time.sleep(0.3)  # nothing more comes
    events = [json.loads(body) for body, _ in _Receiver.received]
    sent = sorted((event["data"]["input"]["prompt"], event["type"]) for event in events)
    t.assertEqual(
        sent, [("start and end", "job.finished"), ("start and end", "job.started"), ("start only", "job.started")]
    )
    with t.assertRaises(limelight.ValidationError) as caught:
        c.submit(TEXT2IMG, {"prompt": "x"}, webhook=url, webhook_events_filter=["finished"])  # type: ignore[list-item]
    t.assertTrue(caught.exception.fields[0]["name"].startswith("webhook_events_filter"))


class ScenarioTest(unittest.TestCase):
    def test_every_scenario_listed_for_python_has_an_implementation(self):
        self.assertEqual([s["id"] for s in LISTED if s["id"] not in IMPLEMENTATIONS], [])
        # A scenario left out of Python says why.
        self.assertEqual(
            [s["id"] for s in SCENARIOS if "python" not in s["runs"] and "python" not in s.get("not_in", {})], []
        )


def _scenario_test(listed: dict) -> Callable[[ScenarioTest], None]:
    def test(self: ScenarioTest) -> None:
        implementation = IMPLEMENTATIONS.get(listed["id"])
        if implementation is None:
            self.fail(f"no implementation of the scenario {listed['id']}")
        implementation(self)

    test.__doc__ = f"{listed['id']}: {listed['expect']}"
    return test


for _listed in LISTED:
    setattr(ScenarioTest, "test_" + _listed["id"].replace("-", "_"), _scenario_test(_listed))


if __name__ == "__main__":
    unittest.main()
