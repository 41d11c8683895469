"""limelight.serve: a synchronous function that does not stop when its run is cancelled or runs
out of time. The run answers at once; a pure-Python function is stopped in its thread and its slot
freed for the next run; one stuck in a C call keeps its slot, and past stop_grace_s the instance
says DEFUNCT, refuses runs, lets the others end and exits so the platform replaces it
(docs/publishing.md, "Cancel")."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import unittest
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

from .serving import MISSING, Answer, call, needs_serving, served, until

HERE = Path(__file__).resolve().parent
SDK = HERE.parent
ASYNC = {"Prefer": "respond-async"}
WAIT = {"Prefer": "wait=10"}

if MISSING is None or TYPE_CHECKING:
    from limelight.serve import App, Cancelled


def looping_app(saw: List[str]) -> App:
    app = App(title="Loops", concurrency=1)

    @app.endpoint("/loop", time_limit_s=0.3)
    def loop(n: int = 0) -> dict:
        # Never calls job.check(): plain Python that would run forever.
        try:
            while True:
                n += 1
        except Cancelled as cancelled:
            saw.append(str(cancelled))
            raise

    @app.endpoint("/quick")
    def quick(text: str = "") -> dict:
        return {"echo": text, "thread": threading.current_thread().name}

    return app


@needs_serving
class StoppedInItsThreadTest(unittest.TestCase):
    def test_a_loop_past_its_time_limit_is_stopped_and_the_next_run_is_served(self):
        saw: List[str] = []
        with served(looping_app(saw)) as url:
            started = time.monotonic()
            answer = call("POST", f"{url}/loop", json_body={}, headers=WAIT)
            self.assertEqual(
                (answer.status, answer.json()["detail"]), (500, "the run exceeded its time limit of 0.3 s")
            )
            self.assertLess(time.monotonic() - started, 3)
            # The slot is free again: not 409.
            after = call("POST", f"{url}/quick", json_body={"text": "next"}, headers=WAIT)
            self.assertEqual((after.status, after.json()["echo"]), (200, "next"), after)
            self.assertEqual(saw, ["the run exceeded its time limit of 0.3 s"])
            health = call("GET", f"{url}/health").json()
            self.assertEqual((health["status"], health["runs"]), ("READY", {"active": 0, "limit": 1, "stopping": 0}))

    def test_a_cancelled_loop_is_stopped_and_the_next_run_is_served(self):
        saw: List[str] = []
        app = looping_app(saw)

        @app.endpoint("/forever")
        def forever() -> dict:
            try:
                while True:
                    pass
            except Cancelled as cancelled:
                saw.append(str(cancelled))
                raise

        with served(app) as url:
            job = call("POST", f"{url}/forever", json_body={}, headers=ASYNC).json()
            self.assertEqual(call("POST", job["cancel_url"]).status, 200)
            self.assertEqual(
                until(
                    lambda: (lambda s: s["status"] != "processing" and s)(call("GET", job["status_url"]).json()),
                    what="the cancel",
                )["status"],
                "cancelled",
            )
            self.assertEqual(call("POST", f"{url}/quick", json_body={}, headers=WAIT).status, 200)
            self.assertEqual(saw, ["the job was cancelled"])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@needs_serving
class StuckInACCallTest(unittest.TestCase):
    def test_the_slot_stays_taken_then_the_instance_says_defunct_and_exits_after_its_other_runs(self):
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "PYTHONPATH": str(SDK)}
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "stuck_app:app", "--port", str(port), "--log-level", "warning"],
            cwd=HERE / "apps",
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:

            def health() -> Optional[Answer]:
                try:
                    return call("GET", f"{url}/health", timeout=2)
                except OSError:  # not listening yet
                    return None

            def health_once() -> Answer:
                answer = health()
                assert answer is not None, "the app stopped answering /health"
                return answer

            until(lambda: (lambda h: h is not None and h.status == 200)(health()), timeout=30, what="the app to start")
            started = time.monotonic()
            answer = call("POST", f"{url}/nap", json_body={"seconds": 60}, headers=WAIT)
            # The caller has its answer at once, although the thread sleeps on.
            self.assertEqual(
                (answer.status, answer.json()["detail"]), (500, "the run exceeded its time limit of 0.3 s")
            )
            self.assertLess(time.monotonic() - started, 3)
            report = health_once().json()
            self.assertEqual((report["status"], report["runs"]), ("READY", {"active": 1, "limit": 2, "stopping": 1}))
            hold = call("POST", f"{url}/hold", json_body={"seconds": 4}, headers=ASYNC)
            self.assertEqual(hold.status, 202)
            # The sleeping thread still holds its slot: no capacity is counted that is not there.
            busy = call("POST", f"{url}/quick", json_body={}, headers=WAIT)
            self.assertEqual(busy.status, 409, busy)
            self.assertIn("2 of 2 run slots are taken", busy.json()["detail"])
            defunct = until(lambda: (lambda h: h.status == 503 and h)(health_once()), timeout=5, what="DEFUNCT")
            self.assertLess(time.monotonic() - started, 5)
            self.assertEqual(defunct.json()["status"], "DEFUNCT")
            self.assertRegex(
                defunct.json()["error"],
                r"^nap\(\) \(run \w+\) did not stop 1 s after the run exceeded "
                r"its time limit of 0.3 s, and its thread cannot be killed$",
            )
            refused = call("POST", f"{url}/quick", json_body={})
            self.assertEqual(refused.status, 503)
            self.assertIn("This instance is leaving to be replaced: nap()", refused.json()["detail"])
            # The run still going is let finish; then the process exits, well before the sleep's 60 s.
            self.assertEqual(call("GET", hold.json()["status_url"]).json()["status"], "processing")
            self.assertEqual(process.wait(timeout=10), 70)
            self.assertLess(time.monotonic() - started, 10)
            output = process.stdout.read() if process.stdout else ""
            self.assertIn("limelight: DEFUNCT: nap()", output)
            self.assertLess(output.index("hold finished"), output.index("limelight: exiting with status 70"), output)
        finally:
            if process.poll() is None:
                process.kill()
            process.wait(10)
            if process.stdout:
                process.stdout.close()


if __name__ == "__main__":
    unittest.main()
