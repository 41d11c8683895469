"""limelight at the JavaScript client's level (docs/sdk.md, "Side by side"): the overall timeout
raises with the job id, every stream event type (container `log` events too), callbacks while the
job runs, str paths uploaded, list cursors, estimate, logs, AsyncClient, credentials from the
environment, webhook event filters and py.typed. Against the real server (tests/server.py), and a
small local server where the real one cannot be made to misbehave (a held create, a container's
log lines)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
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
    def test_run_raises_at_its_timeout_while_following_the_stream_and_the_job_goes_on(self):
        c = client()
        started = time.monotonic()
        with self.assertRaises(limelight.JobTimeoutError) as caught:
            c.run(TEXT2IMG, input={"prompt": "timed", "width": 64, "height": 64}, timeout=SHORTER_THAN_A_RUN_S)
        self.assertLess(time.monotonic() - started, SHORTER_THAN_A_RUN_S + 0.5)
        job_id = caught.exception.job_id
        self.assertIsNotNone(job_id)
        self.assertIn(job_id, str(caught.exception))
        self.assertEqual(c.wait(c.get(job_id))["status"], "FINISHED")

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

        text = (log(1) + log(2) + job(3, "PROCESSING") if first
                else ": heartbeat\n\n" + log(1) + log(2) + log(3) + "event: other\ndata: {}\n\n" + job(4, "FINISHED") + log(4))
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


class LogEventTest(unittest.TestCase):
    def setUp(self):
        _LoggingStream.last_event_ids = []
        self.client = limelight.Client(base_url=serve(_LoggingStream), api_key="lime_x")
        self.client._http.retry.base_delay_s = 0.01

    def test_stream_skips_log_events_without_a_callback_and_gives_each_line_once_with_one(self):
        statuses = [e.job["status"] for e in self.client.stream("j1")]
        self.assertEqual(statuses, ["PROCESSING", "FINISHED"])
        _LoggingStream.last_event_ids = []
        lines: list = []
        statuses = [e.job["status"] for e in self.client.stream("j1", on_log=lines.append)]
        self.assertEqual(statuses, ["PROCESSING", "FINISHED"])
        self.assertEqual(lines, [_log(1), _log(2), _log(3), _log(4)])
        self.assertEqual(_LoggingStream.last_event_ids, [None, "3"])

    def test_run_passes_the_job_its_events_and_its_lines_to_the_callbacks(self):
        seen: list = []
        output = self.client.run("s", {"prompt": "x"}, on_job=lambda j: seen.append(("job", j["status"])),
                                 on_event=lambda e: seen.append(("event", e.job["status"])),
                                 on_log=lambda line: seen.append(("log", line["text"])))
        self.assertEqual(output, {"ok": True})
        self.assertEqual(seen, [("job", "QUEUED"), ("log", "line 1"), ("log", "line 2"), ("event", "PROCESSING"),
                                ("log", "line 3"), ("event", "FINISHED"), ("log", "line 4")])
        self.assertEqual(self.client.logs("j1"), [_log(1)])


class CallbackTest(unittest.TestCase):
    def test_on_job_comes_as_soon_as_the_job_exists_and_on_event_with_every_change(self):
        events: list = []
        first: list = []
        client().run(TEXT2IMG, input={"prompt": "watched", "width": 64, "height": 64},
                     on_job=lambda job: first.append(job["status"]), on_event=lambda e: events.append(e.job["status"]))
        self.assertIn(first[0], ("QUEUED", "PROCESSING"))
        self.assertEqual(events[-1], "FINISHED")
        self.assertIn("PROCESSING", events)


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

    def test_pages_go_on_from_a_cursor(self):
        c = client()
        ids = [c.submit(TEXT2IMG, {"prompt": p, "width": 64, "height": 64})["job_id"] for p in "abc"]
        first = next(c.pages(TEXT2IMG, page_size=2))
        self.assertEqual([j["job_id"] for j in first["jobs"]], ids[::-1][:2])
        rest = [j["job_id"] for j in c.list(TEXT2IMG, page_size=2, cursor=first["next_cursor"])]
        self.assertEqual(rest[0], ids[0])
        for job_id in ids:
            c.wait(c.get(job_id))

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


class AsyncClientTest(unittest.TestCase):
    def test_runs_side_by_side_streams_and_lists_with_asyncio(self):
        server = platform()

        async def main():
            async with limelight.AsyncClient(base_url=server["url"], api_key=server["apiKey"]) as c:
                jobs: list = []
                outputs = await asyncio.gather(*(
                    c.run(TEXT2IMG, input={"prompt": f"async {n}", "width": 64, "height": 64}, on_job=jobs.append)
                    for n in range(2)))
                submitted = await c.submit(TEXT2IMG, {"prompt": "async stream", "width": 64, "height": 64})
                statuses = [event.job["status"] async for event in c.stream(submitted["job_id"])]
                listed = [job["job_id"] async for job in c.list(TEXT2IMG, page_size=2)]
                with self.assertRaises(limelight.JobTimeoutError):
                    await c.run(TEXT2IMG, input={"prompt": "async late", "width": 64, "height": 64},
                                timeout=SHORTER_THAN_A_RUN_S)
                return outputs, jobs, submitted, statuses, listed

        outputs, jobs, submitted, statuses, listed = asyncio.run(main())
        self.assertEqual([o["image"]["content_type"] for o in outputs], ["image/png", "image/png"])
        self.assertEqual(len(jobs), 2)
        self.assertEqual(statuses[-1], "FINISHED")
        self.assertIn(submitted["job_id"], listed)


class _Receiver(BaseHTTPRequestHandler):
    received: List[dict] = []

    def do_POST(self):  # noqa: N802
        type(self).received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


class WebhookFilterTest(unittest.TestCase):
    def test_the_webhook_is_sent_for_the_chosen_events_only(self):
        url = serve(_Receiver) + "/hook"
        c = client()
        started = c.submit(TEXT2IMG, {"prompt": "start only", "width": 64, "height": 64}, webhook=url,
                           webhook_events_filter=["start"])
        both = c.submit(TEXT2IMG, {"prompt": "start and end", "width": 64, "height": 64}, webhook=url,
                        webhook_events_filter=["start", "completed"])
        c.wait(started)
        c.wait(both)
        deadline = time.monotonic() + 10
        while len(_Receiver.received) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # nothing more comes
        sent = sorted((event["data"]["input"]["prompt"], event["type"]) for event in _Receiver.received)
        self.assertEqual(sent, [("start and end", "job.finished"), ("start and end", "job.started"),
                                ("start only", "job.started")])
        with self.assertRaises(limelight.ValidationError) as caught:
            c.submit(TEXT2IMG, {"prompt": "x"}, webhook=url, webhook_events_filter=["finished"])  # type: ignore[list-item]
        self.assertTrue(caught.exception.fields[0]["name"].startswith("webhook_events_filter"))


class PackagingTest(unittest.TestCase):
    def test_the_built_package_carries_py_typed(self):
        with tempfile.TemporaryDirectory() as folder:
            for name in ("pyproject.toml", "README.md"):
                (Path(folder) / name).write_bytes((SDK / name).read_bytes())
            subprocess.run(["cp", "-r", str(SDK / "limelight"), folder], check=True)
            subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py",
                            "--build-lib", "out"], cwd=folder, check=True, capture_output=True)
            self.assertTrue((Path(folder) / "out" / "limelight" / "py.typed").is_file())


if __name__ == "__main__":
    unittest.main()
