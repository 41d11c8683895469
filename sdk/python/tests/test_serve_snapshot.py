"""The snapshot point of `limelight serve` (docs/deploy.md, "Snapshot cold starts"): setup runs before
the port is bound, the app waits for its instance file, and each copy of one process reseeds its random
state, takes its settings and reads the clock again before it binds. A setup that leaves a socket open
is said in words and starts cold. The real snapshot under gVisor is test/integration/hosting/snapshots.test.ts."""

from __future__ import annotations

import importlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from pathlib import Path

from .serving import MISSING, call, needs_serving, stop_process, until

SDK = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SDK))

APP = textwrap.dedent("""\
    import os, random, socket, time
    from limelight.serve import App

    app = App(title="Snapshot")
    held = []

    @app.setup
    def load():
        time.sleep(0.1)
        if os.environ.get("OPEN_SOCKET"):
            held.append(socket.socket())  # a connection a snapshot cannot hold

    @app.endpoint("/draw", time_limit_s=1)
    def draw() -> dict:
        time.sleep(0.2)
        return {"n": random.random(), "note": os.environ.get("INSTANCE_NOTE", "")}
""")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return False
    except OSError:
        return True


class Waiting:
    """`limelight serve` with LIMELIGHT_SNAPSHOT_WAIT set, its output read line by line."""

    def __init__(self, test: unittest.TestCase, **env: str):
        holder = tempfile.TemporaryDirectory()
        test.addCleanup(holder.cleanup)
        self.folder = Path(holder.name)
        (self.folder / "main.py").write_text(APP)
        self.instance = self.folder / "instance" / "instance.json"
        self.instance.parent.mkdir()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "limelight", "serve", "main:app", "--port", str(self.port)],
            cwd=self.folder,
            env={
                **os.environ,
                "PYTHONPATH": str(SDK),
                "PYTHONUNBUFFERED": "1",
                "LIMELIGHT_SNAPSHOT_WAIT": str(self.instance),
                **env,
            },
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        test.addCleanup(self.stop)
        self.lines: list = []

    def line_starting(self, prefix: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError(f"limelight serve ended before {prefix!r}: {''.join(self.lines)}")
            self.lines.append(line)
            if line.startswith(prefix):
                return line.strip()
        raise AssertionError(f"no {prefix!r} within {timeout} s: {''.join(self.lines)}")

    def answers(self) -> bool:
        try:
            return call("GET", f"{self.url}/health", timeout=2).status == 200
        except OSError:
            return False

    def stop(self) -> None:
        stop_process(self.process)


@needs_serving
class SnapshotPointTest(unittest.TestCase):
    def test_setup_runs_before_the_port_is_bound_and_the_app_serves_after_the_restore(self):
        from limelight.serve.snapshot import SNAPSHOT_POINT

        served = Waiting(self)
        self.assertEqual(served.line_starting("limelight: snapshot point"), SNAPSHOT_POINT)
        # At the snapshot point nothing listens: a listening socket cannot be snapshotted.
        time.sleep(0.3)
        self.assertTrue(refused(served.port), "the port was bound before the restore")
        self.assertIsNone(served.process.poll())
        # Longer than the endpoint's time limit: the limit counts from the run, after the restore.
        time.sleep(1.2)
        before = time.time()
        served.instance.write_text(json.dumps({"instance": "i-1", "seed": "s1", "env": {"INSTANCE_NOTE": "first"}}))
        self.assertEqual(served.line_starting("limelight: restored"), "limelight: restored from a snapshot as i-1")
        until(served.answers, 20, "the restored app to answer")
        health = call("GET", f"{served.url}/health").json()
        self.assertEqual(health["status"], "READY")
        self.assertGreaterEqual(health["setup"]["restored_at"], before)
        self.assertLess(health["setup"]["finished_at"], before)
        answer = call("POST", f"{served.url}/draw", json_body={}).json()
        self.assertEqual(answer["note"], "first", answer)

    def test_a_socket_left_open_by_setup_is_said_and_the_app_starts_cold(self):
        served = Waiting(self, OPEN_SOCKET="1")
        line = served.line_starting("limelight: no snapshot:")
        self.assertRegex(line, r"setup left 1 socket\(s\) open \(fd \d+ \(socket:\[\d+\]\)\)")
        self.assertIn("snapshot: false", line)
        # No instance file is ever written: the app binds at once.
        until(served.answers, 20, "the cold app to answer")
        self.assertFalse(served.instance.exists())

    def test_a_bad_instance_file_is_refused_in_words(self):
        served = Waiting(self)
        served.line_starting("limelight: snapshot point")
        served.instance.write_text('{"env": {"N": 1}}')
        served.process.wait(20)
        output = "".join(served.lines) + served.process.stdout.read()
        self.assertEqual(served.process.returncode, 1, output)
        self.assertIn("the snapshot's restore failed: the instance file", output)
        self.assertIn('"env" must map names to strings', output)


@needs_serving
class OptOutTest(unittest.TestCase):
    def test_an_opted_out_service_says_so_and_binds_at_once(self):
        served = Waiting(self, LIMELIGHT_SNAPSHOT="off")
        line = served.line_starting("limelight: no snapshot:")
        self.assertIn("the service opted out (snapshot: false in limelight.yaml", line)
        until(served.answers, 20, "the opted-out app to answer")
        self.assertFalse(served.instance.exists())


class ProjectSnapshotTest(unittest.TestCase):
    def project(self, yaml: str):
        from limelight.cli import project

        folder = Path(tempfile.mkdtemp())
        self.addCleanup(lambda: [p.unlink() for p in folder.iterdir()] and folder.rmdir())
        (folder / "limelight.yaml").write_text(yaml)
        (folder / "main.py").write_text("")
        return project.load(folder)

    def test_snapshot_false_in_limelight_yaml_reaches_the_image_as_an_opt_out(self):
        from limelight.cli import build

        opted_out = self.project("name: probe\nsnapshot: false\n")
        self.assertFalse(opted_out.snapshot)
        self.assertIn(f"{build.OPT_OUT_ENV}=off", build.containerfile("base", opted_out, has_weights=False))
        default = self.project("name: probe\n")
        self.assertTrue(default.snapshot)
        self.assertNotIn(build.OPT_OUT_ENV, build.containerfile("base", default, has_weights=False))

    def test_the_deploy_sends_runtime_snapshot_false_and_leaves_the_default_out(self):
        from limelight.cli.deploy import service_body

        # The platform then keeps its runner's snapshot tier away from the service (docs/deploy.md,
        # "Snapshot cold starts"); the image's variable stays for `limelight run` and other hosts.
        opted_out = service_body(self.project("name: probe\nsnapshot: false\n"), "img", "offer", None)
        self.assertIs(opted_out["runtime"]["snapshot"], False)
        default = service_body(self.project("name: probe\n"), "img", "offer", None)
        self.assertNotIn("snapshot", default["runtime"])

    def test_a_snapshot_that_is_not_true_or_false_is_refused_in_words(self):
        from limelight.cli.project import ProjectError

        with self.assertRaisesRegex(ProjectError, r'snapshot is true or false, got "off"'):
            self.project("name: probe\nsnapshot: off\n")

    @needs_serving
    def test_the_image_and_the_app_read_one_variable(self):
        from limelight.cli import build
        from limelight.serve import snapshot

        self.assertEqual(build.OPT_OUT_ENV, snapshot.OPT_OUT_ENV)


class ReseedTest(unittest.TestCase):
    def test_two_copies_of_one_process_draw_different_numbers_after_the_restore(self):
        from limelight.serve import snapshot

        folder = Path(tempfile.mkdtemp())
        self.addCleanup(lambda: [p.unlink() for p in folder.iterdir()] and folder.rmdir())
        random.seed(7)  # the state every copy of a snapshot shares
        draws = []
        for copy in ("a", "b"):
            (folder / f"{copy}.json").write_text(json.dumps({"instance": copy, "seed": f"seed-{copy}"}))
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the copy: restored from the same state as its sibling
                os.close(read)
                info = snapshot.wait_for_restore(folder / f"{copy}.json", say=lambda _: None)
                snapshot.reseed(info["seed"])
                os.write(write, repr(random.random()).encode())
                os._exit(0)
            os.close(write)
            with os.fdopen(read) as pipe:
                draws.append(float(pipe.read()))
            os.waitpid(pid, 0)
        unrestored = random.random()  # what each copy would have drawn without the reseed
        self.assertNotEqual(draws[0], draws[1])
        self.assertNotIn(unrestored, draws)

    def test_numpy_global_generator_is_reseeded_when_numpy_is_loaded(self):
        try:
            numpy = importlib.import_module("numpy")
        except ImportError:
            self.skipTest("NumPy is not installed (apt-get install python3-numpy)")
        from limelight.serve import snapshot

        numpy.random.seed(7)
        state = numpy.random.get_state()[1].copy()
        snapshot.reseed("x")
        self.assertFalse((numpy.random.get_state()[1] == state).all())

    def test_open_sockets_names_a_socket_and_nothing_else(self):
        from limelight.serve.snapshot import open_sockets

        before = open_sockets()
        with socket.socket() as sock:
            now = open_sockets()
            self.assertEqual(len(now), len(before) + 1)
            self.assertIn(f"fd {sock.fileno()} (socket:[", [s[: len(f"fd {sock.fileno()} (socket:[")] for s in now])
        self.assertEqual(open_sockets(), before)


if MISSING is not None:
    print(f"limelight serve tests skipped: {MISSING}", file=sys.stderr)
