"""A served app with every kind of typed input, for the OpenAPI tests: the Python one
(tests/test_serve.py) and the platform importer's (test/unit/publish/serveOpenapi.test.ts)."""

import enum
from typing import List, Literal, Optional

from limelight.serve import App, AudioFile, ImageFile, Job, MediaFile
from pydantic import BaseModel, Field

app = App(title="Typed inputs")


class Voice(str, enum.Enum):
    low = "low"
    high = "high"


class Options(BaseModel):
    lower: bool = False
    limit: int = Field(10, ge=1, le=100)


@app.endpoint("/count", time_limit_s=60)
def count(
    text: str = Field(..., description="The text to count"),
    unit: Literal["words", "chars"] = "words",
    steps: int = Field(20, ge=1, le=50, description="Denoising steps"),
    strength: float = Field(0.5, ge=0, le=1, multiple_of=0.05),
    voice: Voice = Voice.low,
    options: Optional[Options] = None,
    tags: List[str] = [],  # noqa: B006 (a default publishers write, as they would for FastAPI)
    job: Job = None,  # pyright: ignore[reportArgumentType]
) -> dict:
    """Counts the words of a text."""
    return {"count": len(text.split()) if unit == "words" else len(text)}


@app.endpoint("/transcribe")
def transcribe(audio: AudioFile, language: str = "en", attachment: Optional[MediaFile] = None) -> dict:
    return {"bytes": audio.size}


@app.endpoint("/thumbnail")
def thumbnail(image: ImageFile, width: int = Field(128, ge=16, le=1024)) -> ImageFile:
    return image


@app.endpoint("/hello", method="GET")
def hello(name: str = "world", times: int = Field(1, ge=1, le=5)) -> dict:
    return {"text": " ".join([f"Hello, {name}."] * times)}
