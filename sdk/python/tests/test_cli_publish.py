"""limelight push and deploy against a small stand-in for the platform's API (the real platform,
registry and runner are in test/integration/publishing/cli-e2e.test.ts): the refusals a publisher
meets are said in words (not signed in, registry off, quota), and deploy creates the service on
the pushed digest with /health and the yaml's settings (the endpoints, read inside a real image,
are in test_build.py), then updates the same service on the next deploy, and waits for the rollout of
that digest: a refused update (the previous version still running) or one that does not end in
time exits 1 with why."""

from __future__ import annotations

import json
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Tuple

from .test_cli import limelight, temp_folder

PUSHED = {
    "image": "127.0.0.1:5000/ada-0123456789ab/ocr:latest",
    "digest": "sha256:" + "a" * 64,
    "pinned": "127.0.0.1:5000/ada-0123456789ab/ocr@sha256:" + "a" * 64,
}


class Platform:
    """Answers from a table {(method, path): (status, body)}, or a list of them answered in turn (the
    last one again and again); records the calls."""

    def __init__(self, answers: Dict[Tuple[str, str], Any]):
        self.answers: Dict[Tuple[str, str], Any] = answers
        self.calls: List[Tuple[str, str, Any, Any, str]] = []
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                path = self.path.split("?")[0]
                query = self.path.split("?", 1)[1] if "?" in self.path else ""
                platform.calls.append((self.command, path, body, self.headers.get("authorization"), query))
                found = platform.answers.get((self.command, path), (404, {"detail": f"No route {path}"}))
                status, answer = (found.pop(0) if len(found) > 1 else found[0]) if isinstance(found, list) else found
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class PushAndDeploy(unittest.TestCase):
    def setUp(self) -> None:
        self.folder = temp_folder(self)
        self.assertEqual(limelight("init", ".", "--name", "ocr", cwd=self.folder).returncode, 0)
        with open(self.folder / "limelight.yaml", "a") as yaml:
            yaml.write("visibility: public\nmax_instances: 3\nidle_timeout_s: 120\ntitle: Reader\n")

    def platform(self, answers: Dict[Tuple[str, str], Any]) -> Platform:
        platform = Platform(answers)
        self.addCleanup(platform.close)
        return platform

    def run_cli(self, platform: Platform, *args: str, key: str = "lime_test", path: str = ""):
        import os

        env = {"LIMELIGHT_BASE_URL": platform.url, "LIMELIGHT_API_KEY": key}
        if path:
            env["PATH"] = path + os.pathsep + os.environ.get("PATH", "")
        saved = {name: os.environ.get(name) for name in env}
        os.environ.update(env)
        try:
            return limelight(*args, cwd=self.folder)
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)

    def test_push_refusals_in_words(self) -> None:
        off = self.platform({})
        done = self.run_cli(off, "push")
        self.assertEqual(done.returncode, 1)
        self.assertIn("runs no registry (container hosting is off", done.stderr)
        done = self.run_cli(off, "push", key="")
        self.assertIn("not signed in: set LIMELIGHT_API_KEY", done.stderr)
        quota = "Registry storage quota exceeded: your images use 2100.0 MB and your free plan allows 2048 MB"
        full = self.platform(
            {
                ("GET", "/v1/registry"): (200, {"host": "127.0.0.1:5000", "namespace": "ada-0123456789ab"}),
                ("GET", "/v1/registry/token"): (403, {"detail": quota}),
            }
        )
        done = self.run_cli(full, "push")
        self.assertEqual(done.returncode, 1)
        self.assertIn(f"the registry refuses the push: {quota}", done.stderr)
        self.assertTrue(full.calls[-1][3].startswith("Basic "))
        expired = self.platform({("GET", "/v1/registry"): (401, {"detail": "Invalid API key"})})
        done = self.run_cli(expired, "push")
        self.assertEqual(done.returncode, 1)
        self.assertIn("the API key was refused", done.stderr)
        self.assertIn("run `limelight login`", done.stderr)

    def fake_engine(self) -> Tuple[str, Path]:
        """A folder with a stand-in ``podman`` (its base cached, builds and pushes recorded in
        calls.jsonl), so push's decision to build is seen without minutes of real builds
        (test_build.py builds with real Podman)."""
        bin_folder = temp_folder(self)
        script = bin_folder / "podman"
        script.write_text(FAKE_PODMAN.replace("STATE", str(bin_folder)))
        script.chmod(0o755)
        return str(bin_folder), bin_folder / "calls.jsonl"

    def registry(self) -> Platform:
        return self.platform(
            {
                ("GET", "/v1/registry"): (200, {"host": "127.0.0.1:5000", "namespace": "ada-0123456789ab"}),
                ("GET", "/v1/registry/token"): (200, {"token": "t"}),
            }
        )

    def test_push_builds_when_the_sources_changed_and_only_then(self) -> None:
        path, calls_file = self.fake_engine()
        platform = self.registry()

        def builds() -> List[List[str]]:
            calls = [json.loads(line) for line in calls_file.read_text().splitlines()]
            return [call for call in calls if call[0] == "build"]

        first = self.run_cli(platform, "push", path=path)
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertIn("no image localhost/ocr:latest: building…", first.stdout)
        self.assertIn("pushed 127.0.0.1:5000/ada-0123456789ab/ocr@sha256:", first.stdout)
        self.assertEqual(len(builds()), 1)
        # Nothing changed: pushed as it is.
        again = self.run_cli(platform, "push", path=path)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("image up to date: localhost/ocr:latest", again.stdout)
        self.assertNotIn("building", again.stdout)
        self.assertEqual(len(builds()), 1)
        # A file the ignore rules leave out is no change to the image.
        (self.folder / ".env").write_text("TOKEN=x\n")
        self.assertIn("image up to date", self.run_cli(platform, "push", path=path).stdout)
        # A source file changed: built again before the push.
        with open(self.folder / "main.py", "a") as main:
            main.write("\n# a change\n")
        changed = self.run_cli(platform, "push", path=path)
        self.assertEqual(changed.returncode, 0, changed.stderr)
        self.assertIn("sources changed since the last build: building…", changed.stdout)
        self.assertEqual(len(builds()), 2)
        # limelight.yaml is an input too.
        with open(self.folder / "limelight.yaml", "a") as yaml:
            yaml.write("description: Reads text\n")
        self.assertIn(
            "sources changed since the last build: building…", self.run_cli(platform, "push", path=path).stdout
        )
        self.assertEqual(len(builds()), 3)
        # --no-build pushes what is there, changed sources or not.
        with open(self.folder / "main.py", "a") as main:
            main.write("\n# another change\n")
        kept = self.run_cli(platform, "push", "--no-build", path=path)
        self.assertEqual(kept.returncode, 0, kept.stderr)
        self.assertNotIn("building", kept.stdout)
        self.assertEqual(len(builds()), 3)
        pushes = [json.loads(line) for line in calls_file.read_text().splitlines() if '"push"' in line]
        self.assertEqual(len(pushes), 6)
        # An image replaced by hand (another build under the same tag) is not taken for ours.
        (Path(path) / "images.json").write_text(json.dumps({"localhost/ocr:latest": "sha256:elsewhere"}))
        replaced = self.run_cli(platform, "push", path=path)
        self.assertIn(
            "localhost/ocr:latest was not built from this folder by limelight build: building…", replaced.stdout
        )

    def test_no_build_without_an_image_says_what_to_do(self) -> None:
        path, _ = self.fake_engine()
        done = self.run_cli(self.registry(), "push", "--no-build", path=path)
        self.assertEqual(done.returncode, 1)
        self.assertIn("no image localhost/ocr:latest: run `limelight build` first", done.stderr)

    def test_deploy_creates_on_the_pinned_digest_then_updates(self) -> None:
        with open(self.folder / "main.py", "a") as main:  # issue 47: deploy imported this here
            main.write("\nopen(__file__ + '.imported-here', 'w').close()\n")
        (self.folder / ".limelight").mkdir()
        (self.folder / ".limelight" / "pushed.json").write_text(json.dumps(PUSHED))
        endpoints = [{"method": "POST", "path": "/count", "parameters": [], "time_limit_s": 60}]
        created = {"id": "svc-1"}
        platform = self.platform(
            {
                ("POST", "/v1/model_management/import_openapi"): (200, {"endpoints": endpoints, "unsupported": []}),
                ("GET", "/v1/model_management/pricing_servers"): (200, [{"id": "runpod-a4000-16"}]),
                ("POST", "/v1/model_management/services"): (201, created),
                ("PATCH", "/v1/model_management/services/svc-1"): (200, created),
                ("GET", "/v1/model_management/services/svc-1/rollout"): (200, serving(PUSHED["pinned"])),
            }
        )
        done = self.run_cli(platform, "deploy")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"service svc-1: {platform.url}/APIs/service/svc-1", done.stdout)
        # The app is not imported here: with no local copy of the image to read its document in
        # (test_build.py reads it in a real one), the platform reads it from the container.
        self.assertIn("endpoints: read by the platform from the container once it is healthy", done.stdout)
        self.assertFalse(any(c[1] == "/v1/model_management/import_openapi" for c in platform.calls))
        body = next(c for c in platform.calls if c[0] == "POST" and c[1] == "/v1/model_management/services")[2]
        self.assertEqual(body["display_name"], "Reader")
        self.assertEqual(body["visibility"], "public")
        self.assertNotIn("endpoints", body)
        self.assertFalse((self.folder / "main.py.imported-here").exists())
        self.assertEqual(
            body["runtime"],
            {
                "type": "container",
                "image": PUSHED["pinned"],
                "gpu": "runpod-a4000-16",
                "min_instances": 0,
                "max_instances": 3,
                "idle_timeout_s": 120,
                "port": 8080,
                "health_path": "/health",
                "concurrency": 1,
            },
        )
        self.assertEqual(platform.calls[-1][3], "Bearer lime_test")
        again = self.run_cli(platform, "deploy")
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("updated service svc-1", again.stdout)
        self.assertEqual(
            sum(1 for c in platform.calls if c[0] == "POST" and c[1] == "/v1/model_management/services"), 1
        )

    def test_a_failed_deployment_says_why(self) -> None:
        platform = self.platform(
            {
                ("POST", "/v1/model_management/import_openapi"): (200, {"endpoints": [], "unsupported": []}),
                ("GET", "/v1/model_management/pricing_servers"): (200, [{"id": "runpod-a4000-16"}]),
                ("POST", "/v1/model_management/services"): (201, {"id": "svc-2"}),
                ("GET", "/v1/model_management/services/svc-2/rollout"): (
                    200,
                    {
                        "status": "failed",
                        "message": "Setup failed. Last log lines:\nNo module named cv2",
                        "rollout": {"image": PUSHED["pinned"], "status": "failed", "message": "Setup failed"},
                        "lines": [{"stream": "stderr", "instance": "i-1", "text": "No module named cv2"}],
                        "cursor": "3",
                        "more": False,
                    },
                ),
            }
        )
        done = self.run_cli(platform, "deploy", "--image", PUSHED["pinned"])
        self.assertEqual(done.returncode, 1)
        self.assertIn(f"the rollout of {PUSHED['pinned']} failed: Setup failed", done.stderr)
        self.assertIn("No module named cv2", done.stderr)

    def updating(self, *hosting: Dict[str, Any]) -> Platform:
        """A platform where this folder's service svc-3 exists, answering ``hosting`` in turn."""
        (self.folder / ".limelight").mkdir()
        platform = self.platform(
            {
                ("POST", "/v1/model_management/import_openapi"): (200, {"endpoints": [], "unsupported": []}),
                ("GET", "/v1/model_management/pricing_servers"): (200, [{"id": "runpod-a4000-16"}]),
                ("PATCH", "/v1/model_management/services/svc-3"): (200, {"id": "svc-3"}),
                ("GET", "/v1/model_management/services/svc-3/rollout"): [(200, answer) for answer in hosting],
            }
        )
        (self.folder / ".limelight" / "service.json").write_text(json.dumps({"id": "svc-3", "base_url": platform.url}))
        return platform

    def hosting_calls(self, platform: Platform) -> int:
        return sum(1 for c in platform.calls if c[1] == "/v1/model_management/services/svc-3/rollout")

    def test_a_refused_update_exits_1_with_the_reason(self) -> None:
        # Issue 47, finding 7: the runner had no room for the new version, the old one kept serving,
        # and the deployment's status was `running`: before, "deployed" and exit 0.
        reason = (
            "The update did not start, the previous version still runs: The runner has no room for another "
            "256 MB instance (256 of 256 MB in use)"
        )
        platform = self.updating(
            {
                "status": "running",
                "message": reason,
                "instances": 1,
                "rollout": {"image": PUSHED["pinned"], "status": "failed", "message": reason},
            }
        )
        done = self.run_cli(platform, "deploy", "--image", PUSHED["pinned"])
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn(f"the rollout of {PUSHED['pinned']} failed: {reason}", done.stderr)
        self.assertNotIn("deployed", done.stdout)

    def test_waits_until_the_new_digest_serves(self) -> None:
        # The first answers are the previous image's (running: before, that ended the wait), then
        # the platform takes the new one up.
        old = PUSHED["pinned"].replace("a" * 64, "b" * 64)
        platform = self.updating(
            serving(old),
            serving(old, rollout="pending"),
            {
                "status": "deploying",
                "message": "Rolling out",
                "rollout": {"image": PUSHED["pinned"], "status": "in_progress", "message": "Rolling out"},
            },
            serving(PUSHED["pinned"]),
        )
        done = self.run_cli(platform, "deploy", "--image", PUSHED["pinned"])
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.hosting_calls(platform), 4)
        self.assertIn("rollout: in_progress", done.stdout)
        self.assertIn(f"deployed {PUSHED['pinned']}", done.stdout)

    def test_deploy_prints_pull_start_setup_and_health_as_they_come(self) -> None:
        pinned = PUSHED["pinned"]
        rolling = {"image": pinned, "status": "in_progress", "message": f"Rolling out {pinned}"}
        platform = self.updating(
            # Before the save: the previous version's lines, not this deploy's.
            {**serving(pinned.replace("a" * 64, "b" * 64)), "lines": [line("stdout", "an old line")], "cursor": "41"},
            {
                "status": "deploying",
                "message": f"Rolling out {pinned}",
                "instances": 1,
                "rollout": rolling,
                "lines": [line("runner", "pull 812 ms")],
                "cursor": "42",
                "more": False,
            },
            {
                "status": "deploying",
                "message": f"Rolling out {pinned}",
                "instances": 1,
                "rollout": rolling,
                "lines": [line("stdout", "loading weights"), line("stderr", "weights loaded in 0.4 s")],
                "cursor": "44",
                "more": False,
            },
            {**serving(pinned), "lines": [line("runner", "Instance ready in 950 ms (health 200)")], "cursor": "45"},
        )
        done = self.run_cli(platform, "deploy", "--image", pinned)
        self.assertEqual(done.returncode, 0, done.stderr)
        expected = [
            f"updated service svc-3 to {pinned}",
            "  platform: pull 812 ms",
            f"deployment: deploying (Rolling out {pinned}); rollout: in_progress",
            "  app: loading weights",
            "  app: weights loaded in 0.4 s",
            "  platform: Instance ready in 950 ms (health 200)",
            "deployment: running (Healthy); rollout: succeeded (The new version serves)",
            f"deployed {pinned}",
        ]
        printed = done.stdout.splitlines()
        self.assertEqual([text for text in printed if text in expected], expected)
        self.assertNotIn("an old line", done.stdout)
        # Each ask reads on from the previous answer's cursor, the first from before the save.
        asks = [c[4] for c in platform.calls if c[1] == "/v1/model_management/services/svc-3/rollout"]
        self.assertEqual(asks, ["", "since=41", "since=42", "since=44"])

    def test_a_failed_setup_prints_the_reason_and_the_last_log_lines(self) -> None:
        pinned = PUSHED["pinned"]
        reason = "The update did not start, the previous version still runs: the app exited with code 1 during setup"
        platform = self.updating(
            {**serving(pinned.replace("a" * 64, "b" * 64)), "cursor": "7"},
            {
                "status": "deploying",
                "message": "Starting the first instance",
                "instances": 1,
                "rollout": {"image": pinned, "status": "in_progress", "message": "Starting"},
                "lines": [
                    line("runner", "pull 300 ms"),
                    line("stdout", "loading the model"),
                    line("stderr", "Traceback (most recent call last):"),
                    line("stderr", "ModuleNotFoundError: No module named 'cv2'"),
                ],
                "cursor": "11",
                "more": False,
            },
            {
                "status": "running",
                "message": reason,
                "instances": 1,
                "rollout": {"image": pinned, "status": "failed", "message": reason},
                "lines": [line("runner", f"Failed: {reason}")],
                "cursor": "12",
                "more": False,
            },
        )
        done = self.run_cli(platform, "deploy", "--image", pinned)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn("  app: ModuleNotFoundError: No module named 'cv2'", done.stdout)
        self.assertIn(
            f"the rollout of {pinned} failed: {reason}\nlast log lines:\nloading the model\n"
            "Traceback (most recent call last):\nModuleNotFoundError: No module named 'cv2'",
            done.stderr,
        )
        self.assertNotIn("deployed", done.stdout)

    def test_a_rollout_that_does_not_end_in_time_exits_1(self) -> None:
        # Saved, and no runner takes it up: the previous version's `running` is no answer.
        platform = self.updating(serving(PUSHED["pinned"], rollout="pending"))
        done = self.run_cli(platform, "deploy", "--image", PUSHED["pinned"], "--wait", "1.5")
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn(f"the rollout of {PUSHED['pinned']} is still pending after 1.5 s", done.stderr)
        self.assertNotIn("deployed", done.stdout)
        # Without waiting, it says the rollout was not awaited rather than "deployed".
        saved = self.run_cli(platform, "deploy", "--image", PUSHED["pinned"], "--wait", "0")
        self.assertEqual(saved.returncode, 0, saved.stderr)
        self.assertIn(
            f"saved (not waiting for the rollout; follow it on the service's page) {PUSHED['pinned']}", saved.stdout
        )
        refused = self.run_cli(platform, "deploy", "--wait", "-1")
        self.assertEqual(refused.returncode, 1)
        self.assertIn("--wait: give the seconds to wait for the rollout, 0 or more", refused.stderr)


FAKE_PODMAN = r"""#!/usr/bin/env python3
import hashlib, json, sys
from pathlib import Path

state = Path("STATE")
args = sys.argv[1:]
images_file = state / "images.json"
images = json.loads(images_file.read_text()) if images_file.exists() else {}
with open(state / "calls.jsonl", "a") as calls:
    calls.write(json.dumps(args) + "\n")
if args[:2] == ["image", "exists"]:
    sys.exit(0)  # the base is cached
if args[:2] == ["image", "inspect"]:
    if args[-1] in images:
        print(images[args[-1]])
        sys.exit(0)
    sys.exit(125)
if args[0] == "build":
    tag = args[args.index("-t") + 1]
    images[tag] = "sha256:%064d" % (sum(1 for _ in open(state / "calls.jsonl")))
    images_file.write_text(json.dumps(images))
    sys.exit(0)
if args[0] == "push":
    Path(args[args.index("--digestfile") + 1]).write_text("sha256:" + "c" * 64)
    sys.exit(0)
sys.exit(2)
"""


def serving(image: str, rollout: str = "succeeded") -> Dict[str, Any]:
    """The rollout progress of a deployment running ``image`` (whose rollout is ``rollout``)."""
    return {
        "status": "running",
        "message": "Healthy",
        "instances": 1,
        "rollout": {"image": image, "status": rollout, "message": "The new version serves"},
        "lines": [],
        "cursor": "0",
        "more": False,
    }


def line(stream: str, text: str) -> Dict[str, str]:
    return {
        "at": "2026-12-06T11:00:00.000Z",
        "stream": stream,
        "instance": "" if stream == "runner" else "c0ffee",
        "text": text,
    }


if __name__ == "__main__":
    unittest.main()
