"""Server-sent events of a job's stream (docs/jobs.md, "Streaming"), read line by line from a
response within a deadline: ``event: job`` carries the envelope, ``event: log`` a container's
line, comments are heartbeats, and any other event is skipped."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Iterator, List, Optional

from ._http import DeadlineExceeded, set_read_timeout

#: Longest silence on an open stream before it is counted as dropped (heartbeats come every 15 s).
STREAM_READ_TIMEOUT_S = 45.0


@dataclass(frozen=True)
class SseMessage:
    event: str
    id: Optional[str]
    data: str


def read_lines(response: Any, deadline: Optional[float]) -> Iterator[bytes]:
    """The response's lines; no read waits past ``deadline`` (DeadlineExceeded instead)."""
    while True:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DeadlineExceeded("the deadline passed while following the stream")
            set_read_timeout(response, min(STREAM_READ_TIMEOUT_S, left))
        line = response.readline()
        if not line:
            return
        yield line


def parse_sse(lines: Iterator[bytes]) -> Iterator[SseMessage]:
    event: str = "message"
    event_id: Optional[str] = None
    data: List[str] = []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield SseMessage(event, event_id, "\n".join(data))
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            event_id = value
