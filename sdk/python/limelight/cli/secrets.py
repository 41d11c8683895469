"""``limelight secrets``: a service's secrets, the environment variables its containers start with.

    limelight secrets set NAME [--service ID]   the value from standard input (hidden prompt on a terminal)
    limelight secrets list [--service ID]       names and when each was last set; never a value
    limelight secrets rm NAME [--service ID]    removes one

The value is never an argument (a command line is seen by every user of the machine and kept in
shell history): it is read from standard input, or asked for without echo on a terminal. The
platform keeps it sealed and never answers it; a change takes effect on the service's next deploy
(``limelight deploy`` or ``push --deploy``, no rebuild). The service is the one ``limelight
deploy`` made from this folder (``.limelight/service.json``) unless ``--service`` names another.
Before the first deploy, ``secrets set`` in a folder with a limelight.yaml creates the service
from it (its name, visibility and description, no image, nothing running), so the first deploy
already starts with the secret: code that reads it at setup works from the first push.
See docs/publishing.md ("Secrets").
"""

from __future__ import annotations

import argparse
import getpass
import json
import re
import sys
import urllib.parse
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, TextIO

from .._rules import (
    MAX_SECRET_NAME_LENGTH,
    MAX_SECRET_VALUE_BYTES,
    RESERVED_SECRET_NAMES,
    RESERVED_SECRET_PREFIX,
    SECRET_NAME_PATTERN,
)
from .app import CliError

if TYPE_CHECKING:
    from .push import Platform, PublishError

HELP = (
    "set, list or remove the service's secrets (environment variables; `secrets set NAME` reads the value from stdin)"
)
#: The platform's rules for a name (@limelight/rules, generated into limelight/_rules.py), checked here first.
NAME = re.compile(SECRET_NAME_PATTERN)
NEXT_DEPLOY = "takes effect on the next deploy (limelight deploy, or push --deploy; no rebuild)"


def arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="secrets_action", metavar="ACTION")
    actions.required = True
    service = argparse.ArgumentParser(add_help=False)
    service.add_argument(
        "--service", metavar="ID", help="the service (default: the one `limelight deploy` made from this folder)"
    )
    set_parser = actions.add_parser(
        "set", parents=[service], help="set a secret: the value from standard input, or asked for (hidden)"
    )
    set_parser.add_argument("name", metavar="NAME", help="the environment variable, e.g. OPENAI_API_KEY")
    actions.add_parser("list", parents=[service], help="the secrets' names and when each was set")
    rm_parser = actions.add_parser("rm", parents=[service], help="remove a secret")
    rm_parser.add_argument("name", metavar="NAME")


def name_problem(name: str) -> Optional[str]:
    """Why ``name`` cannot be a secret's name (the platform's words), or None."""
    if not name:
        return "give the variable's name, e.g. OPENAI_API_KEY"
    if len(name) > MAX_SECRET_NAME_LENGTH:
        return f"{name[:20]}…: at most {MAX_SECRET_NAME_LENGTH} characters"
    if not NAME.match(name):
        return f"{name}: capital letters, digits and _, not starting with a digit (like OPENAI_API_KEY)"
    if name in RESERVED_SECRET_NAMES or name.startswith(RESERVED_SECRET_PREFIX):
        return f"{name} is set by the platform (PORT, PATH, HOME, HOSTNAME and LIMELIGHT_* are reserved)"
    return None


def read_value(name: str, stdin: Optional[TextIO] = None) -> str:
    """The value: all of standard input less one final line break, or a hidden prompt on a terminal."""
    source = stdin or sys.stdin
    if source.isatty():
        value = getpass.getpass(f"value of {name} (hidden): ")
    else:
        value = source.read()
        # `echo x | limelight secrets set X` and a file ending in a newline mean "x"; a PEM key keeps its inner lines.
        value = value[:-2] if value.endswith("\r\n") else value[:-1] if value.endswith("\n") else value
    if value == "":
        raise CliError(f"empty value for {name}: pipe the value in (limelight secrets set {name} < file) or type it")
    if len(value.encode("utf-8")) > MAX_SECRET_VALUE_BYTES:
        raise CliError(f"the value of {name} is longer than {MAX_SECRET_VALUE_BYTES} bytes")
    if "\0" in value:
        raise CliError(f"the value of {name} contains a NUL character, which an environment variable cannot hold")
    return value


def saved_service(platform: Platform, folder: Path = Path(".")) -> Optional[str]:
    """The service ``limelight deploy`` (or ``secrets set``) recorded in this folder for this platform."""
    from .deploy import SERVICE_FILE
    from .push import STATE_FOLDER

    path = folder / STATE_FOLDER / SERVICE_FILE
    saved: Dict[str, Any] = {}
    if path.exists():
        try:
            saved = json.loads(path.read_text())
        except ValueError:
            saved = {}
    return str(saved["id"]) if saved.get("id") and saved.get("base_url") == platform.base_url else None


def service_of(service: Optional[str], platform: Platform, folder: Path = Path(".")) -> str:
    """``--service``, else the service ``limelight deploy`` recorded in this folder for this platform."""
    from .deploy import SERVICE_FILE
    from .push import STATE_FOLDER

    if service:
        return service
    saved = saved_service(platform, folder)
    if saved:
        return saved
    raise CliError(
        "no service deployed from this folder"
        + (f" on {platform.base_url}" if (folder / STATE_FOLDER / SERVICE_FILE).exists() else "")
        + ": run `limelight push --deploy` here first (or `limelight secrets set NAME` in the service's folder, "
        "which creates it from limelight.yaml), or pass --service ID"
    )


def create_service(platform: Platform, folder: Path = Path(".")) -> str:
    """Creates the service of this folder's limelight.yaml without deploying it (no image, nothing
    runs, no endpoints yet) and records it as ``limelight deploy`` does, which then gives it its
    image: a secret set now is in the environment of the very first deploy."""
    from . import project
    from .deploy import record_body, remember_service

    if not (folder / project.FILE_NAME).exists():
        raise CliError(
            f"no service deployed from this folder and no {project.FILE_NAME} here to create one from: "
            "run this in the service's folder (`limelight init` makes one), or pass --service ID"
        )
    loaded = project.load(folder)  # a broken limelight.yaml: one line, exit 2 (main.py)
    created = _call(platform, "POST", "/v1/model_management/services", record_body(loaded))
    remember_service(loaded, platform, str(created["id"]))
    print(
        f"created service {created['id']} from {project.FILE_NAME}, not deployed yet: "
        "`limelight push --deploy` gives it its image, with its secrets from the first start"
    )
    return str(created["id"])


def _in_words(platform: Platform, error: PublishError) -> CliError:
    if error.status == 401:
        return CliError(
            f"{platform.base_url} refuses the API key (expired or deleted?): `limelight login` again, "
            "or set LIMELIGHT_API_KEY to another"
        )
    if error.status in (402, 403, 404, 409, 422) and error.detail:
        return CliError(error.detail)
    return CliError(str(error))


def _call(platform: Platform, method: str, path: str, body: Any = None) -> Any:
    from .push import PublishError

    try:
        return platform.call(method, path, body)
    except PublishError as error:
        raise _in_words(platform, error) from error


def _when(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).strftime("%Y-%m-%d %H:%M:%S UTC")
    except ValueError:
        return iso


def format_secrets(service_id: str, secrets: List[Dict[str, Any]]) -> List[str]:
    if not secrets:
        return [f"no secrets on service {service_id}: `limelight secrets set NAME` adds one"]
    width = max(len("NAME"), *(len(str(s["name"])) for s in secrets))
    return [f"{'NAME'.ljust(width)}  UPDATED"] + [
        f"{str(s['name']).ljust(width)}  {_when(str(s['updated_at']))}" for s in secrets
    ]


def _path(service_id: str, name: str = "") -> str:
    return f"/v1/model_management/services/{urllib.parse.quote(service_id, safe='')}/secrets" + (
        f"/{name}" if name else ""
    )


def run(args: argparse.Namespace, stdin: Optional[TextIO] = None) -> int:
    from .push import Platform, PublishError

    name: str = getattr(args, "name", None) or ""
    if args.secrets_action != "list":
        problem = name_problem(name)
        if problem:
            raise CliError(f"NAME: {problem}")
    # The value before any call: a prompt after a network wait would be surprising.
    value = read_value(name, stdin) if args.secrets_action == "set" else None
    try:
        platform = Platform.from_env()
    except PublishError as error:
        raise CliError(str(error)) from error
    # `set` before the first deploy creates the folder's service (create_service); list and rm need one.
    saved = None if args.service or args.secrets_action != "set" else saved_service(platform)
    if args.secrets_action == "set" and not args.service and not saved:
        service_id = create_service(platform)
    else:
        service_id = service_of(args.service, platform)

    if args.secrets_action == "list":
        print("\n".join(format_secrets(service_id, _call(platform, "GET", _path(service_id))["secrets"])))
    elif args.secrets_action == "set":
        try:
            platform.call("PUT", _path(service_id, name), {"value": value})
        except PublishError as error:
            # The folder's recorded service was deleted since (or is another account's): a new one, as deploy does.
            if not saved or error.status not in (403, 404):
                raise _in_words(platform, error) from error
            service_id = create_service(platform)
            _call(platform, "PUT", _path(service_id, name), {"value": value})
        print(f"set {name} on service {service_id}; it {NEXT_DEPLOY}")
    else:
        _call(platform, "DELETE", _path(service_id, name))
        print(f"removed {name} from service {service_id}; it {NEXT_DEPLOY}")
    return 0
