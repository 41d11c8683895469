"""``limelight init``: a working example service folder (main.py holding ``app``, limelight.yaml)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List

MAIN_PY = '''"""{title}: a Limelight service. Run it with `limelight serve` (add --simulate for the
platform's queue, progress and cancel), package it with `limelight build`."""

from typing import Literal, Optional

from pydantic import Field

from limelight.serve import App, Job, MediaFile

app = App(title="{title}")
STOP_WORDS: set = set()


@app.setup
def load() -> None:
    """Runs once before the service is READY: load weights and models here."""
    STOP_WORDS.update({{"a", "an", "and", "the", "of", "to"}})
    print(f"loaded {{len(STOP_WORDS)}} stop words")


@app.endpoint("/count", time_limit_s=60)
def count(text: str = Field("", description="The text to count"),
          file: Optional[MediaFile] = None,
          unit: Literal["words", "characters"] = "words",
          skip_stop_words: bool = False,
          top: int = Field(5, ge=1, le=50, description="How many frequent words to list"),
          job: Job = None) -> dict:
    """Counts the words (or characters) of a text or of an uploaded text file."""
    if file is not None:
        text += "\\n" + file.read().decode("utf-8", "replace")
    job.progress(0.2, "reading")
    words = [w.strip(".,;:!?\\"'()").lower() for w in text.split()]
    words = [w for w in words if w and not (skip_stop_words and w in STOP_WORDS)]
    job.progress(0.8, "counting")
    frequent: dict = {{}}
    for word in words:
        frequent[word] = frequent.get(word, 0) + 1
    ranked = sorted(frequent.items(), key=lambda item: (-item[1], item[0]))[:top]
    return {{"count": len(words) if unit == "words" else len(text), "unit": unit, "top": dict(ranked)}}
'''

LIMELIGHT_YAML = """# How `limelight build` packages this service (docs/publishing.md, "limelight.yaml").
name: {name}
entry: main:app            # module:attribute of the limelight.serve App
python: [main.py]          # the Python files (and folders) copied into the image
debian_packages: []        # Debian packages the service needs, e.g. [tesseract-ocr]
weights: []                # files or folders put in a layer of their own (kept when only code changes)
gpu: none                  # none, t4, a4000, a10, l4, a100 or h100
port: 8080
"""


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "service"


def write_example(folder: Path, name: str, force: bool = False) -> List[Path]:
    """Writes main.py and limelight.yaml into ``folder``; refuses to overwrite unless ``force``."""
    title = " ".join(part.capitalize() for part in slug(name).split("-"))
    files = {
        folder / "main.py": MAIN_PY.format(title=title),
        folder / "limelight.yaml": LIMELIGHT_YAML.format(name=slug(name)),
    }
    existing = [path for path in files if path.exists()]
    if existing and not force:
        raise FileExistsError(f"{', '.join(str(p) for p in existing)} already exist; use --force to overwrite")
    folder.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return list(files)
