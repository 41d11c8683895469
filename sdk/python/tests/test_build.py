"""limelight build with real Podman and mmdebstrap: an image from limelight.yaml without a
Dockerfile, the weights in a layer of their own that a code change keeps, and a container of it
that serves the example. Skips, saying why, without root, Podman, mmdebstrap or the Debian archive."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
