"""``limelight versions`` and ``limelight rollback``: a service's deployed versions, and redeploying one.

    limelight versions [--service ID] [--limit N] [--json]   newest first; * marks the one serving now
    limelight rollback [DIGEST] [--service ID] [--wait S]     redeploys an earlier version, no push

Every deploy of the service records a version: the image (by digest, as ``limelight push`` pins
it), when, who, and its rollout's outcome. ``rollback`` without a digest goes back to the version
that served before the current one; a digest may be shortened to what ``versions`` shows (its
first 4 or more hex digits, when only one version's digest starts so). It rolls out as a deploy
does and waits the same way: exit 1 with the platform's reason when the rollout fails. The service
is the one ``limelight deploy`` made from this folder (``.limelight/service.json``) unless
``--service`` names another. See docs/publishing.md ("Versions and rollback").
"""

from __future__ import annotations

import argparse
import json
import urllib.parse
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from .app import CliError

if TYPE_CHECKING:
    from .push import Platform

# deploy and push (the HTTP client) are imported when a command runs, as images.py does, so
# `limelight serve` and `init` do not load them.

VERSIONS_HELP = "list the service's deployed versions: digest, time, who, outcome; * marks the serving one"
ROLLBACK_HELP = "redeploy an earlier version of the service without a push (default: the one that served before)"
#: What a page of ``versions`` holds at most (the API's own limit).
PAGE = 100


def _service_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--service", metavar="ID", help="the service (default: the one `limelight deploy` made from this folder)"
    )


def versions_arguments(parser: argparse.ArgumentParser) -> None:
    _service_argument(parser)
    parser.add_argument("--limit", type=int, default=20, metavar="N", help="show the newest N (default 20)")
    parser.add_argument("--json", action="store_true", help="print the platform's versions as JSON")


def rollback_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "digest",
        nargs="?",
        metavar="DIGEST",
        help="the version to redeploy: its digest or its first hex digits (default: the version that "
        "served before the current one)",
    )
    _service_argument(parser)
    parser.add_argument(
        "--wait",
        type=float,
        default=300,
        metavar="SECONDS",
        help="wait this long for the version to serve; a rollout that fails or does not end by then "
        "exits 1 with why (default 300; 0: do not wait)",
    )


def service_of(args: argparse.Namespace, platform: Platform, folder: Path = Path(".")) -> str:
    """``--service``, else the service ``limelight deploy`` recorded here for this platform."""
    from .deploy import SERVICE_FILE
    from .push import STATE_FOLDER

    if args.service:
        return str(args.service)
    path = folder / STATE_FOLDER / SERVICE_FILE
    saved: Dict[str, Any] = {}
    if path.exists():
        try:
            saved = json.loads(path.read_text())
        except ValueError:
            saved = {}
    if saved.get("id") and saved.get("base_url") == platform.base_url:
        return str(saved["id"])
    where = f" on {platform.base_url}" if saved.get("id") else ""
    raise CliError(f"no service deployed from this folder{where}: run `limelight deploy` here, or pass --service ID")


def _call(platform: Platform, method: str, path: str, body: Any = None) -> Any:
    """The platform's answer; its refusal (not found, not yours, nothing to roll back to) in its own words."""
    from .push import PublishError

    try:
        return platform.call(method, path, body)
    except PublishError as error:
        if error.status in (403, 404, 409, 422) and error.detail:
            raise CliError(error.detail) from error
        raise CliError(str(error)) from error


def fetch_versions(platform: Platform, service_id: str, limit: int) -> List[Dict[str, Any]]:
    """The newest ``limit`` versions, following the API's pages."""
    found: List[Dict[str, Any]] = []
    cursor: Optional[str] = None
    base = f"/v1/model_management/services/{urllib.parse.quote(service_id, safe='')}/versions"
    while len(found) < limit:
        query = {"limit": str(min(PAGE, limit - len(found)))}
        if cursor:
            query["cursor"] = cursor
        page = _call(platform, "GET", f"{base}?{urllib.parse.urlencode(query)}")
        found += page["versions"]
        cursor = page.get("next_cursor")
        if not cursor:
            break
    return found


def short_digest(version: Dict[str, Any]) -> str:
    """The digest's first 12 hex digits (what ``rollback`` takes), or the image's tag when it has no digest."""
    digest = version.get("digest")
    if digest:
        return str(digest).replace("sha256:", "")[:12]
    return str(version["image"]).rsplit("/", 1)[-1]


def _when(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).strftime("%Y-%m-%d %H:%M:%S UTC")
    except ValueError:
        return iso


def _who(version: Dict[str, Any]) -> str:
    who = version.get("deployed_by") or {}
    return str(who.get("email") or who.get("id") or "-")


def format_versions(versions: List[Dict[str, Any]]) -> List[str]:
    """One row per version, newest first; ``*`` marks the one serving now."""
    if not versions:
        return ["no versions yet: `limelight push --deploy` makes the first"]
    rows = [("", "DIGEST", "DEPLOYED", "BY", "KIND", "OUTCOME")]
    for version in versions:
        rows.append(
            (
                "*" if version.get("current") else "",
                short_digest(version),
                _when(str(version["deployed_at"])),
                _who(version),
                str(version["kind"]),
                str(version["outcome"]),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = [" ".join(cell.ljust(width) for cell, width in zip(row, widths)) + " " + row[-1] for row in rows]
    return [line.rstrip() for line in lines] + ["* serves now"]


def run_versions(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise CliError(f"--limit: give how many versions to show, 1 or more, got {args.limit}")
    from .push import Platform, PublishError

    try:
        platform = Platform.from_env()
    except PublishError as error:
        raise CliError(str(error)) from error
    versions = fetch_versions(platform, service_of(args, platform), args.limit)
    print(json.dumps(versions, indent=2) if args.json else "\n".join(format_versions(versions)))
    return 0


def run_rollback(args: argparse.Namespace) -> int:
    if not args.wait >= 0:  # also NaN
        raise CliError(
            f"--wait: give the seconds to wait for the rollout, 0 or more (0: do not wait), got {args.wait:g}"
        )
    from .deploy import wait_for_rollout
    from .push import Platform, PublishError

    try:
        platform = Platform.from_env()
    except PublishError as error:
        raise CliError(str(error)) from error
    service_id = service_of(args, platform)
    body = {"digest": args.digest} if args.digest else {}
    path = f"/v1/model_management/services/{urllib.parse.quote(service_id, safe='')}/rollback"
    version = _call(platform, "POST", path, body)
    image = str(version["image"])
    print(f"rolling service {service_id} back to {short_digest(version)} ({image})", flush=True)
    if args.wait > 0:
        try:
            wait_for_rollout(platform, service_id, image, args.wait, lambda line: print(line, flush=True))
        except PublishError as error:
            raise CliError(str(error)) from error
        print(f"rolled back: {image} serves")
    else:
        print("saved (not waiting for the rollout; `limelight versions` shows its outcome)")
    return 0
