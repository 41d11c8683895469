"""limelight build with real Podman and mmdebstrap: an image from limelight.yaml without a
Dockerfile, the weights in a layer of their own that a code change keeps, and a container of it
that serves the example. Skips, saying why, without root, Podman, mmdebstrap or the Debian archive."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import unittest
import urllib.request
import uuid
from pathlib import Path

from .serving import call, until
from .test_cli import free_port, limelight, temp_folder

SDK = Path(__file__).resolve().parents[1]
REPO = SDK.parents[1]
sys.path.insert(0, str(SDK))

from limelight.cli import build  # noqa: E402


def skip_reason() -> str:
    if os.geteuid() != 0:
        return "limelight build tests need root (rootful Podman, mmdebstrap)"
    for tool in ("podman", "mmdebstrap"):
        if not build.shutil.which(tool):
            return f"limelight build tests need {tool}: apt-get install {tool}"
    suite, mirror = build.debian_source()
    try:
        urllib.request.urlopen(f"{mirror}/dists/{suite}/Release", timeout=10).close()
    except OSError as error:
        return f"limelight build tests need the Debian archive ({mirror} unreachable: {error})"
    return ""


SKIP = skip_reason()
if SKIP:
    print(f"limelight build tests skipped: {SKIP}", file=sys.stderr)
# The project's Podman settings (docs/publishing.md, "Running containers"): runc, no ulimits.
PODMAN_ENV = {**os.environ, "CONTAINERS_CONF": str(REPO / "deploy/podman/containers.conf")}


def podman(*args: str) -> str:
    return subprocess.run(["podman", *args], check=True, capture_output=True, text=True, env=PODMAN_ENV).stdout


@unittest.skipIf(bool(SKIP), SKIP)
class BuildTest(unittest.TestCase):
    def test_an_image_without_a_dockerfile_whose_weights_layer_survives_a_code_change_and_which_serves(self):
        folder = temp_folder(self)
        limelight("init", cwd=folder, check=True)
        (folder / "weights").mkdir()
        (folder / "weights" / "model.bin").write_bytes(os.urandom(1024 * 1024))
        yaml = (folder / "limelight.yaml").read_text().replace("weights: []", "weights: [weights]")
        (folder / "limelight.yaml").write_text(yaml)
        name = f"localhost/limelight-build-test-{uuid.uuid4().hex[:8]}"
        self.addCleanup(lambda: subprocess.run(["podman", "rmi", "-f", f"{name}:1", f"{name}:2"], capture_output=True))

        first = limelight("build", "--tag", f"{name}:1", cwd=folder, timeout=1800)
        self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
        self.assertFalse(any(p.name.startswith(".limelight-build-") for p in folder.iterdir()))
        with open(folder / "main.py", "a") as main:
            main.write("\n# a code change\n")
        second = limelight("build", "--tag", f"{name}:2", cwd=folder, timeout=1800)
        self.assertEqual(second.returncode, 0, second.stdout + second.stderr)
        self.assertIn("(cached)", second.stdout)

        layers = [
            json.loads(podman("image", "inspect", "--format", "{{json .RootFS.Layers}}", f"{name}:{n}")) for n in (1, 2)
        ]
        # base, weights, the limelight package: the same layers; the code: a new one on top.
        self.assertEqual(layers[0][:3], layers[1][:3])
        self.assertNotEqual(layers[0][3:], layers[1][3:])
        labels = json.loads(podman("image", "inspect", "--format", "{{json .Labels}}", f"{name}:2"))
        self.assertEqual(labels["dev.limelight.entry"], "main:app")

        port = free_port()
        container = podman("run", "-d", "-p", f"127.0.0.1:{port}:8080", f"{name}:2").strip()
        self.addCleanup(lambda: subprocess.run(["podman", "rm", "-f", container], capture_output=True, env=PODMAN_ENV))
        url = f"http://127.0.0.1:{port}"

        def ready():
            try:
                return call("GET", f"{url}/health", timeout=2).status == 200
            except OSError:
                return False

        until(ready, 60, "the container to be READY")
        answer = call("POST", f"{url}/count", json_body={"text": "one two three"})
        self.assertEqual(answer.json()["count"], 3)
        listed = podman("exec", container, "ls", "-l", "/app/weights/model.bin")
        self.assertIn(str(1024 * 1024), listed)

    def test_push_builds_only_when_the_context_changed(self):
        # What `limelight push` decides with (docs/publishing.md, "One command"), on real images.
        from limelight.cli import project

        folder = temp_folder(self)
        limelight("init", cwd=folder, check=True)
        tag = f"localhost/limelight-fingerprint-test-{uuid.uuid4().hex[:8]}:latest"
        self.addCleanup(lambda: subprocess.run(["podman", "rmi", "-f", tag], capture_output=True))

        def push_build() -> list:
            said: list = []
            build.build(project.load(folder), tag, "podman", said.append, only_if_changed=True)
            return said

        self.assertIn(f"no image {tag}: building…", push_build())
        first = podman("image", "inspect", "--format", "{{.Id}}", tag).strip()
        self.assertIn(f"image up to date: {tag}", push_build())
        self.assertEqual(podman("image", "inspect", "--format", "{{.Id}}", tag).strip(), first)
        with open(folder / "main.py", "a") as main:
            main.write("\n# a code change\n")
        self.assertIn("sources changed since the last build: building…", push_build())
        self.assertNotEqual(podman("image", "inspect", "--format", "{{.Id}}", tag).strip(), first)
        self.assertIn(f"image up to date: {tag}", push_build())


@contextlib.contextmanager
def environment(values: dict):
    """``values`` in os.environ for the duration (the CLI's child processes inherit them)."""
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)


# A service whose code must not run on the publisher's machine: it needs what only the image has
# (/opt/limelight stands for a package the host lacks) and marks the folder when imported here.
SCHEMA_MAIN = """import os
from pathlib import Path

if not os.path.isdir("/opt/limelight"):
    Path(__file__).with_name("imported-on-this-machine").write_text("yes")
    raise ImportError("this service needs packages only its image has")

from limelight.serve import App

app = App(title="Reader")
print("loading at import: a line that must not spoil the document")


@app.endpoint("/read", time_limit_s=42)
def read(text: str) -> dict:
    return {"text": text}


class Slow:
    def openapi(self):
        import time

        time.sleep(60)


class Big:
    def openapi(self):
        return {"paths": {}, "x": "y" * 100000}


class Broken:
    def openapi(self):
        raise RuntimeError("the schema could not be made")


slow, big, broken = Slow(), Big(), Broken()
"""


@unittest.skipIf(bool(SKIP), SKIP)
class WhatTheImageHoldsTest(unittest.TestCase):
    """issue 47: `src/.env` went into the image; `limelight deploy` imported main.py on the host."""

    def built(self, folder: Path, entry: str = "main:app") -> str:
        name = f"localhost/limelight-build-test-{uuid.uuid4().hex[:8]}:1"
        self.addCleanup(lambda: subprocess.run(["podman", "rmi", "-f", name], capture_output=True))
        yaml = (folder / "limelight.yaml").read_text() if (folder / "limelight.yaml").exists() else ""
        (folder / "limelight.yaml").write_text(yaml + f"entry: {entry}\n")
        done = limelight("build", "--tag", name, cwd=folder, timeout=1800)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.last_output = done.stdout
        return name

    def test_env_files_keys_and_git_stay_out_of_the_image(self):
        folder = temp_folder(self)
        (folder / "limelight.yaml").write_text("name: secrets\npython: [main.py, src]\n")
        for path, text in {
            "main.py": "from limelight.serve import App\napp = App()\n",
            "src/util.py": "X = 1\n",
            "src/.env": "API_TOKEN=secret\n",
            "src/id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\n",
            "src/tls.key": "-----BEGIN PRIVATE KEY-----\n",
            "src/.git/config": "[core]\n",
        }.items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text)
        name = self.built(folder)
        self.assertIn("left out 4 files by default (src/.env, src/.git/, src/id_rsa, src/tls.key)", self.last_output)
        listed = podman("run", "--rm", "--network", "none", "--entrypoint", "find", name, "/app", "-type", "f")
        self.assertEqual(sorted(listed.split()), ["/app/main.py", "/app/src/util.py"])

    def deploy_env(self, platform) -> dict:
        return {
            "LIMELIGHT_BASE_URL": platform.url,
            "LIMELIGHT_API_KEY": "lime_test",
            "CONTAINERS_CONF": PODMAN_ENV["CONTAINERS_CONF"],
        }

    def test_deploy_reads_the_document_inside_the_pushed_image_and_never_imports_the_app_here(self):
        from .test_cli_publish import Platform, serving

        folder = temp_folder(self)
        (folder / "main.py").write_text(SCHEMA_MAIN)
        (folder / "limelight.yaml").write_text("name: reader\n")
        name = self.built(folder)
        image_id = podman("image", "inspect", "--format", "{{.Id}}", name).strip()
        pinned = "127.0.0.1:5000/ada-0123456789ab/reader@sha256:" + "b" * 64
        (folder / ".limelight").mkdir(exist_ok=True)  # build records what it built there
        (folder / ".limelight" / "pushed.json").write_text(json.dumps({"pinned": pinned, "local_id": image_id}))
        endpoints = [{"method": "POST", "path": "/read", "parameters": [], "time_limit_s": 42}]
        platform = Platform(
            {
                ("POST", "/v1/model_management/import_openapi"): (200, {"endpoints": endpoints, "unsupported": []}),
                ("GET", "/v1/model_management/pricing_servers"): (200, [{"id": "runpod-a4000-16"}]),
                ("POST", "/v1/model_management/services"): (201, {"id": "svc-1"}),
                ("GET", "/v1/model_management/services/svc-1/rollout"): (200, serving(pinned)),
            }
        )
        self.addCleanup(platform.close)
        with environment(self.deploy_env(platform)):
            done = limelight("deploy", cwd=folder)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn(f"endpoints: reading the OpenAPI document inside {image_id}", done.stdout)
        document = next(c for c in platform.calls if c[1] == "/v1/model_management/import_openapi")[2]["document"]
        self.assertEqual(document["paths"]["/read"]["post"]["x-limelight-time-limit-s"], 42)
        created = next(c for c in platform.calls if c[1] == "/v1/model_management/services")[2]
        self.assertEqual(created["endpoints"], endpoints)
        self.assertEqual(created["runtime"]["image"], pinned)
        self.assertFalse((folder / "imported-on-this-machine").exists())
        self.assertEqual(podman("ps", "-a", "--filter", "name=limelight-schema-", "--format", "{{.Names}}").strip(), "")

    def test_an_image_that_cannot_give_its_document_is_an_error_in_words(self):
        from limelight.cli import image_schema

        from .test_cli_publish import Platform

        folder = temp_folder(self)
        (folder / "main.py").write_text(SCHEMA_MAIN)
        (folder / "limelight.yaml").write_text("name: reader\n")
        name = self.built(folder, entry="main:broken")
        platform = Platform({})
        self.addCleanup(platform.close)
        with environment(self.deploy_env(platform)):
            done = limelight("deploy", "--image", name, cwd=folder)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn(
            f"limelight deploy: cannot read the app's endpoints from the image {name}: python3 -m "
            "limelight.serve.schema main:broken failed inside the image (exit 1): limelight.serve.schema: "
            "main:broken: RuntimeError: the schema could not be made",
            done.stderr,
        )
        self.assertNotIn("Traceback", done.stderr)
        self.assertEqual(platform.calls, [])  # nothing saved

        # The time limit and the size limit, each with the container removed afterwards.
        with environment({"CONTAINERS_CONF": PODMAN_ENV["CONTAINERS_CONF"]}):
            started = time.monotonic()
            with self.assertRaisesRegex(image_schema.SchemaError, "did not finish in 3 s inside the image"):
                image_schema.run_schema("podman", name, "main:slow", timeout_s=3)
            self.assertLess(time.monotonic() - started, 20)
            with self.assertRaisesRegex(image_schema.SchemaError, "printed more than 10000 bytes"):
                image_schema.run_schema("podman", name, "main:big", max_bytes=10000)
            self.assertEqual(image_schema.run_schema("podman", name, "main:app")["info"]["title"], "Reader")
        self.assertEqual(podman("ps", "-a", "--filter", "name=limelight-schema-", "--format", "{{.Names}}").strip(), "")
