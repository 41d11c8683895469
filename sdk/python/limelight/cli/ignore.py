"""``.limelightignore``: what ``limelight build`` leaves out of the image, in ``.dockerignore`` syntax.

One pattern a line, matched against paths relative to the service's folder with ``/`` between
names: ``*`` and ``?`` within a name, ``[a-z]`` classes, ``**`` for any number of folders
(``**/*.pem``), a leading ``/`` ignored, ``#`` comment lines, ``!`` bringing back what an earlier
pattern left out, the last matching pattern deciding. A pattern that matches a folder leaves out
everything under it. Before the file's patterns come ``DEFAULTS``, which apply without a file:
secrets (``.env``, keys), version control and caches never belong in an image (docs/publishing.md,
"What goes into the image"). Since the file's patterns come after them, ``!.env.example`` in it
brings a default-excluded file back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Pattern, Tuple

from .project import ProjectError

FILE_NAME = ".limelightignore"
#: Left out of every image unless the ignore file brings them back with ``!``: environment files,
#: version control, private keys, caches and virtual environments, and the CLI's own state.
DEFAULTS = (
    "**/.env",
    "**/.env.*",
    "**/.git",
    "**/.hg",
    "**/.svn",
    "**/*.pem",
    "**/*.key",
    "**/id_rsa*",
    "**/id_ecdsa*",
    "**/id_ed25519*",
    "**/id_dsa*",
    "**/.ssh",
    "**/__pycache__",
    "**/.venv",
    "**/venv",
    "**/node_modules",
)
#: The CLI's own files (its state, an unfinished build's context): left out too, but not reported.
OWN = (".limelight", ".limelight-build-*")


@dataclass(frozen=True)
class Rule:
    pattern: str
    regex: Pattern[str]
    negated: bool
    default: bool  # one of DEFAULTS: reported when it leaves a file out


def _regex(pattern: str, where: str) -> Pattern[str]:
    """``pattern`` as a regular expression over a whole relative path."""
    out, index = "", 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**", index):
            index += 2
            if pattern.startswith("/", index):
                index += 1
                out += "(?:.*/)?"  # **/ : any number of folders, none included
            else:
                out += ".*"
            continue
        if char == "*":
            out += "[^/]*"
        elif char == "?":
            out += "[^/]"
        elif char == "\\":
            if index + 1 == len(pattern):
                raise ProjectError(f"{where}: the pattern {pattern!r} ends with a lone \\")
            index += 1
            out += re.escape(pattern[index])
        elif char == "[":
            end = pattern.find("]", index + 2 if pattern[index + 1 : index + 2] in ("!", "^", "]") else index + 1)
            if end < 0:
                raise ProjectError(f"{where}: the pattern {pattern!r} opens a [ class that is not closed")
            body = pattern[index + 1 : end]
            if body[:1] in ("!", "^"):
                body = "^" + body[1:]
            out += "[" + body.replace("\\", "\\\\").replace("/", "") + "]"
            index = end
        else:
            out += re.escape(char)
        index += 1
    return re.compile(out)


def _clean(pattern: str) -> str:
    """As Docker cleans a pattern: no leading ``/`` or ``./``, no ``.`` parts, no trailing ``/``."""
    parts = [part for part in pattern.strip().split("/") if part not in ("", ".")]
    return "/".join(parts)


def rules(lines: List[str], source: str, default: bool = False) -> List[Rule]:
    out = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        pattern = _clean(line[1:] if negated else line)
        if not pattern:
            continue  # "/" or "!" alone names nothing
        out.append(Rule(pattern, _regex(pattern, f"{source}, line {number}"), negated, default))
    return out


class Ignore:
    """The defaults, then the folder's ``.limelightignore``."""

    def __init__(self, file_lines: Optional[List[str]] = None, source: str = FILE_NAME):
        self.rules = (
            rules(list(OWN), "the CLI's own files")
            + rules(list(DEFAULTS), "the default excludes", default=True)
            + rules(file_lines or [], source)
        )

    @classmethod
    def of(cls, folder: Path) -> Ignore:
        path = folder / FILE_NAME
        if not path.is_file():
            return cls()
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ProjectError(f"cannot read {path}: {error}") from error
        return cls(text.splitlines(), str(path))

    def decide(self, relative: str) -> Tuple[bool, Optional[Rule], str]:
        """(left out?, the rule that decided, the part of the path it matched) for a path relative to
        the folder, ``/`` between names. A rule matches the path or any folder above it, so ``.git``
        leaves out ``.git/config``; the last matching rule decides, so a later ``!`` brings a path
        back."""
        parts = relative.split("/")
        prefixes = ["/".join(parts[: count + 1]) for count in range(len(parts))]
        decided: Optional[Rule] = None
        matched = relative
        for rule in self.rules:
            hit = next((prefix for prefix in prefixes if rule.regex.fullmatch(prefix)), None)
            if hit is not None:
                decided, matched = rule, hit
        return (decided is not None and not decided.negated), decided, matched

    def excludes(self, relative: str) -> bool:
        return self.decide(relative)[0]
