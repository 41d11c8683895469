"""Stopping a synchronous endpoint's thread after a cancel or its time limit.

Python cannot kill a thread, but CPython can raise an exception in one: the thread sees it at
its next Python instruction (the way a signal handler's exception reaches the main thread). A
thread inside one long C call (``time.sleep``, a native library) sees it only when that call
returns; App then keeps the run's slot taken and, past ``stop_grace_s``, reports itself DEFUNCT
and exits so the platform replaces the instance (docs/publishing.md, "Cancel").
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any, Callable, Optional

from .jobs import Cancelled

# CPython's C API; None elsewhere (PyPy), where only job.check() and job.progress() stop a function.
_SET_ASYNC_EXC: Any = getattr(getattr(ctypes, "pythonapi", None), "PyThreadState_SetAsyncExc", None)


class Interruptible:
    """``fn()`` run by whichever thread calls this object, which ``interrupt(reason)`` can stop."""

    def __init__(self, fn: Callable[[], Any]):
        self._fn = fn
        self._lock = threading.Lock()
        self._thread: Optional[int] = None
        self._reason: Optional[str] = None
        self._raised = False

    def __call__(self) -> Any:
        with self._lock:
            if self._reason is not None:  # cancelled while it waited for a free thread
                raise Cancelled(self._reason)
            self._thread = threading.get_ident()
        try:
            return self._fn()
        finally:
            with self._lock:
                self._thread = None
                if self._raised and _SET_ASYNC_EXC is not None:
                    # The function returned before the exception reached it: withdraw it, so it
                    # is not raised later in the pool's own code.
                    _SET_ASYNC_EXC(ctypes.c_ulong(threading.get_ident()), None)

    def interrupt(self, reason: str) -> bool:
        """Raises Cancelled(reason) in the running function's thread; True when it was sent."""
        with self._lock:
            if self._reason is not None:
                return False
            self._reason = reason
            if self._thread is None or _SET_ASYNC_EXC is None:
                return False
            # The exception is raised as ``type()``: a subclass that carries the reason.
            carrying = type("Cancelled", (Cancelled,), {"__init__": lambda own: Cancelled.__init__(own, reason)})
            self._raised = _SET_ASYNC_EXC(ctypes.c_ulong(self._thread), ctypes.py_object(carrying)) == 1
            return self._raised
