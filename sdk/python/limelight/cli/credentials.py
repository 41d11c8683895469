"""Where the CLI's commands find the platform and their API key (docs/publishing.md, "Signing in").

``limelight login`` keeps the key, the platform's URL and the account's email in
``$XDG_CONFIG_HOME/limelight/credentials.json`` (``~/.config/limelight/…`` without it): the file
mode 0600 in a folder of mode 0700, written whole or not at all. Every command reads it through
``resolve``, the one place that decides which key signs in:

1. ``LIMELIGHT_API_KEY`` always wins (CI, a second account for one command);
2. else the saved key, but only for the platform it was saved for: with ``LIMELIGHT_BASE_URL``
   naming another platform, the saved key is not sent there.

``limelight logout`` deletes the file.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional, Tuple

from ..client import env_setting

KEY_VARIABLE = "LIMELIGHT_API_KEY"
URL_VARIABLE = "LIMELIGHT_BASE_URL"
FILE_NAME = "credentials.json"


class CredentialsError(Exception):
    """The saved credentials cannot be read or written: one line saying why and what to do."""


@dataclass
class Credentials:
    api_key: str
    base_url: str
    email: str


def config_folder() -> Path:
    """``$XDG_CONFIG_HOME/limelight``, else ``~/.config/limelight`` (the XDG base directory rule)."""
    base = os.environ.get("XDG_CONFIG_HOME") or ""
    # A relative XDG_CONFIG_HOME is invalid by the specification and ignored.
    root = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return root / "limelight"


def credentials_file() -> Path:
    return config_folder() / FILE_NAME


def load() -> Optional[Credentials]:
    """The saved credentials, or None when there are none."""
    path = credentials_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise CredentialsError(f"cannot read {path} ({error}): run `limelight login` again") from error
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("api_key"), str)
        or not isinstance(data.get("base_url"), str)
    ):
        raise CredentialsError(f"{path} is not what `limelight login` writes: run `limelight login` again")
    return Credentials(data["api_key"], data["base_url"], str(data.get("email") or ""))


def save(credentials: Credentials) -> Path:
    """Writes the file with mode 0600 (created so, never widened afterwards) in a 0700 folder."""
    folder = config_folder()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        # An existing folder keeps its mode; ours is the user's alone.
        if stat.S_IMODE(folder.stat().st_mode) != 0o700:
            folder.chmod(0o700)
        path = folder / FILE_NAME
        temporary = folder / f".{FILE_NAME}.{os.getpid()}"
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(descriptor, 0o600)  # whatever the umask or a leftover file had
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                json.dump(asdict(credentials), out, indent=2)
                out.write("\n")
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        os.replace(temporary, path)
    except OSError as error:
        raise CredentialsError(f"cannot save the key in {folder} ({error.strerror or error})") from error
    return path


def remove() -> Optional[Path]:
    """Deletes the saved credentials; the path it deleted, or None when there was nothing."""
    path = credentials_file()
    try:
        path.unlink()
    except FileNotFoundError:
        return None
    return path


def resolve(default_base_url: str) -> Tuple[str, Optional[str], str]:
    """(base URL, API key or None, where the key came from) for a command that calls the platform.

    The base URL is ``LIMELIGHT_BASE_URL``, else the saved one, else ``default_base_url``. The key
    is ``LIMELIGHT_API_KEY``, else the saved key when it was saved for that same base URL. Without
    a key, the third element says why, in words for the user."""
    env_key = (env_setting(KEY_VARIABLE) or "").strip()
    env_url = (env_setting(URL_VARIABLE) or "").strip()
    saved = load()
    base_url = (env_url or (saved.base_url if saved else "") or default_base_url).rstrip("/")
    if env_key:
        return base_url, env_key, KEY_VARIABLE
    if saved and saved.base_url.rstrip("/") == base_url:
        return base_url, saved.api_key, str(credentials_file())
    if saved:
        return (
            base_url,
            None,
            f"the key saved by `limelight login` is for {saved.base_url}, not {URL_VARIABLE}={base_url}: "
            f"run `limelight login --base-url {base_url}`, or set {KEY_VARIABLE}",
        )
    return (
        base_url,
        None,
        f"not signed in: set {KEY_VARIABLE} to an API key (lime_…; the website's Account → API keys), "
        f"or run `limelight login` to save one; the platform is {base_url} ({URL_VARIABLE}, default {default_base_url})",
    )
