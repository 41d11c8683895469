"""``limelight.yaml``: what the CLI knows about a service folder (standard library only).

The file is a small YAML subset, enough for the project file and parsed here so the CLI needs no
YAML library: ``key: value`` lines, ``# comments``, lists as ``[a, b]`` or as ``- item`` lines
under a key, one level of mapping as ``{a: 1, b: 2}`` or as indented ``a: 1`` lines under a key
(``resources``), and quoted or bare scalars (numbers and true/false become numbers and booleans).
Fields are listed in docs/publishing.md ("limelight.yaml").
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

FILE_NAME = "limelight.yaml"
GPU_TIERS = ("none", "t4", "a4000", "a10", "l4", "a100", "h100")
#: What one instance may use (docs/publishing.md, "Resources"): each key's range as the platform
#: checks it; absent keys are the platform's defaults (1 CPU, 1024 MB, no GPU).
RESOURCE_RANGES = {"cpu": (0.1, 32), "memory_mb": (64, 262144), "gpu": (0, 8)}


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
    port: int = 8080
    #: ``resources`` as declared (cpu, memory_mb, gpu); empty: the platform's defaults.
    resources: Dict[str, Any] = field(default_factory=dict)
    extra: Dict[str, Any] = field(default_factory=dict)


def _scalar(text: str, where: str) -> Any:
    text = text.strip()
    if text == "":
        return None
    if text[0] in "\"'":
        if len(text) < 2 or text[-1] != text[0]:
            raise ProjectError(f"{where}: an unterminated quoted value")
        return text[1:-1]
    if text.startswith("{"):
        if not text.endswith("}"):
            raise ProjectError(f"{where}: a mapping opened with {{ is closed on the same line")
        inner = text[1:-1].strip()
        mapping: Dict[str, Any] = {}
        for part in inner.split(",") if inner else []:
            pair = re.fullmatch(r"\s*([A-Za-z_][\w-]*)\s*:(.*)", part)
            if not pair:
                raise ProjectError(f"{where}: expected `key: value` inside {{ }}, found {part.strip()!r}")
            mapping[pair.group(1)] = _scalar(pair.group(2), where)
        return mapping
    if text.startswith("["):
        if not text.endswith("]"):
            raise ProjectError(f"{where}: a list opened with [ is closed on the same line")
        inner = text[1:-1].strip()
        return [_scalar(part, where) for part in inner.split(",")] if inner else []
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d*", text):
        return float(text)
    return text


def parse(text: str, source: str = FILE_NAME) -> Dict[str, Any]:
    """The subset of YAML limelight.yaml uses, as a dict."""
    data: Dict[str, Any] = {}
    current: Optional[str] = None
    for number, raw in enumerate(text.splitlines(), 1):
        where = f"{source}, line {number}"
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if not line.strip():
            continue
        nested = re.fullmatch(r"\s+([A-Za-z_][\w-]*):(.*)", line)
        if nested:
            # An indented `key: value` under a key with nothing after its colon: one level of mapping.
            target = data.get(current) if current is not None else None
            if current is not None and target == []:
                target = data[current] = {}
            if not isinstance(target, dict):
                raise ProjectError(
                    f"{where}: an indented `key: value` belongs under a key with nothing after its colon"
                )
            if not nested.group(2).strip():
                raise ProjectError(f"{where}: {current}.{nested.group(1)} needs a value (one level of nesting only)")
            target[nested.group(1)] = _scalar(nested.group(2), where)
            continue
        item = re.fullmatch(r"\s+-\s*(.*)|-\s+(.*)", line)
        if item:
            if current is None or not isinstance(data.get(current), list):
                raise ProjectError(f"{where}: a list item without a key above it")
            data[current].append(_scalar(item.group(1) if item.group(1) is not None else item.group(2), where))
            continue
        pair = re.fullmatch(r"([A-Za-z_][\w-]*):(.*)", line)
        if not pair:
            raise ProjectError(f"{where}: expected `key: value`, found {raw.strip()!r}")
        key, value = pair.group(1), pair.group(2)
        current = key
        data[key] = _scalar(value, where) if value.strip() else []
    return data


def _strings(value: Any, name: str) -> List[str]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ProjectError(f"{FILE_NAME}: {name} is a list of names, got {json.dumps(value)}")
    return value


def _resources(value: Any) -> Dict[str, Any]:
    """``resources`` checked as the platform checks it, so a bad value is refused before a build."""
    if value is None or value == []:
        return {}
    if not isinstance(value, dict):
        raise ProjectError(
            f"{FILE_NAME}: resources is a mapping like {{cpu: 1, memory_mb: 512, gpu: 0}}, got {json.dumps(value)}"
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
        whole = key != "cpu"
        ok = isinstance(number, (int, float)) and not isinstance(number, bool) and low <= number <= high
        if not ok or (whole and not isinstance(number, int)) or (not whole and round(number * 10) != number * 10):
            kind = "a whole number" if whole else "a number in steps of 0.1"
            raise ProjectError(f"{FILE_NAME}: resources.{key} is {kind} from {low} to {high}, got {number!r}")
    return dict(value)


def load(folder: Path = Path(".")) -> Project:
    """The project of ``folder`` (its limelight.yaml)."""
    path = folder / FILE_NAME
    if not path.exists():
        raise ProjectError(f"No {FILE_NAME} in {folder.resolve()}: run `limelight init` to make one")
    data = parse(path.read_text(encoding="utf-8"), str(path))
    known = {"name", "entry", "python", "debian_packages", "weights", "gpu", "port", "resources"}
    name = data.get("name") or folder.resolve().name
    entry = data.get("entry", "main:app")
    if not isinstance(entry, str) or not re.fullmatch(r"[\w.]+:[\w.]+", entry):
        raise ProjectError(f"{FILE_NAME}: entry is `module:attribute` (like main:app), got {entry!r}")
    gpu = str(data.get("gpu", "none")).lower()
    if gpu not in GPU_TIERS:
        raise ProjectError(f"{FILE_NAME}: gpu is one of {', '.join(GPU_TIERS)}, got {gpu!r}")
    port = data.get("port", 8080)
    if not isinstance(port, int) or not 1 <= port <= 65535:
        raise ProjectError(f"{FILE_NAME}: port is a number from 1 to 65535, got {port!r}")
    return Project(
        folder=folder.resolve(),
        name=str(name),
        entry=entry,
        python=_strings(data.get("python", ["*.py"]), "python"),
        debian_packages=_strings(data.get("debian_packages", []), "debian_packages"),
        weights=_strings(data.get("weights", []), "weights"),
        gpu=gpu,
        port=port,
        resources=_resources(data.get("resources")),
        extra={key: value for key, value in data.items() if key not in known},
    )
