"""The setup's log: what setup functions print or log, kept for ``GET /health`` and still written
to the container's own output (the platform shows both)."""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
from typing import Iterator, List

MAX_LINES = 200
MAX_LINE = 2000


class SetupLog:
    def __init__(self) -> None:
        self._lines: List[str] = []
        self._partial = ""
        self._lock = threading.Lock()

    def write(self, text: str) -> None:
        with self._lock:
            parts = (self._partial + text).split("\n")
            self._partial = parts.pop()
            self._lines.extend(line[:MAX_LINE] for line in parts)
            del self._lines[:-MAX_LINES]

    def lines(self) -> List[str]:
        with self._lock:
            return self._lines + ([self._partial] if self._partial else [])


class _Tee:
    """A stream that writes to the original and to the log."""

    def __init__(self, original, log: SetupLog):
        self._original, self._log = original, log

    def write(self, text: str) -> int:
        self._log.write(text)
        return self._original.write(text)

    def __getattr__(self, name):
        return getattr(self._original, name)


class _LogHandler(logging.Handler):
    def __init__(self, log: SetupLog):
        super().__init__(logging.INFO)
        self._log = log
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith("uvicorn"):  # the server's own access lines are not the setup's
            self._log.write(self.format(record) + "\n")


@contextlib.contextmanager
def capturing(log: SetupLog) -> Iterator[None]:
    stdout, stderr = sys.stdout, sys.stderr
    handler = _LogHandler(log)
    sys.stdout, sys.stderr = _Tee(stdout, log), _Tee(stderr, log)
    logging.getLogger().addHandler(handler)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = stdout, stderr
        logging.getLogger().removeHandler(handler)
