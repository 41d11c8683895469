"""An app whose function sits in one long C call (time.sleep) past its time limit: nothing can
stop its thread, so the instance reports DEFUNCT and exits (test_serve_cancel.py)."""

import sys
import time

from limelight.serve import App

app = App(title="Stuck", concurrency=2, stop_grace_s=1)


@app.endpoint("/nap", time_limit_s=0.3)
def nap(seconds: float = 60) -> dict:
    time.sleep(seconds)
    return {"slept": seconds}


@app.endpoint("/hold")
def hold(seconds: float = 2.5) -> dict:
    time.sleep(seconds)
    print("hold finished", file=sys.stderr, flush=True)
    return {"held": seconds}


@app.endpoint("/quick")
def quick() -> dict:
    return {"ok": True}
