"""The real platform server for these tests: started once per run by test/sdk/server.ts (PGlite,
local demo runtimes, a fresh user with an API key) and stopped when the tests end."""

from __future__ import annotations

import atexit
import json
import os
import subprocess
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[3]
_server: Optional[dict] = None


def platform() -> dict:
    """{url, apiKey, email, password} of the running server (started on first use)."""
    global _server
    if _server is None:
        process = subprocess.Popen(
            ["node", "--conditions=source", "--import", "tsx", "test/sdk/server.ts"],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "NODE_NO_WARNINGS": "1"},
        )
        line = process.stdout.readline()
        if not line:
            process.wait(timeout=30)
            raise RuntimeError(f"test/sdk/server.ts exited with {process.returncode} before it was ready")

        def stop() -> None:
            process.stdin.close()
            process.stdout.close()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()

        atexit.register(stop)
        _server = json.loads(line)
    assert _server is not None
    return _server
