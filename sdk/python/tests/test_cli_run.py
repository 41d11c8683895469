"""``limelight run``: inputs typed by the image's OpenAPI document, bad input in one line (exit 2),
and, with real Podman, the built image run and called as the platform calls it (a number, a
string and a file), the returned file written, and no container left. The Podman test skips,
saying why, where test_build.py's do (no root, Podman, mmdebstrap or Debian archive)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import signal
import subprocess
import sys
import unittest
import uuid
from pathlib import Path

from .serving import call
from .test_build import PODMAN_ENV, SKIP, environment
from .test_cli import SDK, Served, limelight, temp_folder

sys.path.insert(0, str(SDK))

from limelight.cli import run  # noqa: E402

# An app with a number, a string and a file input, answering a file too; a second endpoint so the
# endpoint has to be named.
MAIN = """import time

from limelight.serve import App, MediaFile

app = App(title="Mixer")


@app.endpoint("/mix")
def mix(text: str, times: int, scale: float = 1.0, loud: bool = False, upload: MediaFile = None) -> dict:
    data = upload.read() if upload is not None else b""
    said = " ".join([text.upper() if loud else text] * times)
    return {
        "said": said,
        "scaled": times * scale,
        "bytes": len(data),
        "type": upload.content_type if upload is not None else None,
        "echo": MediaFile(data[::-1] + said.encode(), content_type="text/plain"),
    }


@app.endpoint("/ping")
def ping() -> dict:
    return {"pong": True}


@app.endpoint("/slow")
def slow(seconds: float = 120) -> dict:
    time.sleep(seconds)
    return {"slept": seconds}
"""

# A document as FastAPI writes one (Optional as anyOf, a $ref'd form body with a binary field).
DOCUMENT = {
    "openapi": "3.1.0",
    "paths": {
        "/mix": {
            "post": {
                "requestBody": {
                    "content": {"multipart/form-data": {"schema": {"$ref": "#/components/schemas/Body_mix"}}}
                }
            }
        },
        "/hello": {
            "get": {
                "parameters": [
                    {"name": "name", "in": "query", "schema": {"type": "string"}},
                    {"name": "times", "in": "query", "schema": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
                ]
            }
        },
        "/jobs/{run_id}": {"get": {}},
    },
    "components": {
        "schemas": {
            "Body_mix": {
                "type": "object",
                "required": ["text", "times"],
                "properties": {
                    "text": {"type": "string"},
                    "times": {"type": "integer"},
                    "scale": {"anyOf": [{"type": "number"}, {"type": "null"}]},
                    "loud": {"type": "boolean"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "options": {"type": "object", "properties": {"a": {"type": "integer"}}},
                    "upload": {"anyOf": [{"type": "string", "format": "binary"}, {"type": "null"}]},
                },
            }
        }
    },
}


class InputParsingTest(unittest.TestCase):
    def setUp(self):
        self.endpoints = run.endpoints_of(DOCUMENT)
        self.mix = run.choose_endpoint(self.endpoints, "mix")

    def test_the_endpoints_and_their_types_are_the_platform_importers(self):
        self.assertEqual([(e.method, e.path) for e in self.endpoints], [("POST", "/mix"), ("GET", "/hello")])
        types = {p.name: (p.type, p.required) for p in self.mix.parameters}
        self.assertEqual(types["times"], ("integer", True))
        self.assertEqual(types["scale"], ("number", False))
        self.assertEqual(types["upload"], ("file", False))
        self.assertEqual(run.choose_endpoint(self.endpoints, "/hello").method, "GET")

    def test_values_are_typed_by_the_schema_like_cog(self):
        folder = temp_folder(self)
        (folder / "cat.png").write_bytes(b"\x89PNG\r\n\x1a\nimage")
        pairs = run.split_inputs(
            [
                "text=7",
                "times=3",
                "scale=0.5",
                "loud=true",
                "tags=a",
                "tags=b",
                'options={"a": 1}',
                f"upload=@{folder / 'cat.png'}",
            ]
        )
        values = run.typed_inputs(self.mix, pairs)
        self.assertEqual(values["text"], "7")  # a string stays a string, even when it looks like a number
        self.assertEqual(values["times"], 3)
        self.assertEqual(values["scale"], 0.5)
        self.assertIs(values["loud"], True)
        self.assertEqual(values["tags"], ["a", "b"])
        self.assertEqual(values["options"], {"a": 1})
        self.assertEqual(
            (values["upload"].data, values["upload"].content_type), (b"\x89PNG\r\n\x1a\nimage", "image/png")
        )
        # A file goes as an upload named as the platform names it (the input's name and the type's extension).
        _, body, headers = run.request_of(self.mix, values)
        assert body is not None
        self.assertIn(b'name="upload"; filename="upload.png"\r\nContent-Type: image/png', body)
        self.assertIn(b'name="loud"\r\n\r\ntrue\r\n', body)
        self.assertTrue(headers["Content-Type"].startswith("multipart/form-data; boundary="))
        # Without a file: JSON; a GET: the query.
        query, body, headers = run.request_of(self.mix, run.typed_inputs(self.mix, [("text", "hi"), ("times", "2")]))
        self.assertEqual(
            (json.loads(body or b""), headers), ({"text": "hi", "times": 2}, {"Content-Type": "application/json"})
        )
        hello = run.choose_endpoint(self.endpoints, "hello")
        self.assertEqual(run.request_of(hello, run.typed_inputs(hello, [("times", "2")]))[0], "times=2")

    def test_bad_input_is_one_line_naming_what_is_known(self):
        cases = [
            (lambda: run.split_inputs(["text"]), "-i 'text': give name=value"),
            (lambda: run.split_inputs(["upload=@/no/such/file.png"]), "-i upload: no file '/no/such/file.png'"),
            (
                lambda: run.typed_inputs(self.mix, [("txt", "hi")]),
                "/mix has no input 'txt': its inputs are text, times, scale, loud, tags, options, upload",
            ),
            (
                lambda: run.typed_inputs(self.mix, [("text", "hi"), ("times", "two")]),
                "-i times takes an integer, got 'two'",
            ),
            (lambda: run.typed_inputs(self.mix, [("text", "hi"), ("times", "1"), ("loud", "maybe")]), "true or false"),
            (lambda: run.typed_inputs(self.mix, [("text", "hi")]), "/mix needs times"),
            (lambda: run.typed_inputs(self.mix, [("text", "a"), ("text", "b"), ("times", "1")]), "given twice"),
            (
                lambda: run.typed_inputs(self.mix, [("text", "a"), ("times", "1"), ("upload", "cat.png")]),
                "upload=@path",
            ),
            (lambda: run.choose_endpoint(self.endpoints, "predict"), "no endpoint 'predict': it has mix, hello"),
            (lambda: run.choose_endpoint(self.endpoints, None), "name the endpoint"),
        ]
        for attempt, said in cases:
            with self.subTest(said=said), self.assertRaises(run.InputError) as caught:
                attempt()
            self.assertIn(said, str(caught.exception))
            self.assertNotIn("\n", str(caught.exception))

    def test_returned_files_are_written_inside_the_folder_and_replaced_by_their_paths(self):
        folder = temp_folder(self)
        png = base64.b64encode(b"\x89PNG fake").decode()
        said: list = []
        out = run.write_files(
            {
                "../../escape": {"content_type": "image/png", "content": png},
                "frames": [f"data:text/plain;base64,{base64.b64encode(b'one').decode()}"],
                "count": 2,
            },
            folder,
            said.append,
        )
        self.assertEqual(out["count"], 2)
        written = sorted(p.name for p in folder.iterdir())
        self.assertEqual(written, ["escape.png", "frames-0.txt"])
        self.assertEqual(Path(out["../../escape"]).read_bytes(), b"\x89PNG fake")
        self.assertEqual(Path(out["frames"][0]).read_bytes(), b"one")
        # A second run does not overwrite the first's files.
        again = run.write_files(
            {"content_type": "text/plain", "content": base64.b64encode(b"two").decode()}, folder, said.append
        )
        self.assertEqual(Path(again).name, "output.txt")
        again = run.write_files(
            {"content_type": "text/plain", "content": base64.b64encode(b"3").decode()}, folder, said.append
        )
        self.assertEqual(Path(again).name, "output-1.txt")

    def test_env_variables_reach_the_engine_by_name_never_with_their_value(self):
        # -e NAME is the platform's secrets here: the value from this environment, as docker run -e NAME.
        found = run.environment_of(["HF_TOKEN", "MODE=fast"], {"HF_TOKEN": "hf_secret", "PATH": "/bin"})
        self.assertEqual(found, {"HF_TOKEN": "hf_secret", "MODE": "fast"})
        command = run.start_command("podman", "img", "c1", 4000, 8080, list(found))
        at = command.index("HF_TOKEN")
        self.assertEqual((command[at - 1], command[command.index("MODE") - 1]), ("-e", "-e"))
        self.assertFalse(any("hf_secret" in part or "fast" in part for part in command), command)
        for pairs, words in [
            (["HF_TOKEN"], "-e HF_TOKEN is not set here: export HF_TOKEN=… first, or give -e HF_TOKEN=VALUE"),
            (["hf_token=x"], "-e hf_token: capital letters, digits and _"),
            (["PORT=9"], "-e PORT is set by the platform"),
        ]:
            with self.assertRaises(run.InputError) as caught:
                run.environment_of(pairs, {})
            self.assertIn(words, str(caught.exception))
        folder = temp_folder(self)
        unset = limelight("run", "-e", "NOT_SET_ANYWHERE_X", "-i", "text=hi", cwd=folder)
        self.assertEqual(
            (unset.returncode, unset.stderr.strip()),
            (
                2,
                "limelight run: -e NOT_SET_ANYWHERE_X is not set here: export NOT_SET_ANYWHERE_X=… first, or give -e NOT_SET_ANYWHERE_X=VALUE",
            ),
        )

    def test_the_command_says_bad_input_before_starting_anything_and_exits_2(self):
        folder = temp_folder(self)
        missing = limelight("run", "mix", "-i", "upload=@nowhere.png", cwd=folder)
        self.assertEqual(missing.returncode, 2, missing.stderr)
        self.assertEqual(missing.stderr.strip(), "limelight run: -i upload: no file 'nowhere.png'")
        nothing = limelight("run", "-i", "text=hi", cwd=folder)
        self.assertEqual(nothing.returncode, 2, nothing.stderr)
        self.assertIn("no limelight.yaml here", nothing.stderr)


def _run_containers() -> set:
    listed = subprocess.run(
        ["podman", "ps", "-a", "--filter", "name=limelight-run-", "--format", "{{.Names}}"],
        capture_output=True,
        text=True,
        env=PODMAN_ENV,
    )
    return set(listed.stdout.split())


@unittest.skipIf(bool(SKIP), SKIP)
class RunImageTest(unittest.TestCase):
    """One small app built once; each test runs it."""

    @classmethod
    def setUpClass(cls):
        holder = Path(__import__("tempfile").mkdtemp(prefix="limelight-run-test-"))
        cls.folder = holder
        cls.name = f"limelight-run-test-{uuid.uuid4().hex[:8]}"
        (holder / "main.py").write_text(MAIN)
        (holder / "limelight.yaml").write_text(f"name: {cls.name}\nentry: main:app\n")
        with environment({"CONTAINERS_CONF": PODMAN_ENV["CONTAINERS_CONF"]}):
            built = limelight("build", cwd=holder, timeout=1800)
        if built.returncode != 0:
            raise AssertionError(built.stdout + built.stderr)

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["podman", "rmi", "-f", f"localhost/{cls.name}:latest"], capture_output=True, env=PODMAN_ENV)
        subprocess.run(["rm", "-rf", str(cls.folder)])

    def limelight_run(self, *args: str, cwd=None):
        with environment({"CONTAINERS_CONF": PODMAN_ENV["CONTAINERS_CONF"]}):
            return limelight("run", *args, cwd=cwd or self.folder, timeout=300)

    def test_a_number_a_string_and_a_file_give_the_apps_answer_and_the_file_is_written(self):
        before = _run_containers()
        upload = temp_folder(self) / "note.txt"
        upload.write_bytes(b"hello file")
        output = temp_folder(self)
        done = self.limelight_run(
            "mix",
            "-i",
            "text=hi",
            "-i",
            "times=3",
            "-i",
            "loud=true",
            "-i",
            f"upload=@{upload}",
            "--output",
            str(output),
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        printed = json.loads(done.stdout)

        # The same app served on this machine, called with the same upload: the same answer.
        with Served(self.folder) as served:
            form = {"text": "hi", "times": "3", "loud": "true", "upload": (b"hello file", "text/plain", "upload.txt")}
            direct = call("POST", f"{served.url}/mix", form=form).json()
        echo = printed.pop("echo")
        self.assertEqual(printed, {k: v for k, v in direct.items() if k != "echo"})
        self.assertEqual(printed, {"said": "HI HI HI", "scaled": 3.0, "bytes": 10, "type": "text/plain"})
        self.assertEqual(Path(echo).parent, output)
        self.assertEqual(Path(echo).read_bytes(), b"elif olleh" + b"HI HI HI")
        self.assertEqual(
            hashlib.sha256(Path(echo).read_bytes()).hexdigest(),
            hashlib.sha256(base64.b64decode(direct["echo"]["content"])).hexdigest(),
        )
        self.assertIn(f"wrote {echo}", done.stderr)
        self.assertEqual(_run_containers(), before)

    def test_an_unknown_endpoint_or_input_exits_2_naming_the_known_ones_and_leaves_no_container(self):
        before = _run_containers()
        unknown = self.limelight_run("predict", "-i", "text=hi")
        self.assertEqual(unknown.returncode, 2, unknown.stderr)
        self.assertIn("the image has no endpoint 'predict': it has mix, ping, slow", unknown.stderr)
        wrong = self.limelight_run("mix", "-i", "txt=hi")
        self.assertEqual(wrong.returncode, 2, wrong.stderr)
        self.assertIn("/mix has no input 'txt': its inputs are text, times, scale, loud, upload", wrong.stderr)
        # --image, from another folder: the app's own validation error is the run's, exit 1.
        refused = self.limelight_run(
            "mix",
            "-i",
            "text=hi",
            "-i",
            "times=1",
            "-i",
            "scale=x",
            "--image",
            f"localhost/{self.name}:latest",
            cwd=temp_folder(self),
        )
        self.assertEqual(refused.returncode, 2, refused.stderr)
        self.assertIn("-i scale takes a number, got 'x'", refused.stderr)
        self.assertEqual(_run_containers(), before)

    def test_a_run_past_the_apps_answer_time_is_followed_job_style_to_its_output(self):
        done = self.limelight_run("slow", "-i", "seconds=3")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(json.loads(done.stdout), {"slept": 3})
        self.assertIn("progress 0%", done.stderr)  # the 202 answer's progress, then the status URL's

    def test_ctrl_c_while_the_endpoint_runs_removes_the_container(self):
        before = _run_containers()
        env = {
            **os.environ,
            "PYTHONPATH": str(SDK),
            "PYTHONUNBUFFERED": "1",
            "CONTAINERS_CONF": PODMAN_ENV["CONTAINERS_CONF"],
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "limelight", "run", "slow"],
            cwd=self.folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert process.stderr is not None
            lines = []
            for line in process.stderr:  # the call is under way once it says so
                lines.append(line)
                if line.startswith("calling "):
                    break
            self.assertEqual(lines[-1], "calling POST /slow\n", "".join(lines))
            self.assertEqual(len(_run_containers() - before), 1)
            process.send_signal(signal.SIGINT)
            self.assertEqual(process.wait(60), 130)
            self.assertIn("interrupted", process.stderr.read())
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
        self.assertEqual(_run_containers(), before)


if __name__ == "__main__":
    unittest.main()
