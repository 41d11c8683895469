"""The limelight command: init writes a service that serves, limelight.yaml is read (and bad ones are
refused in words), and `serve --simulate` queues jobs, shows the function's progress and cancels it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from .serving import MISSING, call, needs_serving, stop_process, until

SDK = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SDK))

from limelight.cli import project  # noqa: E402


def limelight(*args: str, cwd: Path, timeout: float = 60, **options) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(SDK), "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "limelight", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        **options,
    )


def temp_folder(test: unittest.TestCase) -> Path:
    holder = tempfile.TemporaryDirectory()
    test.addCleanup(holder.cleanup)
    return Path(holder.name)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    """`limelight serve …` as a child process on a free port, stopped at the end."""

    def __init__(self, folder: Path, *args: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(SDK), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "limelight", "serve", *args, "--port", str(self.port)],
            cwd=folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def __enter__(self) -> Served:
        def up():
            if self.process.poll() is not None:
                raise AssertionError(f"limelight serve exited: {self.process.stdout.read()}")
            try:
                return call("GET", f"{self.url}/health", timeout=2).status == 200
            except OSError:
                return False

        until(up, 30, "limelight serve to answer /health")
        return self

    def __exit__(self, *exc) -> None:
        stop_process(self.process)


class ProjectFileTest(unittest.TestCase):
    def test_the_yaml_subset_reads_scalars_flow_and_block_lists(self):
        data = project.parse(
            textwrap.dedent("""\
            # a comment
            name: ocr   # trailing comment
            entry: "main:app"
            debian_packages: [tesseract-ocr, tesseract-ocr-eng]
            weights:
              - models/
              - 'vocab.txt'
            port: 9000
            gpu: none
            """)
        )
        self.assertEqual(
            data,
            {
                "name": "ocr",
                "entry": "main:app",
                "debian_packages": ["tesseract-ocr", "tesseract-ocr-eng"],
                "weights": ["models/", "vocab.txt"],
                "port": 9000,
                "gpu": "none",
            },
        )

    def test_bad_files_are_refused_naming_the_line_or_field(self):
        with self.assertRaisesRegex(project.ProjectError, "line 2, column 1: expected `key: value`"):
            project.parse("name: x\nnot a pair\n")
        folder = temp_folder(self)
        for text, words in {
            "gpu: b200\n": "gpu is one of none",
            "port: 70000\n": "port is a number",
            "entry: main\n": "entry is `module:attribute`",
        }.items():
            (folder / "limelight.yaml").write_text(text)
            with self.subTest(text), self.assertRaisesRegex(project.ProjectError, words):
                project.load(folder)


class InitTest(unittest.TestCase):
    def test_init_writes_main_py_and_limelight_yaml_and_refuses_to_overwrite(self):
        folder = temp_folder(self) / "word-counter"
        done = limelight("init", str(folder), cwd=folder.parent)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(sorted(p.name for p in folder.iterdir()), ["limelight.yaml", "main.py"])
        loaded = project.load(folder)
        self.assertEqual((loaded.name, loaded.entry, loaded.port), ("word-counter", "main:app", 8080))
        again = limelight("init", str(folder), cwd=folder.parent)
        self.assertEqual(again.returncode, 1)
        self.assertIn("already exist; use --force", again.stderr)

    @needs_serving
    def test_the_example_serves_its_endpoint_and_documents_it(self):
        folder = temp_folder(self)
        limelight("init", cwd=folder, check=True)
        with Served(folder) as served:
            answer = call(
                "POST", f"{served.url}/count", json_body={"text": "the cat and the hat", "skip_stop_words": True}
            )
            self.assertEqual(answer.json(), {"count": 2, "unit": "words", "top": {"cat": 1, "hat": 1}})
            document = call("GET", f"{served.url}/openapi.json").json()
            self.assertIn("multipart/form-data", document["paths"]["/count"]["post"]["requestBody"]["content"])
            self.assertEqual(call("GET", f"{served.url}/health").json()["setup"]["logs"], ["loaded 6 stop words"])


SLOW_APP = """
import time
from pathlib import Path
from limelight.serve import App, Cancelled, Job

app = App(title="Slow", answer_within_s=0.2)

@app.endpoint("/steps")
def steps(n: int = 100, job: Job = None) -> dict:
    try:
        for i in range(n):
            job.progress(i / n, f"step {i}")
            time.sleep(0.05)
    except Cancelled as cancelled:
        Path("cancelled.txt").write_text(str(cancelled))
        raise
    return {"steps": n, "attempt": job.attempt}
"""


@needs_serving
class SimulateTest(unittest.TestCase):
    def setUp(self):
        self.folder = temp_folder(self)
        (self.folder / "slow.py").write_text(SLOW_APP)

    def test_jobs_queue_report_progress_finish_and_cancel_inside_the_function(self):
        with Served(self.folder, "slow:app", "--simulate") as served:
            short = call(
                "POST",
                f"{served.url}/v1/jobs",
                json_body={"endpoint": "/steps", "input": {"n": 3}},
                headers={"Prefer": "wait=20"},
            ).json()
            self.assertEqual((short["status"], short["result"]), ("FINISHED", {"steps": 3, "attempt": 1}))

            job = call("POST", f"{served.url}/v1/jobs", json_body={"endpoint": "/steps", "input": {"n": 400}}).json()
            self.assertIn(job["status"], ("QUEUED", "PROCESSING"))
            seen = until(
                lambda: (lambda j: j if (j["message"] or "").startswith("step") and j["progress"] > 0 else None)(
                    call("GET", f"{served.url}/v1/jobs/{job['job_id']}").json()
                ),
                20,
                "progress from the function",
            )
            self.assertEqual(seen["status"], "PROCESSING")
            cancelled = call("POST", f"{served.url}/v1/jobs/{job['job_id']}/cancel").json()
            self.assertEqual(cancelled["status"], "CANCELLED")
            marker = self.folder / "cancelled.txt"
            self.assertEqual(
                until(lambda: marker.exists() and marker.read_text(), 20, "Cancelled in the function"),
                "the job was cancelled",
            )

            bad = call(
                "POST",
                f"{served.url}/v1/jobs",
                json_body={"endpoint": "/steps", "input": {"n": "many"}},
                headers={"Prefer": "wait=20"},
            ).json()
            self.assertEqual(bad["status"], "FAILED")
            self.assertIn("The service answered 422", bad["error"]["message"])
            self.assertEqual(call("POST", f"{served.url}/v1/jobs", json_body={"input": {}}).status, 422)


if MISSING is not None:
    print(f"limelight serve tests skipped: {MISSING}", file=sys.stderr)
