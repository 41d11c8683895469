"""Serve a model on Limelight: a FastAPI-compatible library (docs/publishing.md, "The serving library").

    from limelight.serve import App, MediaFile, Job

    app = App(title="Word counter")

    @app.setup
    def load(): ...                       # once, before READY (load weights here)

    @app.endpoint("/count", time_limit_s=60)
    def count(text: str, file: MediaFile | None = None, job: Job = None) -> dict:
        job.progress(0.5, "counting")
        return {"words": len(text.split())}

Needs FastAPI, pydantic (1.10 or 2) and uvicorn; the rest of the ``limelight`` package does not.
"""

try:
    import fastapi  # noqa: F401
    import pydantic  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the machine
    raise ImportError(
        "limelight.serve needs FastAPI and pydantic: apt-get install python3-fastapi python3-pydantic "
        "python3-uvicorn python3-multipart (or pip install fastapi uvicorn python-multipart)"
    ) from error

from .app import BUSY, DEFUNCT, READY, SETUP_FAILED, STARTING, App
from .jobs import Cancelled, Job
from .media import AudioFile, ImageFile, MediaFile, VideoFile

__all__ = [
    "App",
    "Job",
    "Cancelled",
    "MediaFile",
    "ImageFile",
    "AudioFile",
    "VideoFile",
    "STARTING",
    "READY",
    "BUSY",
    "SETUP_FAILED",
    "DEFUNCT",
]
