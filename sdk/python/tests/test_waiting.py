"""``within``: a time limit on an await that never loses the caller's cancel (limelight/_waiting.py)."""

import asyncio
import unittest

from limelight._waiting import within


class WithinTest(unittest.TestCase):
    def test_a_cancel_wins_over_a_result_that_arrives_at_the_same_moment(self):
        # The race asyncio.wait_for loses before Python 3.12: the awaited line arrives and the task
        # is cancelled in the same turn of the loop. The cancelled task must not read on.
        async def main() -> None:
            line: asyncio.Future = asyncio.get_running_loop().create_future()
            task = asyncio.ensure_future(within(line, 10))
            await asyncio.sleep(0)  # the task is now waiting for the line
            line.set_result("data: {}")
            task.cancel()
            with self.assertRaises(asyncio.CancelledError):
                await task

        asyncio.run(main())

    def test_a_cancel_cancels_what_was_awaited(self):
        async def main() -> None:
            reading = asyncio.ensure_future(asyncio.sleep(30))
            task = asyncio.ensure_future(within(reading, 10))
            await asyncio.sleep(0)
            task.cancel()
            with self.assertRaises(asyncio.CancelledError):
                await task
            self.assertTrue(reading.cancelled())

        asyncio.run(main())

    def test_the_result_within_the_time_and_a_timeout_after_it(self):
        async def main() -> None:
            self.assertEqual(await within(asyncio.sleep(0, result="line"), 1), "line")
            slow = asyncio.ensure_future(asyncio.sleep(30))
            with self.assertRaises(asyncio.TimeoutError):
                await within(slow, 0.01)
            self.assertTrue(slow.cancelled())  # settled, so an async generator can be read again

        asyncio.run(main())

    def test_an_error_of_the_awaited_thing_is_raised(self):
        async def fails() -> None:
            raise ValueError("the stream broke")

        with self.assertRaisesRegex(ValueError, "the stream broke"):
            asyncio.run(within(fails(), 1))


if __name__ == "__main__":
    unittest.main()
