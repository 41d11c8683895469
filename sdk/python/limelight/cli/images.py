"""``limelight images``: your images in the platform's registry, and deleting them.

    limelight images [--json]               repositories, tags, digests, sizes, push times, the quota used
    limelight images rm NAME[:TAG|@DIGEST]  deletes a tag, an image (its digest) or a whole repository (NAME)

Names are under your namespace (``NAME`` is ``my-service`` of ``<host>/<namespace>/my-service``; the
whole reference is accepted too). A digest may be shortened to what ``limelight images`` shows. An
image one of your services is saved with is refused, naming the service. Deleted bytes are freed
by the registry's garbage collection within about a minute (docs/publishing.md, "Your images").
"""

from __future__ import annotations

import argparse
import json
import re
import urllib.parse
from datetime import datetime
from typing import Any, Dict, List, Optional, Tuple

HELP = "list your images in the platform's registry; `images rm NAME[:TAG|@DIGEST]` deletes one (LIMELIGHT_API_KEY)"

_NAME = re.compile(r"^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$")
_TAG = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$")
_DIGEST = re.compile(r"^sha256:[0-9a-f]{4,64}$")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the platform's answer as JSON")
    actions = parser.add_subparsers(dest="images_action", metavar="ACTION")
    actions.add_parser("ls", help="list them (the default)")
    remove = actions.add_parser(
        "rm",
        help="delete NAME (the whole repository), NAME:TAG or NAME@DIGEST",
        description="Deletes a tag, an image or a repository of yours; its bytes are freed "
        "within about a minute. Refused while one of your services uses it.",
    )
    remove.add_argument("reference", nargs="+", metavar="NAME[:TAG|@DIGEST]")


def parse_reference(text: str, host: str, namespace: str) -> Tuple[str, Optional[str]]:
    """(name, tag or digest or None) of ``NAME``, ``NAME:TAG``, ``NAME@DIGEST`` or the whole reference."""
    from .push import PublishError

    rest = text.strip()
    for prefix in (f"{host}/{namespace}/", f"{namespace}/"):
        if rest.startswith(prefix):
            rest = rest[len(prefix) :]
            break
    reference: Optional[str] = None
    if "@" in rest:
        rest, reference = rest.split("@", 1)
        if not _DIGEST.match(reference):
            raise PublishError(f"{text!r}: a digest is sha256: and hex digits, as `limelight images` shows it")
    elif ":" in rest.rsplit("/", 1)[-1]:
        rest, reference = rest.rsplit(":", 1)
        if not _TAG.match(reference):
            raise PublishError(f"{text!r}: a tag is letters, digits, . _ - (up to 128)")
    if not _NAME.match(rest):
        raise PublishError(
            f"{text!r} is not one of your images: give NAME, NAME:TAG or NAME@DIGEST, with NAME "
            f"as `limelight images` lists it (under {host}/{namespace}/)"
        )
    return rest, reference


def list_images(platform: Any) -> Dict[str, Any]:
    """The platform's GET /v1/registry/images answer."""
    from .push import PublishError

    try:
        return platform.call("GET", "/v1/registry/images")
    except PublishError as error:
        if error.status == 404:
            raise PublishError(
                f"{platform.base_url} runs no registry (container hosting is off: the platform needs "
                "CONTAINER_RUNNER and PLATFORM_REGISTRY on)"
            ) from error
        raise


def _full_digest(listing: Dict[str, Any], name: str, short: str) -> str:
    """The digest of ``name`` that ``short`` begins, when exactly one does."""
    from .push import PublishError

    images = next((r["images"] for r in listing["repositories"] if r["name"] == name), [])
    found = [i["digest"] for i in images if i["digest"].startswith(short)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise PublishError(f"{name} has no image {short}")
    raise PublishError(f"{short} names {len(found)} images of {name}: give more of the digest")


def delete_image(platform: Any, text: str, listing: Optional[Dict[str, Any]] = None) -> str:
    """Deletes what ``text`` names; answers what was done, in a line."""
    from .push import PublishError

    listing = listing or list_images(platform)
    name, reference = parse_reference(text, listing["host"], listing["namespace"])
    if reference and reference.startswith("sha256:") and len(reference) < 71:
        reference = _full_digest(listing, name, reference)
    path = "/v1/registry/images/" + urllib.parse.quote(name, safe="")
    if reference:
        path += "/" + urllib.parse.quote(reference, safe="")
    try:
        done = platform.call("DELETE", path)
    except PublishError as error:
        if error.status in (404, 409, 422, 503):
            raise PublishError(f"cannot delete {text}: {error.detail}", error.status, error.detail) from error
        raise
    digests = done.get("deleted_digests") or []
    if done.get("repository_deleted"):
        return f"deleted {name} ({len(digests)} image{'s' if len(digests) != 1 else ''}); its bytes are freed within a minute"
    if not digests:
        return f"untagged {name}:{reference} (its image keeps its other tags)"
    tags = ", ".join(done.get("untagged") or []) or "no tag"
    return f"deleted {name}@{digests[0]} ({tags}); its bytes are freed within a minute"


def _mb(size: float) -> str:
    return f"{size / 1024 / 1024:.1f} MB"


def _when(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return iso


def format_listing(listing: Dict[str, Any]) -> List[str]:
    """The listing as lines: the quota, then one row per image."""
    lines = [
        f"{listing['host']}/{listing['namespace']}: {_mb(listing['used_bytes'])} of {_mb(listing['quota_bytes'])} "
        f"used ({listing['plan']} plan)"
    ]
    if listing.get("garbage_collection", {}).get("pending"):
        lines.append("deleted images' bytes are being freed (within about a minute)")
    rows = [("NAME", "TAGS", "DIGEST", "SIZE", "PUSHED", "USED BY")]
    for repository in listing["repositories"]:
        for image in repository["images"]:
            rows.append(
                (
                    repository["name"],
                    ",".join(image["tags"]) or "<none>",
                    image["digest"][:19],
                    _mb(image["size_bytes"]),
                    _when(image["pushed_at"]),
                    ", ".join(s["name"] for s in image["used_by"]) or "-",
                )
            )
    if len(rows) == 1:
        return lines + ["no images yet: `limelight push` puts one here"]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines += ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1] for row in rows]
    return lines


def run(args: argparse.Namespace) -> int:
    from .push import Platform

    platform = Platform.from_env()
    listing = list_images(platform)
    if args.images_action == "rm":
        for text in args.reference:
            print(delete_image(platform, text, listing), flush=True)
        return 0
    print(json.dumps(listing, indent=2) if args.json else "\n".join(format_listing(listing)))
    return 0
