"""The snapshot point of a served app (docs/deploy.md, "Snapshot cold starts").

On a runner with the snapshot tier, ``limelight serve`` finds ``LIMELIGHT_SNAPSHOT_WAIT`` (the path of
a per-instance file on a read-only mount) in its environment. It then runs ``@app.setup`` before it
binds its port, says so on stdout (``SNAPSHOT_POINT``), and waits for that file: the runner takes
the memory snapshot while it waits. A listening or connected socket cannot be snapshotted, so the app
binds only after the restore.

Every instance restored from one snapshot starts as a copy of the same process: the same ``random``
state, pid, hostname and clock readings. After the restore the app therefore reseeds ``random`` (and
NumPy's global generator when NumPy is loaded), takes the instance's settings from the file into its
environment and reads the clock again, so a time limit counts from the restore.

An app whose setup left a socket open (a database connection, a download still connected) cannot be
snapshotted: it says why in words (``SNAPSHOT_SKIPPED``) and binds at once, so the runner starts it
cold instead of restoring something half-connected.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

#: The environment variable naming the per-instance file the app waits for.
WAIT_ENV = "LIMELIGHT_SNAPSHOT_WAIT"
#: ``off``: the service opted out (``snapshot: false`` in limelight.yaml puts it in the image; the
#: service's own environment may set it too): it never waits at the snapshot point.
OPT_OUT_ENV = "LIMELIGHT_SNAPSHOT"
#: Printed once setup has finished and the app waits; the runner takes the snapshot when it reads it.
SNAPSHOT_POINT = "limelight: snapshot point: setup finished, waiting for the restore"
#: The start of the line that says why no snapshot can be taken (the app then starts cold).
SNAPSHOT_SKIPPED = "limelight: no snapshot:"
#: How often the app looks for its instance file (it is there when the restore starts).
POLL_S = 0.002


def _say(line: str) -> None:
    print(line, flush=True)


class SnapshotError(Exception):
    """An instance file the app cannot use: the message says what is wrong with it."""


def open_sockets(fd_dir: str = "/proc/self/fd") -> List[str]:
    """The process's open sockets as ``fd N (socket:[inode])``: none may be open at the snapshot."""
    found = []
    try:
        names = os.listdir(fd_dir)
    except OSError:
        return []
    for name in sorted(names, key=lambda n: int(n) if n.isdigit() else -1):
        try:
            target = os.readlink(os.path.join(fd_dir, name))
        except OSError:
            continue  # closed meanwhile (the listing's own descriptor)
        if target.startswith("socket:"):
            found.append(f"fd {name} ({target})")
    return found


def run_setup_now(app: Any) -> None:
    """Runs the app's ``@app.setup`` functions to their end, before any server exists.

    The setup's event is left set, so the server's first request finds the app READY (or its setup
    failed) without running setup again."""

    async def setup() -> asyncio.Event:
        done = asyncio.Event()
        await app._run_setup(done)
        return done

    loop = asyncio.new_event_loop()
    try:
        app._setup_done = loop.run_until_complete(setup())
    finally:
        loop.close()


def release_free_memory() -> None:
    """Gives the heap's free pages back to the kernel before the snapshot: every page the snapshot
    holds is saved once and loaded again by each restore (docs/deploy.md, "Snapshot cold starts")."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass  # not glibc: nothing to trim


def read_instance(path: Path) -> Dict[str, Any]:
    """The instance file: ``{"instance": str, "seed": str, "env": {name: value}}`` (all optional)."""
    try:
        info = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise SnapshotError(f"the instance file {path} is not JSON ({error})") from error
    if not isinstance(info, dict):
        raise SnapshotError(f"the instance file {path} must hold a JSON object, not {type(info).__name__}")
    env = info.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
        raise SnapshotError(f'the instance file {path}: "env" must map names to strings')
    if not isinstance(info.get("seed", ""), str) or not isinstance(info.get("instance", ""), str):
        raise SnapshotError(f'the instance file {path}: "seed" and "instance" must be strings')
    return info


def reseed(seed: str) -> None:
    """Fresh random state for this instance: the copy's state is every other copy's too."""
    entropy = seed.encode() + os.urandom(32)
    random.seed(entropy)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        # The legacy global generator, which np.random.rand() and friends draw from; takes 32-bit words.
        words = [int.from_bytes(entropy[i : i + 4].ljust(4, b"\0"), "little") for i in range(0, len(entropy), 4)]
        numpy.random.seed(words)


def restored(app: Any, info: Dict[str, Any]) -> None:
    """What every copy does after the restore, before it binds: reseed, settings, clock."""
    reseed(info.get("seed", ""))
    os.environ.update(info.get("env", {}))
    # The wall clock read again: the setup's times stay the snapshot's, the restore is this instance's.
    app._setup_times["restored_at"] = time.time()


def wait_for_restore(
    path: Path, *, poll_s: float = POLL_S, timeout_s: Optional[float] = None, say: Callable[[str], None] = _say
) -> Dict[str, Any]:
    """Blocks until ``path`` exists (it is on the mount the restore brings), then reads it."""
    say(SNAPSHOT_POINT)
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    while not path.exists():
        if deadline is not None and time.monotonic() > deadline:
            raise SnapshotError(f"no instance file at {path} after {timeout_s:.0f} s")
        time.sleep(poll_s)
    return read_instance(path)


def opted_out() -> Optional[str]:
    """Why this service is never snapshotted, when it opted out (OPT_OUT_ENV=off), else None."""
    if os.environ.get(OPT_OUT_ENV, "").lower() != "off":
        return None
    return (
        f"{SNAPSHOT_SKIPPED} the service opted out (snapshot: false in limelight.yaml, or {OPT_OUT_ENV}=off), "
        "so it starts cold"
    )


def snapshot_point(app: Any, wait_path: str, *, say: Callable[[str], None] = _say) -> Optional[str]:
    """Setup, then the snapshot point, then the restore. Returns None once restored, or why the app
    starts cold instead (setup failed, or it left a socket open), which it has also said."""
    run_setup_now(app)
    if app.setup_error:
        reason = f"{SNAPSHOT_SKIPPED} the setup failed, so the app starts cold and reports it"
        say(reason)
        return reason
    sockets = open_sockets()
    if sockets:
        reason = (
            f"{SNAPSHOT_SKIPPED} setup left {len(sockets)} socket(s) open ({', '.join(sockets)}); a memory snapshot "
            "cannot hold a connection, so this service starts cold. Close connections before setup returns, "
            "or set snapshot: false in limelight.yaml (docs/deploy.md)."
        )
        say(reason)
        return reason
    release_free_memory()
    info = wait_for_restore(Path(wait_path), say=say)
    restored(app, info)
    say(f"limelight: restored from a snapshot{' as ' + info['instance'] if info.get('instance') else ''}")
    return None
