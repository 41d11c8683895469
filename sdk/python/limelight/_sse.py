"""Server-sent events of a job's stream (docs/jobs.md, "Streaming"), read line by line from a
response within a deadline: ``event: job`` carries the envelope, ``event: log`` a container's
line, comments are heartbeats, and any other event is skipped. The parser and what a follower of a
job's stream keeps between connections (StreamFollower) are shared by the sync client and
AsyncClient's httpx transport; only the reading differs."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, List, Optional, Union

from ._http import DeadlineExceeded, set_read_timeout
from .models import JobEvent

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


class SseParser:
    """Server-sent events, fed one line at a time (with or without its line ending)."""

    def __init__(self) -> None:
        self._event = "message"
        self._id: Optional[str] = None
        self._data: List[str] = []

    def feed(self, raw: Union[bytes, str]) -> Optional[SseMessage]:
        """The message a blank line completes, else None."""
        line = (raw.decode("utf-8") if isinstance(raw, bytes) else raw).rstrip("\r\n")
        if not line:
            message = SseMessage(self._event, self._id, "\n".join(self._data)) if self._data else None
            self._event, self._data = "message", []
            return message
        if line.startswith(":"):
            return None
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
        elif field == "id":
            self._id = value
        return None


def parse_sse(lines: Iterator[bytes]) -> Iterator[SseMessage]:
    parser = SseParser()
    for raw in lines:
        message = parser.feed(raw)
        if message is not None:
            yield message


class StreamFollower:
    """What following a job's stream keeps across connections (docs/jobs.md, "Streaming"): the
    last event id to resume from, the log lines already given (the server sends the stored lines
    again on every connection; ``on_log`` gets each once) and the failures in a row."""

    def __init__(self, last_event_id: Optional[str], on_log: Optional[Callable[[Any], Any]]) -> None:
        self.last_event_id = last_event_id
        self.on_log = on_log
        self.failures = 0
        self._logs_given = 0
        self._logs_here = 0
        #: The final envelope came on this connection (with ``on_log``, it is read to its end).
        self.finished = False

    def headers(self) -> dict:
        """A connection's headers, resuming after the last event seen."""
        self._logs_here, self.finished = 0, False
        headers = {"Accept": "text/event-stream"}
        if self.last_event_id:
            headers["Last-Event-ID"] = self.last_event_id
        return headers

    def message(self, message: SseMessage) -> Optional[JobEvent]:
        """The job event a message is, if any; a log line new to this follower goes to ``on_log``."""
        if message.event == "log":
            self._logs_here += 1
            if self._logs_here > self._logs_given:
                self._logs_given += 1
                if self.on_log:
                    self.on_log(json.loads(message.data))
            return None
        if message.event != "job":
            return None
        self.failures = 0
        self.last_event_id = message.id or self.last_event_id
        return JobEvent(id=message.id, event=message.event, job=json.loads(message.data))

    def stop_after(self, event: JobEvent) -> bool:
        """Whether to stop reading now: at the final envelope, unless ``on_log`` wants the lines
        the server sends after it (then ``finished``, and the stream is read to its end)."""
        if not event.final:
            return False
        if self.on_log is None:
            return True
        self.finished = True
        return False
