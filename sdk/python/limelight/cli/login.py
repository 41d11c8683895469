"""``limelight login``, ``logout`` and ``whoami``: sign the CLI in once (docs/publishing.md, "Signing in").

    limelight login [--base-url URL]        asks for the API key (hidden), checks it, saves it
    limelight login --with-token < key.txt  the key from standard input (scripts, CI), like gh
    limelight logout                        deletes the saved key
    limelight whoami                        the account and the platform the commands use

The key is checked against the platform (``GET /v1/whoami``) before it is saved, so a typo or a
deleted key is refused at once rather than at the next push. It is kept, with the platform's URL,
by credentials.py (mode 0600); ``LIMELIGHT_API_KEY`` still wins over it. The key is never an
argument: a command line is seen by every user of the machine and kept in shell history.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import TYPE_CHECKING, Optional, TextIO

from ..client import env_setting
from . import credentials
from .app import CliError

if TYPE_CHECKING:
    from .push import Platform

LOGIN_HELP = "sign in with an API key (asked for, hidden; or --with-token from standard input) and save it"
LOGOUT_HELP = "delete the API key `limelight login` saved"
WHOAMI_HELP = "print the account and the platform the commands sign in to"


def login_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--with-token", action="store_true", help="read the API key from standard input instead of asking for it"
    )
    parser.add_argument(
        "--base-url", metavar="URL", help="the platform (default: $LIMELIGHT_BASE_URL, else http://localhost:3000)"
    )


def no_arguments(parser: argparse.ArgumentParser) -> None:
    del parser


def read_key(with_token: bool, stdin: Optional[TextIO] = None) -> str:
    """The key from standard input (--with-token) or from a hidden prompt on the terminal."""
    source = stdin or sys.stdin
    if with_token:
        key = source.read().strip()
    elif not source.isatty():
        raise CliError("standard input is not a terminal to ask on: pipe the key in with --with-token")
    else:
        key = getpass.getpass("API key (lime_…; the website's Account → API keys): ").strip()
    if not key:
        raise CliError("no API key given" + (" on standard input" if with_token else ""))
    if any(c.isspace() for c in key):
        raise CliError("the API key has a space or a line break inside: give the key alone (lime_…)")
    return key


def _platform(base_url: str, key: str) -> Platform:
    from .push import Platform

    return Platform(base_url, key)


def whoami_of(platform: Platform, refused: str) -> dict:
    """The platform's answer to ``GET /v1/whoami``; a refusal in words (``refused`` says what to do)."""
    from .push import PublishError

    try:
        return platform.call("GET", "/v1/whoami")
    except PublishError as error:
        if error.status == 401:
            raise CliError(f"{platform.base_url} refuses the key (mistyped, expired or deleted?): {refused}") from error
        if error.status == 404:
            raise CliError(
                f"{platform.base_url} has no GET /v1/whoami: is it a Limelight platform, and up to date?"
            ) from error
        raise CliError(str(error)) from error


def run_login(args: argparse.Namespace) -> int:
    from .push import DEFAULT_BASE_URL

    base_url = str(args.base_url or env_setting(credentials.URL_VARIABLE) or DEFAULT_BASE_URL).strip().rstrip("/")
    if not base_url.startswith(("http://", "https://")):
        raise CliError(f"--base-url: give the platform's URL, http:// or https://…, got {base_url!r}")
    key = read_key(args.with_token)
    me = whoami_of(_platform(base_url, key), "create another key and run `limelight login` again")
    try:
        path = credentials.save(credentials.Credentials(api_key=key, base_url=base_url, email=str(me.get("email", ""))))
    except credentials.CredentialsError as error:
        raise CliError(str(error)) from error
    print(f"signed in to {base_url} as {me.get('email')}; the key is saved in {path} (readable by you alone)")
    env_key = (env_setting(credentials.KEY_VARIABLE) or "").strip()
    if env_key and env_key != key:
        print(f"note: {credentials.KEY_VARIABLE} is set and wins over the saved key while it is", file=sys.stderr)
    return 0


def run_logout(args: argparse.Namespace) -> int:
    del args
    removed = credentials.remove()
    print(f"signed out: deleted {removed}" if removed else f"not signed in: no {credentials.credentials_file()}")
    if env_setting(credentials.KEY_VARIABLE):
        print(f"note: {credentials.KEY_VARIABLE} is still set, and still signs the commands in", file=sys.stderr)
    return 0


def run_whoami(args: argparse.Namespace) -> int:
    from .push import DEFAULT_BASE_URL

    del args
    try:
        base_url, key, source = credentials.resolve(DEFAULT_BASE_URL)
    except credentials.CredentialsError as error:
        raise CliError(str(error)) from error
    if key is None:
        raise CliError(source)
    redo = "unset it or set another" if source == credentials.KEY_VARIABLE else "run `limelight login` again"
    me = whoami_of(_platform(base_url, key), f"the key from {source}: {redo}")
    print(me.get("email"))
    print(f"platform: {base_url}")
    print(f"key: from {source}")
    return 0
