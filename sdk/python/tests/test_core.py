"""The clients' core without I/O (limelight/_core.py; docs/sdk.md, "Async Python"): each flow is
driven here by hand, answer by answer, so the rules both clients share (a timed-out submission
found by its key, an abort that cancels the job, a dropped stream resumed) are checked without a
server, and the retry decisions of one request (``_http.Attempts``) on their own."""

from __future__ import annotations

import sys
import time
import unittest
from pathlib import Path
from typing import Any, List, Optional, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from limelight import _core  # noqa: E402
from limelight._http import Attempts, DeadlineExceeded, Response, RetryPolicy  # noqa: E402
from limelight.errors import ConnectionFailedError, JobTimeoutError  # noqa: E402
from limelight.models import Job  # noqa: E402

PROCESSING = cast(Job, {"job_id": "job-1", "status": "PROCESSING"})


def settings() -> _core.Settings:
    return _core.Settings(RetryPolicy(max_retries=2, base_delay_s=0.01), 90.0, {})


class Script:
    """Drives a flow as a client would, the operations it asks for kept in ``asked``."""

    def __init__(self, flow: _core.Flow[Any]) -> None:
        self.driving = _core.Driving(flow)
        self.operations = iter(self.driving)
        self.asked: List[_core.Operation] = []

    def next(self) -> _core.Operation:
        operation = next(self.operations)
        self.asked.append(operation)
        return operation

    def answer(self, value: Any) -> Optional[_core.Operation]:
        """Answers the last operation; the next one, or None when the flow returned."""
        self.driving.answer(value)
        return next(self.operations, None)

    def fail(self, error: BaseException) -> Optional[_core.Operation]:
        self.driving.fail(error)
        return next(self.operations, None)


def sse(*lines: str) -> List[str]:
    return [*lines, ""]


class SubmitWithinTest(unittest.TestCase):
    def test_a_submission_past_its_deadline_is_found_by_replaying_its_key_and_cancelled_if_the_replay_made_it(
        self,
    ) -> None:
        deadline = time.monotonic() + 30
        script = Script(
            _core.submit_within(
                settings(),
                deadline,
                "s",
                {"prompt": "x"},
                None,
                idempotency_key="key-1",
                wait=60,
                webhook=None,
                webhook_events_filter=None,
            )
        )
        first = script.next()
        assert isinstance(first, _core.Call)
        self.assertEqual((first.method, first.path, first.deadline), ("POST", "/v1/jobs", deadline))
        self.assertEqual(dict(first.headers or {}), {"Idempotency-Key": "key-1", "Prefer": "wait=29"})
        replay = script.fail(DeadlineExceeded("no answer"))
        assert isinstance(replay, _core.Call)
        # The same key and body, no Prefer: wait, answered at once.
        self.assertEqual(dict(replay.headers or {}), {"Idempotency-Key": "key-1"})
        self.assertEqual(replay.json_body, first.json_body)
        self.assertEqual(replay.timeout, _core.REPLAY_TIMEOUT_S)
        cancel = script.answer(Response(201, {}, {"job_id": "job-1", "status": "QUEUED"}))
        assert isinstance(cancel, _core.Call)
        self.assertEqual((cancel.method, cancel.path), ("POST", "/v1/jobs/job-1/cancel"))
        with self.assertRaises(JobTimeoutError) as caught:
            script.answer(Response(200, {}, {"job_id": "job-1", "status": "CANCELLED"}))
        self.assertIn("none was", str(caught.exception))


class RunTest(unittest.TestCase):
    def run_flow(self, cancel_on_abort: bool) -> Script:
        return Script(
            _core.run(
                settings(),
                "s",
                {"prompt": "x"},
                "/generate",
                timeout=60,
                webhook=None,
                webhook_events_filter=None,
                wait=None,
                idempotency_key=None,
                on_job=None,
                on_event=None,
                on_log=None,
                cancel_on_abort=cancel_on_abort,
                aborts=(JobTimeoutError, KeyboardInterrupt),
            )
        )

    def test_a_run_submits_its_body_then_follows_the_stream_to_the_result(self) -> None:
        script = self.run_flow(cancel_on_abort=False)
        submission = script.next()
        assert isinstance(submission, _core.Call)
        self.assertEqual(submission.json_body, {"service_id": "s", "input": {"prompt": "x"}, "endpoint": "/generate"})
        connect = script.answer(Response(200, {}, PROCESSING))
        assert isinstance(connect, _core.Connect)
        self.assertEqual(connect.path, "/v1/jobs/job-1/stream")
        operation: Optional[_core.Operation] = script.answer(None)
        for line in sse("event: job", "id: 7", 'data: {"job_id": "job-1", "status": "FINISHED", "result": 1}'):
            self.assertIsInstance(operation, _core.NextLine)
            operation = script.answer(line)
        self.assertIsNone(operation)
        self.assertEqual(script.driving.value, 1)

    def test_an_interrupted_wait_cancels_the_job_with_cancel_on_abort_and_raises_the_interruption(self) -> None:
        script = self.run_flow(cancel_on_abort=True)
        script.next()
        script.answer(Response(200, {}, PROCESSING))  # Connect
        script.answer(None)  # NextLine
        cancel = script.fail(KeyboardInterrupt())
        assert isinstance(cancel, _core.Call)
        self.assertEqual((cancel.path, cancel.timeout), ("/v1/jobs/job-1/cancel", _core.CANCEL_TIMEOUT_S))
        with self.assertRaises(KeyboardInterrupt):
            script.answer(Response(200, {}, {"job_id": "job-1", "status": "CANCELLED"}))

    def test_without_cancel_on_abort_the_interruption_is_raised_and_nothing_cancelled(self) -> None:
        script = self.run_flow(cancel_on_abort=False)
        script.next()
        script.answer(Response(200, {}, PROCESSING))
        script.answer(None)
        with self.assertRaises(KeyboardInterrupt):
            script.fail(KeyboardInterrupt())
        self.assertFalse([op for op in script.asked if isinstance(op, _core.Call) and op.path.endswith("/cancel")])


class StreamTest(unittest.TestCase):
    def test_a_dropped_stream_is_resumed_after_a_pause_from_the_last_event(self) -> None:
        script = Script(_core.stream(settings(), "job-1", None, None, None))
        script.next()  # Connect
        operation = script.answer(None)
        emitted = []
        for line in sse("event: job", "id: 3", 'data: {"job_id": "job-1", "status": "PROCESSING"}'):
            operation = script.answer(line)
            if isinstance(operation, _core.Emit):
                emitted.append(operation.value)
                operation = script.answer(None)
        self.assertEqual([event.id for event in emitted], ["3"])
        pause = script.fail(ConnectionFailedError("the stream stopped"))
        assert isinstance(pause, _core.Pause)
        self.assertLessEqual(pause.seconds, 0.02)
        again = script.answer(None)
        assert isinstance(again, _core.Connect)
        self.assertEqual(again.headers["Last-Event-ID"], "3")

    def test_a_caller_error_in_on_event_is_raised_from_wait_not_taken_for_a_dropped_stream(self) -> None:
        def on_event(_: Any) -> None:
            raise ConnectionFailedError("the caller's own")

        script = Script(_core.wait_for(settings(), PROCESSING, deadline=None, on_event=on_event, on_log=None))
        script.next()
        operation = script.answer(None)
        lines = sse("event: job", "id: 1", 'data: {"job_id": "job-1", "status": "PROCESSING"}')
        with self.assertRaisesRegex(ConnectionFailedError, "the caller's own"):
            for line in lines:
                self.assertIsInstance(operation, _core.NextLine)
                operation = script.answer(line)
        self.assertFalse([op for op in script.asked if isinstance(op, _core.Pause)])


class AttemptsTest(unittest.TestCase):
    def test_retry_statuses_pause_by_retry_after_until_the_retries_run_out(self) -> None:
        attempts = Attempts("GET", "http://x/v1/jobs", RetryPolicy(max_retries=1), 90.0, None)
        self.assertIsNone(attempts.pause_after_status(404, None))
        self.assertEqual(attempts.pause_after_status(503, "2"), 2.0)
        self.assertIsNone(attempts.pause_after_status(503, "2"))

    def test_a_failure_past_the_deadline_or_the_retries_raises(self) -> None:
        late = Attempts("GET", "http://x/a", RetryPolicy(), 90.0, time.monotonic() - 1)
        with self.assertRaises(DeadlineExceeded):
            late.pause_after_failure(OSError("reset"), "reset")
        spent = Attempts("GET", "http://x/a", RetryPolicy(max_retries=0), 90.0, None)
        with self.assertRaisesRegex(ConnectionFailedError, "GET http://x/a failed: reset"):
            spent.pause_after_failure(OSError("reset"), "reset")

    def test_a_pause_that_would_pass_the_deadline_raises_instead(self) -> None:
        attempts = Attempts("GET", "http://x/a", RetryPolicy(), 90.0, time.monotonic() + 1)
        with self.assertRaises(DeadlineExceeded):
            attempts.pause_after_status(429, "5")
        self.assertLessEqual(attempts.timeout(), 1)


if __name__ == "__main__":
    unittest.main()
