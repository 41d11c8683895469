"""AsyncClient's native asyncio transport (httpx) and its fallback, the worker threads (issue 51,
item 5; docs/sdk.md, "Async Python"): cancelling a task cancels its request at once, so
``asyncio.run()`` returns right after the cancel (with the threads it waited for the thread);
``cancel_on_abort`` cancels the job with either transport; the retries, redirects and stream
rules are the sync client's. Against the real server (tests/server.py) and small local servers."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import json
import subprocess
import sys
import threading
import unittest
from concurrent.futures import Future, ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import limelight  # noqa: E402
from limelight import _http  # noqa: E402

from .server import platform  # noqa: E402
from .test_client import TEXT2IMG  # noqa: E402
from .test_scenarios import _LoggingStream, serve  # noqa: E402

# 150 steps of 50 ms on the test server: a job that runs for 7.5 s, far longer than any wait here.
SLOW = {"prompt": "slow", "num_inference_steps": 150}
HAS_HTTPX = importlib.util.find_spec("httpx") is not None
needs_httpx = unittest.skipUnless(
    HAS_HTTPX, "httpx is not installed: apt-get install python3-httpx (or pip install httpx)"
)


class _WatchedExecutor(ThreadPoolExecutor):
    """The loop's default executor, counting the calls still running in it: what ``asyncio.run()``
    waits for at its end (the threads transport's blocked read took 2.9 s and more)."""

    def __init__(self) -> None:
        super().__init__(max_workers=4)
        self._lock = threading.Lock()
        self.running = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        def watched() -> Any:
            try:
                return fn(*args, **kwargs)
            finally:
                with self._lock:
                    self.running -= 1

        with self._lock:
            self.running += 1
        return super().submit(watched)


def cancel_while_waiting(transport: str, cancel_on_abort: bool) -> Tuple[str, int]:
    """Runs a slow job, cancels the task once the job exists, and answers the job's id and how
    many calls were still running in the loop's worker threads once the cancelled task had ended
    (each one a thread ``asyncio.run()`` must wait for before it returns)."""
    server = platform()
    left_running: List[int] = []

    async def main() -> str:
        executor = _WatchedExecutor()
        asyncio.get_running_loop().set_default_executor(executor)
        client = limelight.AsyncClient(base_url=server["url"], api_key=server["apiKey"], transport=transport)
        started = asyncio.Event()
        ids: List[str] = []

        def on_job(job: limelight.Job) -> None:
            ids.append(job["job_id"])
            started.set()

        task = asyncio.ensure_future(client.run(TEXT2IMG, input=SLOW, on_job=on_job, cancel_on_abort=cancel_on_abort))
        await asyncio.wait_for(started.wait(), 10)
        await asyncio.sleep(0.2)  # the run is now waiting on the job's stream
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        left_running.append(executor.running)
        await client.aclose()
        return ids[0]

    job_id = asyncio.run(main())
    return job_id, left_running[0]


class Transports(unittest.TestCase):
    def test_the_client_says_which_transport_it_uses(self) -> None:
        self.assertEqual(limelight.AsyncClient(api_key="lime_x").transport, "httpx" if HAS_HTTPX else "threads")
        self.assertEqual(limelight.AsyncClient(api_key="lime_x", transport="threads").transport, "threads")
        with self.assertRaisesRegex(ValueError, 'transport is "httpx" or "threads"'):
            limelight.AsyncClient(api_key="lime_x", transport="pigeon")

    def test_without_httpx_the_threads_carry_the_calls_without_a_warning(self) -> None:
        # httpx made unimportable in a fresh interpreter; any warning is an error there.
        script = (
            "import sys; sys.modules['httpx'] = None\n"
            "import limelight\n"
            "client = limelight.AsyncClient(api_key='lime_x')\n"
            "print(client.transport)\n"
            "try:\n"
            "    limelight.AsyncClient(api_key='lime_x', transport='httpx')\n"
            "except ImportError as error:\n"
            "    print(error)\n"
        )
        done = subprocess.run(
            [sys.executable, "-W", "error", "-c", script],
            cwd=Path(__file__).resolve().parents[1],
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stderr, "")
        transport, refusal = done.stdout.splitlines()
        self.assertEqual(transport, "threads")
        self.assertIn('pip install "limelight[async]"', refusal)

    @needs_httpx
    def test_cancelling_a_task_cancels_its_request_at_once(self) -> None:
        sync = limelight.Client(base_url=platform()["url"], api_key=platform()["apiKey"])
        job_id, left_running = cancel_while_waiting("httpx", cancel_on_abort=False)
        self.assertEqual(left_running, 0)  # nothing for asyncio.run() to wait for
        # It did not wait for the job either: the 7.5 s job is still running, as by default it goes on.
        self.assertNotIn(sync.get(job_id)["status"], ("CANCELLED", "FINISHED", "FAILED"))
        sync.cancel(job_id)

    @needs_httpx
    def test_cancel_on_abort_cancels_the_job_with_either_transport(self) -> None:
        sync = limelight.Client(base_url=platform()["url"], api_key=platform()["apiKey"])
        job_id, left_running = cancel_while_waiting("httpx", cancel_on_abort=True)
        self.assertEqual(left_running, 0)  # the cancel request included: it ran on the loop
        self.assertEqual(sync.get(job_id)["status"], "CANCELLED")
        # The threads: the task cancels the job, whose stream then ends, and so does the thread.
        job_id, _ = cancel_while_waiting("threads", cancel_on_abort=True)
        self.assertEqual(sync.get(job_id)["status"], "CANCELLED")

    @needs_httpx
    def test_a_file_output_downloads_on_the_event_loop(self) -> None:
        server = platform()

        async def main() -> Tuple[Any, bytes]:
            async with limelight.AsyncClient(base_url=server["url"], api_key=server["apiKey"]) as client:
                image = (await client.run(TEXT2IMG, input={"prompt": "native", "width": 64, "height": 64}))["image"]
                return image, await image.read()

        image, data = asyncio.run(main())
        self.assertIsNotNone(image._async_open)  # not the threads
        self.assertEqual(len(data), image.size)
        self.assertTrue(data.startswith(b"\x89PNG"))


class _InterruptedRead(io.BytesIO):
    """A file input whose reading is interrupted (Ctrl-C while ``run`` uploads it)."""

    def read(self, size: Optional[int] = -1) -> bytes:
        raise KeyboardInterrupt


class CancelOnAbortBeforeTheJob(unittest.TestCase):
    def test_an_interruption_while_uploading_stays_the_interruption(self) -> None:
        # Finding the job by replaying the submission cannot even encode a file object: that
        # must not replace the KeyboardInterrupt, and no job exists to cancel.
        server = platform()
        client = limelight.Client(base_url=server["url"], api_key=server["apiKey"])
        with self.assertRaises(KeyboardInterrupt) as caught:
            client.run(TEXT2IMG, input={"prompt": "x", "image": _InterruptedRead(b"png")}, cancel_on_abort=True)
        if sys.version_info >= (3, 11):
            self.assertEqual(getattr(caught.exception, "__notes__", []), ["no job was found to cancel"])

    @needs_httpx
    def test_the_same_for_a_cancelled_task(self) -> None:
        server = platform()

        async def main() -> None:
            async with limelight.AsyncClient(base_url=server["url"], api_key=server["apiKey"]) as client:
                await client.run(
                    TEXT2IMG, input={"prompt": "x", "image": _InterruptedRead(b"png")}, cancel_on_abort=True
                )

        with self.assertRaises(KeyboardInterrupt):
            asyncio.run(main())


class _Flaky(BaseHTTPRequestHandler):
    """503 (Retry-After: 0) to the first POST and 429 to the first GET, then answers; keeps each
    request's method, Idempotency-Key and Authorization."""

    seen: List[Tuple[str, Optional[str], Optional[str]]] = []
    lock = threading.Lock()

    def log_message(self, *args: Any) -> None:
        pass

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        with self.lock:
            seen = type(self).seen
            seen.append((self.command, self.headers.get("Idempotency-Key"), self.headers.get("Authorization")))
            first = sum(1 for method, _, _ in seen if method == self.command) == 1
        status, body = (503 if self.command == "POST" else 429, {"detail": "busy"}) if first else (201, JOB)
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if first:
            self.send_header("Retry-After", "0")
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _answer


JOB: Dict[str, Any] = {"job_id": "j1", "status": "QUEUED"}


@needs_httpx
class SharedRules(unittest.TestCase):
    def test_retries_send_the_same_idempotency_key(self) -> None:
        _Flaky.seen = []
        url = serve(self, _Flaky)

        async def main() -> Tuple[Any, Any]:
            async with limelight.AsyncClient(base_url=url, api_key="lime_k") as client:
                return await client.submit("svc", {"prompt": "x"}), await client.get("j1")

        submitted, got = asyncio.run(main())
        self.assertEqual((submitted["job_id"], got["job_id"]), ("j1", "j1"))
        posts = [(key, auth) for method, key, auth in _Flaky.seen if method == "POST"]
        self.assertEqual(len(posts), 2)
        self.assertIsNotNone(posts[0][0])
        self.assertEqual(posts[0], posts[1])  # one key on every attempt: one job
        self.assertEqual(posts[0][1], "Bearer lime_k")
        self.assertEqual([m for m, _, _ in _Flaky.seen if m == "GET"], ["GET", "GET"])

    def test_a_stream_resumes_and_gives_each_log_line_once(self) -> None:
        # The log-events scenario's stream (cut after one envelope, lines replayed), natively read.
        _LoggingStream.last_event_ids = []
        url = serve(self, _LoggingStream)
        seen: list = []

        async def main() -> Any:
            async with limelight.AsyncClient(base_url=url, api_key="lime_x") as client:
                client.sync._http.retry.base_delay_s = 0.01
                return await client.run(
                    "s",
                    {"prompt": "x"},
                    on_job=lambda j: seen.append(("job", j["status"])),
                    on_event=lambda e: seen.append(("event", e.job["status"])),
                    on_log=lambda line: seen.append(("log", line["text"])),
                )

        self.assertEqual(asyncio.run(main()), {"ok": True})
        self.assertEqual(
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
        self.assertEqual(_LoggingStream.last_event_ids, [None, "3"])

    def test_one_redirect_rule_for_both_transports(self) -> None:
        # The rule urllib's handler and the httpx transport both follow (test_redirects.py runs
        # them against servers); the cases a local server cannot show, https to http among them.
        rule = _http.redirect_rule
        self.assertFalse(rule("GET", 302, "https://api.example/a", "http://api.example/a").keep_credentials)
        self.assertFalse(rule("GET", 302, "https://api.example/a", "https://api.example:8443/a").keep_credentials)
        self.assertTrue(rule("GET", 301, "https://api.example/a", "https://API.example:443/b").keep_credentials)
        post = rule("POST", 303, "https://api.example/v1/jobs", "https://api.example/v1/jobs/j1")
        self.assertEqual((post.method, post.drop_body, post.refused), ("GET", True, None))
        self.assertIn("not followed", rule("POST", 307, "https://a.example/x", "https://a.example/y").refused or "")
        self.assertIn("not followed", rule("GET", 302, "https://a.example/x", "ftp://a.example/y").refused or "")


if __name__ == "__main__":
    unittest.main()
