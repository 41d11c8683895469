"""Text to speech: a WAV of the text, spoken by eSpeak NG (Debian's espeak-ng).

A limelight.serve app published with the limelight CLI (examples/README.md).
"""

import struct
import subprocess
from typing import Literal

from pydantic import Field

from limelight.serve import App, AudioFile, Job

app = App(title="Speech", concurrency=2)


@app.setup
def load() -> None:
    """Checks eSpeak NG is here, once before READY."""
    version = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True, check=True)
    print(version.stdout.strip())


@app.endpoint("/speak", time_limit_s=60)
def speak(text: str = Field(..., min_length=1, max_length=5000, description="What to say"),
          language: Literal["en", "en-us", "de", "fr", "es", "it"] = "en",
          voice: Literal["m1", "m3", "f1", "f3"] = "m3",
          words_per_minute: int = Field(160, ge=80, le=400),
          job: Job = None) -> AudioFile:
    """Speaks the text: a 22 kHz mono WAV file."""
    job.progress(0.1, "speaking")
    done = subprocess.run(["espeak-ng", "--stdout", "-v", f"{language}+{voice}", "-s", str(words_per_minute), "--", text],
                          capture_output=True, timeout=55)
    if done.returncode != 0 or not done.stdout.startswith(b"RIFF"):
        raise ValueError(f"espeak-ng failed: {done.stderr.decode(errors='replace').strip()[-300:]}")
    job.progress(0.9, "done")
    return AudioFile(with_sizes(done.stdout), content_type="audio/wav", file_name="speech.wav")


def with_sizes(wav: bytes) -> bytes:
    """espeak-ng writing to a pipe leaves the RIFF and data sizes at their maximum: set the real ones."""
    fixed = bytearray(wav)
    struct.pack_into("<I", fixed, 4, len(fixed) - 8)
    data = fixed.find(b"data", 12)
    if data > 0:
        struct.pack_into("<I", fixed, data + 4, len(fixed) - data - 8)
    return bytes(fixed)
