"""The ``limelight`` command (also ``python -m limelight``): a publisher's path from an empty folder.

    limelight init [FOLDER]                  a working example: main.py (app), limelight.yaml
    limelight serve [module:app] [--simulate] the app on uvicorn; --simulate puts the platform's
                                              queue, progress and cancel in front of it
    limelight build [--tag T]                 an OCI image from limelight.yaml (limelight/cli/build.py)
    limelight push [--deploy] [--no-build]    builds when the sources changed since the last build, then
                                              the image into the platform's registry (limelight/cli/push.py)
    limelight deploy                          creates or updates the service on the pushed digest
                                              (limelight/cli/deploy.py)
    limelight images [rm NAME[:TAG|@DIGEST]]  your images in the platform's registry; rm deletes one
                                              (limelight/cli/images.py)
    limelight secrets set|list|rm [NAME]      the service's secrets; set reads the value from stdin
                                              (limelight/cli/secrets.py)
    limelight login [--with-token]            saves an API key for every command; logout, whoami
                                              (limelight/cli/login.py)
    limelight versions                        the service's deployed versions (limelight/cli/versions.py)
    limelight rollback [DIGEST]               redeploys an earlier version without a push
    limelight run [ENDPOINT] -i NAME=VALUE    the built image run here, an endpoint called as the
                                              platform does (limelight/cli/run.py)

Each command is one ``Command`` in ``COMMANDS`` (its arguments and its function).
See docs/publishing.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, List, Optional

from . import images, login, project, run, scaffold, secrets, versions
from .app import CliError, load_app


@dataclass
class Command:
    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# -- init --------------------------------------------------------------------------------------------
def _init_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", nargs="?", default=".", help="where to write the example (default: here)")
    parser.add_argument("--name", help="the service's name (default: the folder's name)")
    parser.add_argument("--force", action="store_true", help="overwrite main.py and limelight.yaml")


def _init(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    name = args.name or folder.resolve().name
    try:
        written = scaffold.write_example(folder, name, force=args.force)
    except FileExistsError as error:
        raise CliError(str(error)) from error
    for path in written:
        print(f"wrote {path}")
    where = "" if folder.resolve() == Path.cwd() else f"cd {args.folder} && "
    print(f"next: {where}limelight serve --simulate   (then open http://127.0.0.1:8000/docs)")
    return 0


# -- serve -------------------------------------------------------------------------------------------
def _serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("entry", nargs="?", help="module:app (default: limelight.yaml's entry, else main:app)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("PORT", "8000")),
        help="port to listen on (default: $PORT or 8000)",
    )
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="put a local imitation of the platform (job queue, progress, cancel) in front: POST /v1/jobs",
    )


def _serve(args: argparse.Namespace) -> int:
    folder = Path(".")
    entry = args.entry
    if entry is None:
        entry = project.load(folder).entry if (folder / project.FILE_NAME).exists() else "main:app"
    try:
        import uvicorn

        from ..serve.simulate import simulated
        from ..serve.snapshot import WAIT_ENV, SnapshotError, opted_out, snapshot_point
    except ImportError as error:
        raise CliError(
            f"limelight serve needs FastAPI and uvicorn ({error}): apt-get install python3-fastapi "
            "python3-pydantic python3-uvicorn python3-multipart"
        ) from error
    app = load_app(entry, folder)
    host_url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else args.host}:{args.port}"
    # Any: uvicorn's ASGI protocol types and FastAPI's __call__ differ in Debian's versions; both are ASGI apps.
    served: Any = simulated(app, host_url) if args.simulate else app
    print(
        f"limelight: serving {entry} at {host_url} (OpenAPI: /openapi.json, docs: /docs, health: /health)"
        + ('; simulated platform: POST /v1/jobs {"endpoint", "input"}' if args.simulate else ""),
        flush=True,
    )
    wait_path = os.environ.get(WAIT_ENV)
    skipped = opted_out() if wait_path else None
    if skipped:
        print(skipped, flush=True)  # the runner reads it and keeps starting this service cold
    elif wait_path and not args.simulate:
        # The snapshot tier (docs/deploy.md, "Snapshot cold starts"): setup and uvicorn's own imports
        # (Config.load) before the snapshot, the port bound only after the restore.
        config = uvicorn.Config(served, host=args.host, port=args.port, log_level="info")
        config.load()
        try:
            snapshot_point(app, wait_path)
        except SnapshotError as error:
            raise CliError(f"the snapshot's restore failed: {error}") from error
        uvicorn.Server(config).run()
        return 0
    uvicorn.run(served, host=args.host, port=args.port, log_level="info")
    return 0


# -- build -------------------------------------------------------------------------------------------
def _build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tag", help="the image's name (default: localhost/<name>:latest)")
    parser.add_argument(
        "--engine", choices=["podman", "docker"], help="the container engine (default: whichever is there)"
    )


def _build(args: argparse.Namespace) -> int:
    from .build import BuildError, build

    try:
        tag = build(project.load(Path(".")), tag=args.tag, engine=args.engine, log=lambda line: print(line, flush=True))
    except BuildError as error:
        raise CliError(str(error)) from error
    print(f"built {tag}")
    return 0


# -- push, deploy -----------------------------------------------------------------------------------
def _deploy_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--image", help="the image to run (default: the digest `limelight push` recorded)")
    parser.add_argument(
        "--wait",
        type=float,
        default=300,
        metavar="SECONDS",
        help="wait this long for the image to serve; a rollout that fails or does not end by then "
        "exits 1 with why (default 300; 0: do not wait)",
    )


def _push_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tag", default="latest", help="the tag in the registry (default: latest)")
    parser.add_argument("--local", help="the local image (default: localhost/<name>:latest, what build made)")
    parser.add_argument(
        "--engine", choices=["podman", "docker"], help="the container engine (default: whichever is there)"
    )
    parser.add_argument(
        "--no-build",
        action="store_true",
        help="push the image there is, as it is (default: build first when the sources changed since the last build)",
    )
    parser.add_argument("--deploy", action="store_true", help="then deploy it (limelight deploy)")
    parser.add_argument(
        "--wait", type=float, default=300, metavar="SECONDS", help="with --deploy: as limelight deploy --wait"
    )


def _publish(step: Callable[[], Any]) -> Any:
    from .build import BuildError
    from .push import PublishError

    try:
        return step()
    except (PublishError, BuildError) as error:
        raise CliError(str(error)) from error


def _check_wait(wait: float) -> None:
    if not wait >= 0:  # also NaN
        raise CliError(f"--wait: give the seconds to wait for the rollout, 0 or more (0: do not wait), got {wait:g}")


def _run_deploy(folder: Path, image: Optional[str], wait: float) -> int:
    from .deploy import deploy
    from .push import Platform

    _check_wait(wait)
    done = _publish(
        lambda: deploy(
            project.load(folder),
            Platform.from_env(),
            image=image,
            wait_s=wait,
            log=lambda line: print(line, flush=True),
        )
    )
    # "deployed" only once the image serves; without waiting the rollout's outcome is unknown.
    said = "deployed" if done["waited"] else "saved (not waiting for the rollout; follow it on the service's page)"
    print(f"{said} {done['image']}\nservice {done['id']}: {done['page']}")
    return 0


def _deploy(args: argparse.Namespace) -> int:
    return _run_deploy(Path("."), args.image, args.wait)


def _build_if_changed(args: argparse.Namespace) -> None:
    """One command, as `cog push`: the image is rebuilt only when its inputs changed since the last
    build (fingerprint.py); not with --no-build, nor for an image named with --local."""
    if args.no_build or args.local:
        return
    from .build import build

    build(project.load(Path(".")), engine=args.engine, log=lambda line: print(line, flush=True), only_if_changed=True)


def _push(args: argparse.Namespace) -> int:
    from .push import Platform, push

    if args.deploy:
        _check_wait(args.wait)  # before the push, not after it
    pushed = _publish(
        lambda: push(
            project.load(Path(".")),
            Platform.from_env(),
            image=args.local,
            tag=args.tag,
            engine=args.engine,
            log=lambda line: print(line, flush=True),
            # After the platform accepted the push: a refusal is said before minutes of building.
            ready=lambda: _build_if_changed(args),
        )
    )
    print(f"pushed {pushed['pinned']}")
    return _run_deploy(Path("."), pushed["pinned"], args.wait) if args.deploy else 0


COMMANDS: List[Command] = [
    Command("init", "write a working example service (main.py, limelight.yaml)", _init_arguments, _init),
    Command("serve", "run a limelight.serve app locally (uvicorn)", _serve_arguments, _serve),
    Command("build", "build the service's image from limelight.yaml (no Dockerfile)", _build_arguments, _build),
    Command(
        "push",
        "build when the sources changed, then push the image to the platform's registry "
        "(limelight login or LIMELIGHT_API_KEY); --deploy: then run it",
        _push_arguments,
        _push,
    ),
    Command(
        "deploy",
        "create or update the service on the pushed image (limelight login or LIMELIGHT_API_KEY)",
        _deploy_arguments,
        _deploy,
    ),
    Command("images", images.HELP, images.arguments, lambda args: _publish(lambda: images.run(args))),
    Command("secrets", secrets.HELP, secrets.arguments, secrets.run),
    Command("login", login.LOGIN_HELP, login.login_arguments, login.run_login),
    Command("logout", login.LOGOUT_HELP, login.no_arguments, login.run_logout),
    Command("whoami", login.WHOAMI_HELP, login.no_arguments, login.run_whoami),
    Command("versions", versions.VERSIONS_HELP, versions.versions_arguments, versions.run_versions),
    Command("rollback", versions.ROLLBACK_HELP, versions.rollback_arguments, versions.run_rollback),
    Command("run", run.HELP, run.arguments, run.run),
]


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="limelight", description="Write, run and publish Limelight services.")
    commands = root.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for command in COMMANDS:
        sub = commands.add_parser(command.name, help=command.help, description=command.help)
        command.arguments(sub)
        sub.set_defaults(run=command.run)
    return root


def main(argv: Optional[List[str]] = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except project.ProjectError as error:
        # A limelight.yaml (or .limelightignore) to fix: exit 2, as for a bad command line.
        print(f"limelight {args.command}: {error}", file=sys.stderr)
        return 2
    except CliError as error:
        print(f"limelight {args.command}: {error}", file=sys.stderr)
        return 1
