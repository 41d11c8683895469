"""``python3 -m limelight.serve.schema [module:app]``: prints the app's OpenAPI document as JSON.

``limelight deploy`` runs this inside the built image (no network, a time limit), as Cog reads a
model's schema, so the publisher's code runs with the image's Python and packages rather than
being imported on the publisher's machine (docs/publishing.md, "limelight push and deploy"). The
entry (default ``main:app``) is imported from the working folder (``/app`` in an image). Whatever the app prints while it is imported goes to stderr, so
stdout holds the document alone. Exit 1 with one last line on stderr saying why, when the app
cannot be imported or has no ``openapi()``.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import traceback
from typing import Any, List, Optional


def document(entry: str) -> Any:
    module_name, _, attribute = entry.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"the entry is module:attribute (like main:app), got {entry!r}")
    target: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise ValueError(f"{module_name} has no attribute {attribute!r}")
        target = getattr(target, part)
    if not callable(getattr(target, "openapi", None)):
        raise ValueError(f"{entry} is a {type(target).__name__}, not an App (it has no openapi())")
    return target.openapi()


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    entry = args[0] if args else "main:app"
    sys.path.insert(0, os.getcwd())
    # The app's own prints (at import, at file descriptor level too) go to stderr: stdout is the document's.
    sys.stdout.flush()
    out = os.dup(1)
    os.dup2(2, 1)
    try:
        text = json.dumps(document(entry), separators=(",", ":"))
    except BaseException as error:  # the app's import may raise anything, SystemExit included
        traceback.print_exc()
        print(f"limelight.serve.schema: {entry}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        sys.stdout.flush()
        os.dup2(out, 1)
        os.close(out)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
