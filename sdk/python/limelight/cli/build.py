"""``limelight build``: an OCI image from limelight.yaml, without a Dockerfile from the publisher.

Layers, bottom to top, each reused while its inputs do not change:

1. the base: Debian made offline from the archive apt uses (mmdebstrap), with Python, FastAPI,
   pydantic, uvicorn and the project's ``debian_packages``; cached as
   ``localhost/limelight-base:<hash of the package list, suite and mirror>``;
2. the weights (``weights`` in limelight.yaml), a layer of their own, so a code change keeps it;
3. the ``limelight`` package itself;
4. the project's Python files, with the command ``python3 -m limelight serve <entry>``.

The image is built with Podman or Docker (whichever is there, or ``--engine``) from a
Containerfile written here with COPY steps only, so no container runs during the build.
See docs/publishing.md ("limelight build").
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Callable, List, Optional

from .project import Project

#: Debian packages every image has: the library's dependencies.
RUNTIME_PACKAGES = [
    "python3",
    "python3-fastapi",
    "python3-pydantic",
    "python3-uvicorn",
    "python3-multipart",
    "ca-certificates",
]
#: Left out of the base: documentation, manuals and translations.
EXCLUDED_PATHS = ["/usr/share/doc/*", "/usr/share/man/*", "/usr/share/info/*", "/usr/share/locale/*"]
SDK_PACKAGE = Path(__file__).resolve().parent.parent  # the limelight package (this file is limelight/cli/build.py)


class BuildError(Exception):
    """A build that cannot go on: the message says which step and why."""


def engine_command(preferred: Optional[str] = None) -> str:
    for name in [preferred] if preferred else ["podman", "docker"]:
        path = shutil.which(name)
        if path:
            return path
    raise BuildError(
        "no container engine: install podman (apt-get install podman) or docker"
        + (f" ({preferred} is not on PATH)" if preferred else "")
    )


def debian_source() -> tuple:
    """(suite, mirror) of the archive apt uses here; LIMELIGHT_DEBIAN_SUITE / _MIRROR override them."""
    suite = os.environ.get("LIMELIGHT_DEBIAN_SUITE")
    if not suite:
        release = Path("/etc/os-release").read_text() if Path("/etc/os-release").exists() else ""
        match = re.search(r"^VERSION_CODENAME=(\w+)", release, re.M)
        suite = match.group(1) if match else "bookworm"
    mirror = os.environ.get("LIMELIGHT_DEBIAN_MIRROR")
    if not mirror:
        sources = " ".join(
            Path(p).read_text()
            for p in glob.glob("/etc/apt/sources.list.d/*.sources") + ["/etc/apt/sources.list"]
            if Path(p).exists()
        )
        found = [
            uri
            for uri in re.findall(r"(?:URIs:\s*|^deb\s+(?:\[[^\]]*\]\s+)?)(\S+)", sources, re.M)
            if re.search(r"/debian/?$", uri)
        ]
        mirror = found[0] if found else "http://deb.debian.org/debian"
    return suite, mirror


def base_tag(project: Project) -> str:
    suite, mirror = debian_source()
    packages = sorted(set(RUNTIME_PACKAGES + project.debian_packages))
    digest = hashlib.sha256(json.dumps([suite, mirror, packages, EXCLUDED_PATHS]).encode()).hexdigest()[:16]
    return f"localhost/limelight-base:{digest}"


def _run(command: List[str], step: str, log: Callable[[str], None], **options) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **options)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise BuildError(f"{step} failed (exit {done.returncode}):\n{tail}")
    return done


def ensure_base(engine: str, project: Project, log: Callable[[str], None]) -> str:
    """The cached base image, made with mmdebstrap when it is missing."""
    tag = base_tag(project)
    if (
        subprocess.run(
            [engine, "image", "exists" if engine.endswith("podman") else "inspect", tag], capture_output=True
        ).returncode
        == 0
    ):
        log(f"base {tag} (cached)")
        return tag
    mmdebstrap = shutil.which("mmdebstrap")
    if not mmdebstrap:
        raise BuildError("the base image is made with mmdebstrap: apt-get install mmdebstrap")
    suite, mirror = debian_source()
    packages = sorted(set(RUNTIME_PACKAGES + project.debian_packages))
    log(f"base {tag}: Debian {suite} from {mirror} with {', '.join(packages)} (once; cached afterwards)")
    with tempfile.TemporaryDirectory(prefix="limelight-base-") as folder:
        tarball = str(Path(folder) / "base.tar")
        command = [
            mmdebstrap,
            "--variant=apt",
            "--include=" + ",".join(packages),
            *[f"--dpkgopt=path-exclude={path}" for path in EXCLUDED_PATHS],
            '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*',
            suite,
            tarball,
            mirror,
        ]
        _run(command, "mmdebstrap", log)
        _run([engine, "import", "--change", 'CMD ["python3"]', tarball, tag], f"{Path(engine).name} import", log)
    return tag


def _place(source: Path, target: Path) -> None:
    """A hard link where the file system allows it (weights can be large), else a copy."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _stage(patterns: List[str], folder: Path, into: Path, what: str, staging: Path) -> int:
    """Places the files ``patterns`` name (files or folders, globs) under ``into``, keeping their paths."""
    count = 0
    for pattern in patterns:
        matches = sorted(folder.glob(pattern))
        if not matches:
            raise BuildError(f"limelight.yaml {what}: nothing matches {pattern!r} in {folder}")
        for match in matches:
            files = (
                [match]
                if match.is_file()
                else [p for p in match.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
            )
            for file in files:
                if staging in file.parents:
                    continue
                _place(file, into / file.relative_to(folder))
                count += 1
    return count


def containerfile(base: str, project: Project, has_weights: bool) -> str:
    command = json.dumps(
        ["python3", "-m", "limelight", "serve", project.entry, "--host", "0.0.0.0", "--port", str(project.port)]
    )
    lines = [f"FROM {base}"]
    if has_weights:
        lines.append("COPY weights/ /app/")
    lines += [
        "COPY sdk/ /opt/limelight/",
        "COPY app/ /app/",
        "WORKDIR /app",
        f"ENV PYTHONPATH=/opt/limelight PYTHONUNBUFFERED=1 PORT={project.port}",
        f"EXPOSE {project.port}",
        f"LABEL dev.limelight.entry={json.dumps(project.entry)} dev.limelight.gpu={json.dumps(project.gpu)} "
        f'dev.limelight.health_path="/health"',
        f"CMD {command}",
    ]
    return "\n".join(lines) + "\n"


def build(
    project: Project, tag: Optional[str] = None, engine: Optional[str] = None, log: Callable[[str], None] = print
) -> str:
    """Builds the project's image; answers its tag."""
    engine_path = engine_command(engine)
    base = ensure_base(engine_path, project, log)
    tag = tag or f"localhost/{project.name}:latest"
    staging = Path(tempfile.mkdtemp(prefix=".limelight-build-", dir=project.folder))
    try:
        has_weights = (
            bool(project.weights)
            and _stage(project.weights, project.folder, staging / "weights", "weights", staging) > 0
        )
        (staging / "weights").mkdir(exist_ok=True)
        shutil.copytree(SDK_PACKAGE, staging / "sdk" / "limelight", ignore=shutil.ignore_patterns("__pycache__"))
        (staging / "app").mkdir()
        _stage(project.python, project.folder, staging / "app", "python", staging)
        (staging / "Containerfile").write_text(containerfile(base, project, has_weights))
        log(f"building {tag} with {Path(engine_path).name}")
        _run(
            [engine_path, "build", "--layers", "-f", str(staging / "Containerfile"), "-t", tag, str(staging)]
            if engine_path.endswith("podman")
            else [engine_path, "build", "-f", str(staging / "Containerfile"), "-t", tag, str(staging)],
            "the image build",
            log,
        )
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return tag
