"""``limelight.yaml``: what the CLI knows about a service folder (standard library only).

The file is a small YAML subset, enough for the project file and parsed here so the CLI needs no
YAML library: ``key: value`` lines, ``# comments``, lists as ``[a, b]`` or as ``- item`` lines
under a key, one level of mapping as ``{a: 1, b: 2}`` or as indented ``a: 1`` lines under a key
(``resources``), a ``{ }`` of scalars as a value inside such a mapping (``resources.gpu: {type: …,
count: 1}``), and quoted or bare scalars (numbers and true/false become numbers and booleans).
Fields are listed in docs/publishing.md ("limelight.yaml").

A file that cannot be used is refused in one line, naming the line and column (its syntax) or the
field (its meaning), and the CLI exits 2: the parser nests two levels at most (a mapping's value
may be a ``{ }`` of scalars, nothing deeper), so no document can exhaust the stack, and every field's type and range is checked here, before a build
or a deploy would fail on it later with a traceback or the platform's words.
"""

from __future__ import annotations

import difflib
import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

from .._rules import CONTAINER_RUNTIME_DEFAULTS, GPU_PRICES, RESOURCE_BOUNDS

FILE_NAME = "limelight.yaml"
#: A project file is a few lines; a bigger one is a mistake (a file renamed onto it), not read.
MAX_BYTES = 256 * 1024
GPU_TIERS = ("none", "t4", "a4000", "a10", "l4", "a100", "h100")
#: What one instance may use (docs/publishing.md, "Resources"): each key's range as the platform
#: checks it (the platform's rules, limelight/_rules.py); absent keys are the platform's defaults.
RESOURCE_RANGES = {key: (bounds["min"], bounds["max"]) for key, bounds in RESOURCE_BOUNDS.items()}
#: The GPU offers ``resources.gpu.type`` may name (the platform's rules): the type is the offer.
GPU_TYPES = tuple(str(offer["id"]) for offer in GPU_PRICES)
#: The port the image serves HTTP on when limelight.yaml names none (the container contract's).
DEFAULT_PORT = int(CONTAINER_RUNTIME_DEFAULTS["port"])
#: The deploy's whole-number settings, with the ranges the platform's service API accepts.
WHOLE_RANGES = {
    "min_instances": (0, 100),
    "max_instances": (1, 1000),
    "idle_timeout_s": (10, 86400),
    "concurrency": (1, 64),
}
#: The deploy's text settings and their longest length on the platform.
TEXT_LENGTHS = {"title": 80, "description": 20000, "gpu_offer": 100}
#: Every top-level field (docs/publishing.md, "limelight.yaml"); any other key is refused, with the
#: nearest of these suggested, so a misspelt setting is not silently ignored.
FIELDS = (
    "name",
    "entry",
    "python",
    "debian_packages",
    "weights",
    "gpu",
    "port",
    "resources",
    "title",
    "description",
    "visibility",
    "min_instances",
    "max_instances",
    "idle_timeout_s",
    "concurrency",
    "gpu_offer",
    "python_packages",
    "python_requirements",
    "pip_index_url",
    "snapshot",
)
#: Where pip looks for named packages unless limelight.yaml names an index (``pip_index_url``).
DEFAULT_PIP_INDEX = "https://pypi.org/simple"
#: The files pip installs from the folder itself: wheels and source distributions.
LOCAL_DISTRIBUTIONS = (".whl", ".tar.gz", ".zip")
#: A requirement in PEP 508's basic form: a name, extras, version clauses and an environment marker.
#: Options (``--index-url``, ``-e``, ``-r``) and URLs are refused, so the index stays the one
#: ``pip_index_url`` names (docs/publishing.md, "Python packages").
_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
_CLAUSE = r"(?:===|==|!=|~=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+"
REQUIREMENT = re.compile(
    rf"{_NAME}(?:\s*\[\s*{_NAME}(?:\s*,\s*{_NAME})*\s*\])?"
    rf"(?:\s*\(?\s*{_CLAUSE}(?:\s*,\s*{_CLAUSE})*\s*\)?)?"
    r"(?:\s*;\s*[A-Za-z0-9_. \t'\"<>=!~()-]+)?"
)
_KEY = r"[A-Za-z_][\w-]*"


class ProjectError(ValueError):
    """A limelight.yaml that cannot be used: the message names the line or field."""


@dataclass
class Project:
    """A service folder as limelight.yaml describes it."""

    folder: Path
    name: str
    entry: str = "main:app"
    python: List[str] = field(default_factory=lambda: ["*.py"])
    debian_packages: List[str] = field(default_factory=list)
    weights: List[str] = field(default_factory=list)
    gpu: str = "none"
    port: int = DEFAULT_PORT
    #: ``resources`` as declared (cpu, memory_mb, gpu); empty: the platform's defaults.
    resources: Dict[str, Any] = field(default_factory=dict)
    extra: Dict[str, Any] = field(default_factory=dict)
    #: What pip installs: ``python_packages`` then the lines of ``python_requirements``; a local
    #: wheel or sdist is its path relative to the folder (``./wheels/x-1.0-py3-none-any.whl``).
    python_packages: List[str] = field(default_factory=list)
    python_requirements: Optional[str] = None
    pip_index_url: str = DEFAULT_PIP_INDEX
    #: false: never restored from a memory snapshot, always a cold start (docs/deploy.md, "Snapshot cold starts").
    snapshot: bool = True


def _at(source: str, line: int, column: Optional[int] = None) -> str:
    return f"{source}, line {line}" + (f", column {column}" if column else "")


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _items(inner: str, column: int) -> Iterator[Tuple[str, int]]:
    """The comma-separated items of a ``[ ]`` or ``{ }`` body with their columns; a comma inside
    a quoted item is part of it."""
    start, quote, depth = 0, None, 0
    for index, char in enumerate(inner):
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'" and not inner[start:index].strip():
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            yield inner[start:index], column + start
            start = index + 1
    yield inner[start:], column + start


def _scalar(
    text: str,
    source: str,
    line: int,
    column: int,
    nested: bool = True,
    in_mapping: bool = False,
    deeper: bool = True,
) -> Any:
    """One value; ``column`` is where ``text`` starts on its line. ``nested``: a ``[ ]`` or
    ``{ }`` may stand here (a top-level value); inside one, only scalars, but for a ``{ }`` of
    scalars as a mapping's value (``in_mapping``: ``resources.gpu: {type: …}``). ``deeper``: the
    values of a ``{ }`` here may be such a ``{ }`` (off inside it, so two levels at most)."""
    stripped = text.lstrip()
    column += len(text) - len(stripped)
    text = stripped.rstrip()
    where = _at(source, line, column)
    if text == "":
        return None
    if text[0] in "\"'":
        if len(text) < 2 or text[-1] != text[0]:
            raise ProjectError(f"{where}: an unterminated quoted value (close it with {text[0]} on the same line)")
        return text[1:-1]
    if text[0] in "[{":
        if not nested and in_mapping and text[0] == "{":
            # One level more, and only this: the inner mapping takes scalars (in_mapping off).
            return _scalar(text, source, line, column, deeper=False)
        if not nested:
            raise ProjectError(
                f"{where}: a list or mapping inside another one: limelight.yaml nests one level only "
                '(docs/publishing.md, "limelight.yaml")'
            )
        closing = "]" if text[0] == "[" else "}"
        if not text.endswith(closing):
            raise ProjectError(
                f"{where}: {text[0]} opens a {'list' if closing == ']' else 'mapping'} that is not closed with {closing} on the same line"
            )
        inner = text[1:-1]
        if not inner.strip():
            return [] if closing == "]" else {}
        if closing == "]":
            return [_scalar(item, source, line, at, nested=False) for item, at in _items(inner, column + 1)]
        mapping: Dict[str, Any] = {}
        for item, at in _items(inner, column + 1):
            pair = re.fullmatch(rf"(\s*)({_KEY})\s*:(.*)", item)
            if not pair:
                offset = len(item) - len(item.lstrip())
                raise ProjectError(
                    f"{_at(source, line, at + offset)}: expected `key: value` inside {{ }}, found {item.strip()!r}"
                )
            if pair.group(2) in mapping:
                raise ProjectError(f"{_at(source, line, at + len(pair.group(1)))}: {pair.group(2)} is given twice")
            mapping[pair.group(2)] = _scalar(
                pair.group(3), source, line, at + pair.start(3), nested=False, in_mapping=deeper
            )
        return mapping
    if text[0] in "]}":
        raise ProjectError(f"{where}: {text[0]} closes nothing")
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+(\.\d*)?", text):
        digits = len(text.lstrip("-"))
        if digits > 40:  # past any field's range, and int() refuses past 4,300 digits
            raise ProjectError(f"{where}: a number of {digits} digits is more than any field takes")
        return int(text) if "." not in text else float(text)
    return text


def _parse(text: str, source: str) -> Tuple[Dict[str, Any], Dict[str, int]]:
    """The document as a dict, and the line of each top-level key."""
    data: Dict[str, Any] = {}
    lines: Dict[str, int] = {}
    bare: Dict[str, bool] = {}  # keys with nothing after their colon and, so far, nothing under them
    current: Optional[str] = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if "\t" in line[:indent]:
            raise ProjectError(
                f"{_at(source, number, line.index(chr(9)) + 1)}: a tab in the indentation (YAML indents with spaces)"
            )
        nested = re.fullmatch(rf"(\s+)({_KEY}):(.*)", line)
        if nested:
            # An indented `key: value` under a key with nothing after its colon: one level of mapping.
            key_column = indent + 1
            if current is None or not (bare.get(current) or isinstance(data.get(current), dict)):
                raise ProjectError(
                    f"{_at(source, number, key_column)}: an indented `key: value` belongs under a key "
                    "with nothing after its colon"
                )
            if bare.pop(current, False):
                data[current] = {}
            if not nested.group(3).strip():
                raise ProjectError(
                    f"{_at(source, number, key_column)}: {current}.{nested.group(2)} needs a value "
                    "(one level of nesting only)"
                )
            if nested.group(2) in data[current]:
                raise ProjectError(f"{_at(source, number, key_column)}: {current}.{nested.group(2)} is given twice")
            data[current][nested.group(2)] = _scalar(
                nested.group(3), source, number, nested.start(3) + 1, nested=False, in_mapping=True
            )
            continue
        item = re.fullmatch(r"(\s*)-(\s+(.*)|)", line)
        if item:
            if current is None or not (bare.get(current) or isinstance(data.get(current), list)):
                raise ProjectError(f"{_at(source, number, indent + 1)}: a list item without a key above it")
            bare.pop(current, None)
            value = item.group(3) or ""
            data[current].append(
                _scalar(value, source, number, item.start(3) + 1 if value else indent + 2, nested=False)
            )
            continue
        if indent:
            raise ProjectError(f"{_at(source, number, indent + 1)}: expected `key: value`, found {raw.strip()!r}")
        pair = re.fullmatch(rf"({_KEY}):(.*)", line)
        if not pair:
            raise ProjectError(f"{_at(source, number, 1)}: expected `key: value`, found {raw.strip()!r}")
        key, value = pair.group(1), pair.group(2)
        if key in lines:
            raise ProjectError(f"{_at(source, number, 1)}: {key} is given twice (first on line {lines[key]})")
        current, lines[key] = key, number
        if value.strip():
            data[key] = _scalar(value, source, number, pair.start(2) + 1)
        else:
            data[key], bare[key] = [], True
    for key in bare:  # `key:` with nothing under it: no value (YAML's null), so the default
        data[key] = None
    return data, lines


def parse(text: str, source: str = FILE_NAME) -> Dict[str, Any]:
    """The subset of YAML limelight.yaml uses, as a dict."""
    return _parse(text, source)[0]


def _strings(value: Any, name: str) -> List[str]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ProjectError(f"{FILE_NAME}: {name} is a list of names, got {_shown(value)}")
    return value


def _paths(value: Any, name: str) -> List[str]:
    """Files, folders or globs inside the service's folder (``.`` is the whole folder)."""
    paths = _strings(value, name)
    for path in paths:
        parts = path.replace("\\", "/").split("/")
        if not path.strip() or "\0" in path:
            raise ProjectError(f"{FILE_NAME}: {name}: an empty name; name files or folders (like main.py or src/)")
        if path.startswith(("/", "~")) or re.match(r"[A-Za-z]:", path) or ".." in parts:
            raise ProjectError(
                f"{FILE_NAME}: {name}: {path!r} is not inside the service's folder; name files, folders or "
                "globs relative to it (like main.py, src/, *.py or . for all of it)"
            )
    return paths


def _requirement(text: str, folder: Path, where: str) -> str:
    """One requirement as pip will read it: a name in PEP 508's basic form, or a wheel or source
    distribution inside the folder (returned as ``./`` and its path from the folder)."""
    text = text.strip()
    if text.startswith("-"):
        raise ProjectError(
            f"{where}: {text!r} is a pip option: only requirements are taken here (the index is "
            'pip_index_url; docs/publishing.md, "Python packages")'
        )
    looks_local = "/" in text or "\\" in text or text.endswith(LOCAL_DISTRIBUTIONS)
    if looks_local and "://" not in text and "@" not in text:
        path = text.replace("\\", "/")
        parts = path.split("/")
        if path.startswith(("/", "~")) or re.match(r"[A-Za-z]:", path) or ".." in parts or "\0" in path:
            raise ProjectError(
                f"{where}: {text!r} is not inside the service's folder; name a wheel or source "
                "distribution relative to it (like ./wheels/mypkg-1.0-py3-none-any.whl)"
            )
        if not path.endswith(LOCAL_DISTRIBUTIONS):
            raise ProjectError(f"{where}: {text!r} is not a wheel (.whl) or source distribution (.tar.gz, .zip)")
        relative = posixpath.normpath(path)
        if not (folder / relative).is_file():
            raise ProjectError(f"{where}: {text!r} is not a file in {folder}")
        return "./" + relative
    if not REQUIREMENT.fullmatch(text):
        raise ProjectError(
            f"{where}: {text!r} is not a requirement pip is given from here: a name with optional extras, "
            "versions and marker (like numpy>=1.26 or requests[socks]==2.31.0), or a wheel or source "
            "distribution in the folder (URLs are not taken)"
        )
    return text


def _python_packages(data: Dict[str, Any], folder: Path) -> Tuple[List[str], Optional[str]]:
    """``python_packages`` and the lines of ``python_requirements``, each checked."""
    packages = [
        _requirement(item, folder, f"{FILE_NAME}: python_packages")
        for item in _strings(data.get("python_packages", []), "python_packages")
    ]
    requirements = data.get("python_requirements")
    if requirements is None:
        return packages, None
    if not isinstance(requirements, str):
        raise ProjectError(f"{FILE_NAME}: python_requirements is a file's path, got {_shown(requirements)}")
    _paths(requirements, "python_requirements")
    path = folder / requirements
    if not path.is_file():
        raise ProjectError(f"{FILE_NAME}: python_requirements: {requirements!r} is not a file in {folder.resolve()}")
    for number, raw in enumerate(_read(path).splitlines(), 1):
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if line:
            packages.append(_requirement(line, folder, f"{requirements}, line {number}"))
    return packages, requirements


def _index_url(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"https?://[^\s/@]+(/[^\s]*)?", value) or len(value) > 2000:
        raise ProjectError(
            f"{FILE_NAME}: pip_index_url is an http(s) URL without credentials (like "
            f"{DEFAULT_PIP_INDEX}), got {_shown(value)}"
        )
    return value


def _resources(value: Any) -> Dict[str, Any]:
    """``resources`` checked as the platform checks it, so a bad value is refused before a build."""
    if value is None or value == []:
        return {}
    if not isinstance(value, dict):
        raise ProjectError(
            f"{FILE_NAME}: resources is a mapping like {{cpu: 1, memory_mb: 512, gpu: 0}}, got {_shown(value)}"
        )
    unknown = sorted(set(value) - set(RESOURCE_RANGES))
    if unknown:
        raise ProjectError(
            f"{FILE_NAME}: resources has no {', '.join(unknown)} (it takes {', '.join(RESOURCE_RANGES)})"
        )
    for key, (low, high) in RESOURCE_RANGES.items():
        if key not in value:
            continue
        number = value[key]
        if key == "gpu" and isinstance(number, dict):
            value = {**value, "gpu": _gpu_request(number, high)}
            continue
        whole = key != "cpu"
        ok = isinstance(number, (int, float)) and not isinstance(number, bool) and low <= number <= high
        if not ok or (whole and not isinstance(number, int)) or (not whole and round(number * 10) != number * 10):
            kind = "a whole number" if whole else "a number in steps of 0.1"
            raise ProjectError(f"{FILE_NAME}: resources.{key} is {kind} from {low} to {high}, got {_shown(number)}")
    return dict(value)


def _gpu_request(value: Dict[str, Any], most: int) -> Dict[str, Any]:
    """``resources.gpu: {type, count}``: ``count`` GPUs of the offer ``type`` per instance
    (count 1 when left out); the type is the service's GPU offer and prices it."""
    unknown = sorted(set(value) - {"type", "count"})
    if unknown:
        raise ProjectError(f"{FILE_NAME}: resources.gpu has no {', '.join(unknown)} (it takes type and count)")
    kind = value.get("type")
    if kind not in GPU_TYPES:
        # A tier like `a100` names the offers that hold it; else the nearest spelling.
        near = [offer for offer in GPU_TYPES if isinstance(kind, str) and kind and kind.lower() in offer]
        near = near or difflib.get_close_matches(str(kind), GPU_TYPES, n=1, cutoff=0.6)
        hint = f"did you mean {' or '.join(near)}? " if near else ""
        raise ProjectError(
            f"{FILE_NAME}: resources.gpu.type is a GPU offer, got {_shown(kind)} ({hint}the offers are "
            f"{', '.join(GPU_TYPES)})"
        )
    count = value.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= most:
        raise ProjectError(f"{FILE_NAME}: resources.gpu.count is a whole number from 1 to {most}, got {_shown(count)}")
    return {"type": kind, "count": count}


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ProjectError(f"{path} is {path.stat().st_size} bytes: a project file is at most {MAX_BYTES} bytes")
        raw = path.read_bytes()
    except OSError as error:
        raise ProjectError(f"cannot read {path}: {error.strerror or error}") from error
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise ProjectError(f"{_at(str(path), line, column)}: not UTF-8 text (byte 0x{raw[error.start]:02x})") from None


def _unknown(data: Dict[str, Any], lines: Dict[str, int], source: str) -> None:
    for key in data:
        if key not in FIELDS:
            near = difflib.get_close_matches(key, FIELDS, n=1, cutoff=0.6)
            hint = f"did you mean {near[0]}?" if near else f"the fields are {', '.join(FIELDS)}"
            raise ProjectError(
                f'{_at(source, lines[key])}: no field {key} ({hint}; docs/publishing.md, "limelight.yaml")'
            )


def _text(value: Any, name: str) -> str:
    """A text setting; a bare number (``title: 2024``) is its text."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ProjectError(f"{FILE_NAME}: {name} is a text, got {_shown(value)}")
    text = str(value).strip()
    if not text or len(text) > TEXT_LENGTHS.get(name, 128):
        raise ProjectError(
            f"{FILE_NAME}: {name} is a text of 1 to {TEXT_LENGTHS.get(name, 128)} characters, got {_shown(value)}"
        )
    return text


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProjectError(f"{FILE_NAME}: {name} is a whole number from {low} to {high}, got {_shown(value)}")
    return value


def _deploy_settings(data: Dict[str, Any]) -> Dict[str, Any]:
    """The deploy's settings (title … gpu_offer), checked as the platform checks them."""
    settings: Dict[str, Any] = {}
    for key in TEXT_LENGTHS:
        if key in data:
            settings[key] = _text(data[key], key)
    for key, (low, high) in WHOLE_RANGES.items():
        if key in data:
            settings[key] = _whole(data[key], key, low, high)
    if settings.get("max_instances", 1) < settings.get("min_instances", 0):
        raise ProjectError(
            f"{FILE_NAME}: max_instances ({settings.get('max_instances', 1)}) is at least min_instances "
            f"({settings['min_instances']})"
        )
    if "visibility" in data:
        if data["visibility"] not in ("public", "private"):
            raise ProjectError(f"{FILE_NAME}: visibility is public or private, got {_shown(data['visibility'])}")
        settings["visibility"] = data["visibility"]
    return settings


def load(folder: Path = Path(".")) -> Project:
    """The project of ``folder`` (its limelight.yaml); a ProjectError naming the line or field."""
    path = folder / FILE_NAME
    if not path.exists():
        raise ProjectError(f"No {FILE_NAME} in {folder.resolve()}: run `limelight init` to make one")
    if not path.is_file():
        raise ProjectError(f"{path} is not a file")
    data, lines = _parse(_read(path), str(path))
    _unknown(data, lines, str(path))
    data = {key: value for key, value in data.items() if value is not None}  # `key:` alone: the default
    name = data.get("name")
    if name is None:
        name = folder.resolve().name
    else:
        if isinstance(name, int) and not isinstance(name, bool):
            name = str(name)
        # The image's name (localhost/<name>) and the repository's in the registry.
        if (
            not isinstance(name, str)
            or not re.fullmatch(r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*", name)
            or len(name) > 128
        ):
            raise ProjectError(
                f"{FILE_NAME}: name is the image's name: lowercase letters and digits, with . _ or - between "
                f"them (like word-counter), got {_shown(name)}"
            )
    entry = data.get("entry", "main:app")
    if not isinstance(entry, str) or not re.fullmatch(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*", entry):
        raise ProjectError(f"{FILE_NAME}: entry is `module:attribute` (like main:app), got {_shown(entry)}")
    gpu = data.get("gpu", "none")
    if not isinstance(gpu, str) or gpu.lower() not in GPU_TIERS:
        raise ProjectError(f"{FILE_NAME}: gpu is one of {', '.join(GPU_TIERS)}, got {_shown(gpu)}")
    port = data.get("port", DEFAULT_PORT)
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ProjectError(f"{FILE_NAME}: port is a number from 1 to 65535, got {_shown(port)}")
    python = _paths(data.get("python", ["*.py"]), "python")
    if not python:
        raise ProjectError(f"{FILE_NAME}: python names the service's files (like [main.py] or [src/]), got []")
    packages = _strings(data.get("debian_packages", []), "debian_packages")
    for package in packages:
        # A Debian package name (with =version or :arch): anything else would reach mmdebstrap's --include.
        if not re.fullmatch(r"[a-z0-9][a-z0-9+.-]+(:[a-z0-9-]+)?(=[A-Za-z0-9.+~:-]+)?", package):
            raise ProjectError(f"{FILE_NAME}: debian_packages: {package!r} is not a Debian package name")
    python_packages, python_requirements = _python_packages(data, folder.resolve())
    snapshot = data.get("snapshot", True)
    if not isinstance(snapshot, bool):
        raise ProjectError(f"{FILE_NAME}: snapshot is true or false, got {_shown(snapshot)}")
    resources = _resources(data.get("resources"))
    extra = _deploy_settings(data)
    requested = resources.get("gpu")
    if isinstance(requested, dict):
        # The type is the offer the deploy names (docs/publishing.md, "Resources").
        if extra.get("gpu_offer", requested["type"]) != requested["type"]:
            raise ProjectError(
                f"{FILE_NAME}: gpu_offer is {_shown(extra['gpu_offer'])} but resources.gpu.type is "
                f"{_shown(requested['type'])}: name one offer (resources.gpu.type alone is enough)"
            )
        extra["gpu_offer"] = requested["type"]
    return Project(
        folder=folder.resolve(),
        name=name,
        entry=entry,
        python=python,
        debian_packages=packages,
        weights=_paths(data.get("weights", []), "weights"),
        gpu=gpu.lower(),
        port=port,
        resources=resources,
        extra=extra,
        python_packages=python_packages,
        python_requirements=python_requirements,
        pip_index_url=_index_url(data.get("pip_index_url", DEFAULT_PIP_INDEX)),
        snapshot=snapshot,
    )
