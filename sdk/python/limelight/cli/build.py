"""``limelight build``: an OCI image from limelight.yaml, without a Dockerfile from the publisher.

Layers, bottom to top, each reused while its inputs do not change:

1. the base: Debian made offline from the archive apt uses (mmdebstrap), with Python, FastAPI,
   pydantic, uvicorn and the project's ``debian_packages``; cached as
   ``localhost/limelight-base:<hash of the package list, suite and mirror>``;
2. the Python packages (``python_packages``, ``python_requirements``), installed by pip in an
   image of their own, ``localhost/limelight-python:<hash of the requirements, the local wheels'
   contents, the index and the base>``, and copied from it as one layer, so pip runs again only
   when one of those changes;
3. the weights (``weights`` in limelight.yaml), a layer of their own, so a code change keeps it;
4. the ``limelight`` package itself;
5. the project's Python files, with the command ``python3 -m limelight serve <entry>``.

The image is built with Podman or Docker (whichever is there, or ``--engine``) from a
Containerfile written here with COPY steps only, so no container runs during the build (but
pip's, in the packages' own image, with no network when every package is a file of the folder). The
context holds only the files ``.limelightignore`` and its defaults let through (``ignore.py``:
no ``.env``, keys or ``.git``), so nothing else in the folder reaches the image or its digest.
See docs/publishing.md ("limelight build").
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import posixpath
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Callable, Dict, List, Optional

from . import fingerprint as fingerprints
from . import ignore
from .ignore import Ignore
from .project import FILE_NAME, LOCAL_DISTRIBUTIONS, Project, ProjectError

#: Debian packages every image has: the library's dependencies.
RUNTIME_PACKAGES = [
    "python3",
    "python3-fastapi",
    "python3-pydantic",
    "python3-uvicorn",
    "python3-multipart",
    "ca-certificates",
]
#: What the Python packages' image adds to the base: pip (Debian's, so it works offline).
PIP_PACKAGES = ["python3-pip"]
#: Where pip installs in the packages' image (``--root``): under it, Debian's /usr/local, whose
#: dist-packages is on the image's sys.path; the final image copies that tree to /.
PIP_ROOT = "/opt/limelight-python"
#: pip's arguments; part of the packages' image key, so a change here installs again.
PIP_INSTALL = [
    "python3", "-m", "pip", "install", "--no-cache-dir", "--root-user-action=ignore",
    "--disable-pip-version-check", "--no-warn-script-location", "--root", PIP_ROOT,
]  # fmt: skip
#: Left out of the base: documentation, manuals and translations.
EXCLUDED_PATHS = ["/usr/share/doc/*", "/usr/share/man/*", "/usr/share/info/*", "/usr/share/locale/*"]
#: Set to ``off`` in the image of a project with ``snapshot: false``; serve/snapshot.py's OPT_OUT_ENV
#: (not imported: building needs no FastAPI).
OPT_OUT_ENV = "LIMELIGHT_SNAPSHOT"
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


def base_packages(project: Project) -> List[str]:
    """The base's Debian packages: pip too when the project installs Python packages."""
    extra = PIP_PACKAGES if project.python_packages else []
    return sorted(set(RUNTIME_PACKAGES + project.debian_packages + extra))


def base_tag(project: Project) -> str:
    suite, mirror = debian_source()
    packages = base_packages(project)
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
    packages = base_packages(project)
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


class Context:
    """What a build puts in its context, and what the ignore rules left out by default."""

    def __init__(self, project: Project, staging: Path):
        self.project, self.staging = project, staging
        self.ignore = Ignore.of(project.folder)
        self.staged: Dict[str, str] = {}  # relative path → "weights" or "python"
        #: Left out by a default exclude (not by the publisher's own patterns): the part of the path
        #: the rule matched, by file (``.git/config`` → ``.git/``).
        self.left_out_by_default: Dict[str, str] = {}

    def _files(self, match: Path) -> List[Path]:
        if match.is_file():
            return [match]
        found = []
        for root, folders, files in os.walk(match):
            folders[:] = sorted(name for name in folders if Path(root) / name != self.staging)
            found += [Path(root) / name for name in sorted(files)]
        return found

    def stage(self, patterns: List[str], into: Path, what: str) -> int:
        """Places the files ``patterns`` name (files, folders, globs; ``.`` is the whole folder) under
        ``into``, keeping their paths, less what the ignore rules leave out."""
        folder, count = self.project.folder, 0
        for pattern in patterns:
            clean = posixpath.normpath(pattern.replace("\\", "/"))
            try:
                matches = [folder] if clean == "." else sorted(folder.glob(clean))
            except (ValueError, NotImplementedError) as error:
                raise ProjectError(
                    f"limelight.yaml {what}: {pattern!r} is not a pattern this build reads ({error})"
                ) from error
            if not matches:
                raise BuildError(f"limelight.yaml {what}: nothing matches {pattern!r} in {folder}")
            placed = 0
            for match in matches:
                for file in self._files(match):
                    if self.staging in file.parents or not file.is_file():
                        continue
                    relative = file.relative_to(folder).as_posix()
                    left_out, rule, matched = self.ignore.decide(relative)
                    if left_out:
                        if rule is not None and rule.default:
                            self.left_out_by_default[relative] = matched + ("/" if matched != relative else "")
                        continue
                    placed += 1
                    if relative in self.staged:  # a weights file also named by python: kept in its layer
                        continue
                    _place(file, into / relative)
                    self.staged[relative] = what
                    count += 1
            if not placed:
                raise BuildError(
                    f"limelight.yaml {what}: everything {pattern!r} names is left out by the default excludes "
                    f'or {ignore.FILE_NAME} (docs/publishing.md, "What goes into the image")'
                )
        return count

    def summary(self) -> Optional[str]:
        """One line on what the defaults left out, so a file missing from the image is no surprise."""
        if not self.left_out_by_default:
            return None
        names = sorted(set(self.left_out_by_default.values()))
        shown = ", ".join(names[:5]) + (", …" if len(names) > 5 else "")
        count = len(self.left_out_by_default)
        return (
            f"left out {count} file{'s' if count != 1 else ''} by default ({shown}): "
            f'a line !<path> in {ignore.FILE_NAME} brings one back (docs/publishing.md, "What goes into the image")'
        )


def stage_context(project: Project, staging: Path, log: Callable[[str], None]) -> bool:
    """Writes the build context into ``staging`` (weights/, sdk/, app/); answers whether there are
    weights. Only the files the ignore rules let through are in it, so the image's digest depends
    on nothing else in the folder."""
    context = Context(project, staging)
    has_weights = bool(project.weights) and context.stage(project.weights, staging / "weights", "weights") > 0
    (staging / "weights").mkdir(exist_ok=True)
    shutil.copytree(SDK_PACKAGE, staging / "sdk" / "limelight", ignore=shutil.ignore_patterns("__pycache__"))
    (staging / "app").mkdir(exist_ok=True)
    context.stage(project.python, staging / "app", "python")
    summary = context.summary()
    if summary:
        log(summary)
    return has_weights


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def stage_python_packages(project: Project, staging: Path) -> Optional[str]:
    """Writes what pip needs into ``staging/python`` (requirements.txt and the folder's own wheels
    and sdists under files/); answers the packages' image tag, a hash of all pip reads, or None
    when the project installs no Python packages."""
    if not project.python_packages:
        return None
    target = staging / "python"
    (target / "files").mkdir(parents=True)
    lines, files = [], []
    rules = Ignore.of(project.folder)
    named = [requirement[2:] for requirement in project.python_packages if requirement.startswith("./")]
    # Beside the files named, the wheels and sdists of their folders: pip finds there what those
    # need (--find-links), so a dependency built as a wheel installs offline without being named.
    beside = [
        path.relative_to(project.folder).as_posix()
        for parent in sorted({posixpath.dirname(relative) for relative in named})
        for path in sorted((project.folder / parent).iterdir())
        if path.is_file() and path.name.endswith(LOCAL_DISTRIBUTIONS)
    ]
    for relative in sorted(set(named + beside)):
        if rules.decide(relative)[0]:  # what the ignore rules leave out reaches no build
            if relative not in named:
                continue
            raise BuildError(
                f"{FILE_NAME} python_packages: {relative} is left out by the default excludes or "
                f'{ignore.FILE_NAME} (docs/publishing.md, "What goes into the image")'
            )
        _place(project.folder / relative, target / "files" / relative)
        files.append([relative, _sha256(project.folder / relative)])
    for requirement in project.python_packages:
        # a wheel or sdist of the folder (project.py checked it is inside), as staged here
        lines.append(f"/limelight-python/files/{requirement[2:]}" if requirement.startswith("./") else requirement)
    (target / "requirements.txt").write_text("\n".join(lines) + "\n")
    index = None if len(named) == len(lines) else project.pip_index_url
    key = json.dumps([base_tag(project), index, lines, files, PIP_INSTALL, PIP_ROOT])
    return f"localhost/limelight-python:{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def ensure_python_packages(
    engine: str, project: Project, base: str, tag: str, staging: Path, log: Callable[[str], None]
) -> None:
    """The packages' image: reused when it exists (the same requirements, files, index and base),
    else made by pip in a build step of its own, without network when no index is needed."""
    count = len(project.python_packages)
    if _image_exists(engine, tag):
        log(f"python packages {tag} (cached)")
        return
    offline = all(requirement.startswith("./") for requirement in project.python_packages)
    where = "the folder's files only, no network" if offline else project.pip_index_url
    log(f"python packages {tag}: pip installs {count} requirement{'s' if count != 1 else ''} from {where}")
    options = ["--no-index"] if offline else ["--index-url", project.pip_index_url]
    # The folders of the folder's own files, so pip finds there what they need besides (an sdist's
    # build backend offline, a dependency built as a wheel too): --find-links does not recurse.
    local = sorted({posixpath.dirname(r[2:]) for r in project.python_packages if r.startswith("./")})
    for parent in local:
        options += ["--find-links", posixpath.join("/limelight-python/files", parent)]
    run = json.dumps(PIP_INSTALL + options + ["-r", "/limelight-python/requirements.txt"])
    (staging / "Containerfile.python").write_text(f"FROM {base}\nCOPY . /limelight-python/\nRUN {run}\n")
    command = [engine, "build", "-f", str(staging / "Containerfile.python"), "-t", tag]
    if engine.endswith("podman"):
        command.append("--layers=false")  # the image is the cache: no intermediate images beside it
    done = subprocess.run(
        command + (["--network", "none"] if offline else []) + [str(staging / "python")],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        tail = "\n".join((done.stdout + "\n" + done.stderr).strip().splitlines()[-15:])
        raise BuildError(
            f"pip could not install the Python packages of {FILE_NAME} (python_packages, python_requirements; "
            f'docs/publishing.md, "Python packages"), exit {done.returncode}; its last lines:\n{tail}'
        )


def _image_exists(engine: str, tag: str) -> bool:
    check = [engine, "image", "exists" if engine.endswith("podman") else "inspect", tag]
    return subprocess.run(check, capture_output=True).returncode == 0


def containerfile(base: str, project: Project, has_weights: bool, python_packages: Optional[str] = None) -> str:
    command = json.dumps(
        ["python3", "-m", "limelight", "serve", project.entry, "--host", "0.0.0.0", "--port", str(project.port)]
    )
    lines = [f"FROM {base}"]
    if python_packages:  # below the weights and the code, so changing them keeps this layer
        lines.append(f"COPY --from={python_packages} {PIP_ROOT}/ /")
    if has_weights:
        lines.append("COPY weights/ /app/")
    lines += [
        "COPY sdk/ /opt/limelight/",
        "COPY app/ /app/",
        "WORKDIR /app",
        f"ENV PYTHONPATH=/opt/limelight PYTHONUNBUFFERED=1 PORT={project.port}"
        # snapshot: false in limelight.yaml: the app never waits at its snapshot point (serve/snapshot.py).
        + ("" if project.snapshot else f" {OPT_OUT_ENV}=off"),
        f"EXPOSE {project.port}",
        f"LABEL dev.limelight.entry={json.dumps(project.entry)} dev.limelight.gpu={json.dumps(project.gpu)} "
        f'dev.limelight.health_path="/health"',
        f"CMD {command}",
    ]
    return "\n".join(lines) + "\n"


def build(
    project: Project,
    tag: Optional[str] = None,
    engine: Optional[str] = None,
    log: Callable[[str], None] = print,
    *,
    only_if_changed: bool = False,
) -> str:
    """Builds the project's image; answers its tag. ``only_if_changed`` (``limelight push``): not
    when the image was built from this very context (fingerprint.py)."""
    tag = tag or f"localhost/{project.name}:latest"
    staging = Path(tempfile.mkdtemp(prefix=".limelight-build-", dir=project.folder))
    try:
        # The context first: a pattern naming nothing is said before minutes of a base build.
        has_weights = stage_context(project, staging, log)
        engine_path = engine_command(engine)
        # The base's tag names its inputs (base_tag), so the Containerfile is known before the base is made.
        python_packages = stage_python_packages(project, staging)
        (staging / "Containerfile").write_text(containerfile(base_tag(project), project, has_weights, python_packages))
        fingerprint, hashes = fingerprints.of_context(project, staging)
        if only_if_changed:
            stale = fingerprints.why_stale(project, tag, fingerprint, fingerprints.image_id(engine_path, tag))
            if stale is None:
                log(f"image up to date: {tag}")
                return tag
            log(f"{stale}: building…")
        base = ensure_base(engine_path, project, log)
        if python_packages:
            ensure_python_packages(engine_path, project, base, python_packages, staging, log)
        log(f"building {tag} with {Path(engine_path).name}")
        _run(
            [engine_path, "build", "--layers", "-f", str(staging / "Containerfile"), "-t", tag, str(staging)]
            if engine_path.endswith("podman")
            else [engine_path, "build", "-f", str(staging / "Containerfile"), "-t", tag, str(staging)],
            "the image build",
            log,
        )
        fingerprints.record(project, tag, fingerprint, fingerprints.image_id(engine_path, tag), hashes)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return tag
