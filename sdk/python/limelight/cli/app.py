"""The publisher's app as the commands see it: imported from its folder by ``module:attribute``.

``serve`` runs it. ``deploy`` no longer imports it on this machine: it reads the app's OpenAPI
document inside the built image (image_schema.py).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any


class CliError(Exception):
    """A command that cannot go on: printed as one line, exit status 1."""


def load_app(entry: str, folder: Path) -> Any:
    """The object ``module:attribute`` names, imported with ``folder`` on the path."""
    module_name, _, attribute = entry.partition(":")
    if not module_name or not attribute:
        raise CliError(f"the entry is module:attribute (like main:app), got {entry!r}")
    sys.path.insert(0, str(folder.resolve()))
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise CliError(f"cannot import {module_name} from {folder.resolve()}: {error}") from error
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise CliError(f"{module_name} has no attribute {attribute!r}")
        target = getattr(target, part)
    return target
