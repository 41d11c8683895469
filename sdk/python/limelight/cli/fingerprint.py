"""What a build was made from, so ``limelight push`` builds only when that changed (as ``cog push``).

The fingerprint is a hash of the build context as ``build.py`` stages it, Containerfile included:
the paths and contents of the files ``.limelightignore`` lets through (code, weights, the
``limelight`` package), and through the Containerfile the base image's choice (its tag hashes the
Debian packages, suite and mirror) and limelight.yaml's entry, port and GPU; limelight.yaml itself
is hashed too, for settings no file shows. ``.limelight/built.json`` keeps it beside the tag and the
ID of the image built from it: the image is up to date while both match (an image rebuilt or
removed by hand is not). See docs/publishing.md ("One command").
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from .project import FILE_NAME, Project

STATE_FOLDER = ".limelight"
BUILT_FILE = "built.json"
#: Files from this size on keep their hash by (size, mtime, inode): weights are hashed once, not on every push.
CACHED_FROM_BYTES = 1 << 20


def _path(project: Project) -> Path:
    return project.folder / STATE_FOLDER / BUILT_FILE


def recorded(project: Project) -> Dict[str, Any]:
    """built.json, or {} when there is none (or it is not one this CLI wrote)."""
    try:
        found = json.loads(_path(project).read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _file_hash(path: Path, relative: str, cache: Dict[str, Any], fresh: Dict[str, Any]) -> str:
    stat = path.stat()
    key = [stat.st_size, stat.st_mtime_ns, stat.st_ino]
    large = stat.st_size >= CACHED_FROM_BYTES
    if large:
        known = cache.get(relative)
        if isinstance(known, list) and len(known) == 2 and known[0] == key:
            fresh[relative] = known
            return str(known[1])
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    if large:
        fresh[relative] = [key, digest.hexdigest()]
    return digest.hexdigest()


def of_context(project: Project, staging: Path) -> Tuple[str, Dict[str, Any]]:
    """(the fingerprint of the staged context and limelight.yaml, the large files' hash cache)."""
    cache = recorded(project).get("hashes") or {}
    fresh: Dict[str, Any] = {}
    entries: List[Tuple[str, bool, str]] = []
    for root, folders, files in os.walk(staging):
        folders.sort()
        for name in sorted(files):
            path = Path(root) / name
            relative = path.relative_to(staging).as_posix()
            executable = bool(path.stat().st_mode & 0o111)
            entries.append((relative, executable, _file_hash(path, relative, cache, fresh)))
    yaml = project.folder / FILE_NAME
    yaml_hash = hashlib.sha256(yaml.read_bytes()).hexdigest() if yaml.exists() else ""
    whole = hashlib.sha256(json.dumps([sorted(entries), yaml_hash]).encode()).hexdigest()
    return f"sha256:{whole}", fresh


def image_id(engine: str, reference: str) -> Optional[str]:
    """The local image's ID, or None when the engine has no such image."""
    done = subprocess.run(
        [engine, "image", "inspect", "--format", "{{.Id}}", reference], capture_output=True, text=True
    )
    lines = done.stdout.strip().splitlines() if done.returncode == 0 else []
    return lines[0] if lines else None


def why_stale(project: Project, tag: str, fingerprint: str, image: Optional[str]) -> Optional[str]:
    """None when ``tag`` is the image built from ``fingerprint`` (recorded so, and still that
    image); else why it is not, in a few words."""
    built = recorded(project)
    if image is None:
        return f"no image {tag}"
    if built.get("tag") != tag or built.get("image_id") != image:
        return f"{tag} was not built from this folder by limelight build"
    if built.get("fingerprint") != fingerprint:
        return "sources changed since the last build"
    return None


def record(project: Project, tag: str, fingerprint: str, image: Optional[str], hashes: Dict[str, Any]) -> None:
    path = _path(project)
    path.parent.mkdir(exist_ok=True)
    built = {"tag": tag, "image_id": image, "fingerprint": fingerprint, "hashes": hashes}
    path.write_text(json.dumps(built, indent=2) + "\n")
