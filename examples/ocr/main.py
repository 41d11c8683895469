"""OCR: the words of an image, with their boxes, read by Tesseract (Debian's tesseract-ocr).

A limelight.serve app published with the limelight CLI (examples/README.md). Tesseract runs as a
child process per request; its TSV answer gives each word's box and confidence.
"""

import subprocess
from typing import Literal

from pydantic import Field

from limelight.serve import App, ImageFile, Job

# Answered job-style after 0.25 s, so a page of text shows its progress on the job from the first answer.
app = App(title="OCR", concurrency=2, answer_within_s=0.25)
LANGUAGES: set = set()


@app.setup
def load() -> None:
    """Checks Tesseract is here and which languages it has, once before READY."""
    version = subprocess.run(["tesseract", "--version"], capture_output=True, text=True, check=True)
    print(version.stdout.splitlines()[0])
    listed = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True, check=True)
    LANGUAGES.update(line.strip() for line in listed.stdout.splitlines()[1:] if line.strip())
    print(f"languages: {', '.join(sorted(LANGUAGES))}")


def words_of(tsv: str, min_confidence: float) -> list:
    """Tesseract's TSV rows of level 5 (words) as {text, confidence, box: [x, y, width, height]}."""
    words = []
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5" or not cells[11].strip():
            continue
        confidence = float(cells[10])
        if confidence >= min_confidence:
            words.append({"text": cells[11], "confidence": round(confidence, 1),
                          "box": [int(cells[6]), int(cells[7]), int(cells[8]), int(cells[9])]})
    return words


@app.endpoint("/read", time_limit_s=60)
def read(image: ImageFile,
         language: Literal["eng"] = "eng",
         min_confidence: float = Field(0, ge=0, le=100, description="Leave out words Tesseract is less sure of"),
         job: Job = None) -> dict:
    """Reads the text of an image (PNG, JPEG, TIFF): the text and every word with its box."""
    if language not in LANGUAGES:
        raise ValueError(f"language {language} is not installed here")
    job.progress(0.1, "reading the image")
    done = subprocess.run(["tesseract", "stdin", "stdout", "-l", language, "tsv"], input=image.read(),
                          capture_output=True, timeout=55)
    if done.returncode != 0:
        raise ValueError(f"tesseract could not read the image: {done.stderr.decode(errors='replace').strip()[-300:]}")
    job.progress(0.9, "collecting words")
    words = words_of(done.stdout.decode(), min_confidence)
    return {"text": " ".join(word["text"] for word in words), "words": words}
