"""Python packages in the image (docs/publishing.md, "Python packages"): limelight.yaml's
``python_packages`` / ``python_requirements`` / ``pip_index_url`` are checked in one line (exit 2),
and a wheel built here, offline, is installed by pip in a layer of its own that a code change
keeps without running pip again. The image tests skip, saying why, as test_build.py's do."""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest
import uuid
from pathlib import Path

from .serving import call, until
from .test_build import PODMAN_ENV, SKIP, podman
from .test_cli import free_port, limelight, temp_folder

SDK = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SDK))

from limelight.cli import build, project  # noqa: E402

HATCHLING = importlib.util.find_spec("hatchling") is not None


def make_wheel(into: Path, marker: str, name: str = "tinygreet", needs: str = "") -> str:
    """A tiny wheel (``tinygreet`` by default) built offline (pip wheel, no index, no build
    isolation: Debian's hatchling); its greeting carries ``marker`` so each test's wheel differs,
    ``needs`` is a requirement it depends on. Answers its file name."""
    with tempfile.TemporaryDirectory() as source:
        package = Path(source) / "src" / name
        package.mkdir(parents=True)
        (package / "__init__.py").write_text(f"def greet(name):\n    return 'hello ' + name + ' ({marker})'\n")
        (Path(source) / "pyproject.toml").write_text(
            '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n'
            f'[project]\nname = "{name}"\nversion = "1.0"\ndependencies = [{json.dumps(needs) if needs else ""}]\n'
        )
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-build-isolation",
                "--no-deps",
                "--no-index",
                "-w",
                str(into),
                source,
            ],
            check=True,
            capture_output=True,
        )
    return Path(glob.glob(str(into / f"{name}-1.0-*.whl"))[0]).name


def write(folder: Path, yaml: str, files: dict = {}) -> Path:  # noqa: B006 (read only)
    (folder / "limelight.yaml").write_text(textwrap.dedent(yaml))
    (folder / "main.py").write_text("app = None\n")
    for name, content in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    return folder


class FieldTest(unittest.TestCase):
    def refused(self, yaml: str, pattern: str, files: dict = {}) -> None:  # noqa: B006
        folder = write(temp_folder(self), yaml, files)
        with self.assertRaises(project.ProjectError) as caught:
            project.load(folder)
        self.assertRegex(str(caught.exception), pattern)
        self.assertNotIn("\n", str(caught.exception))

    def test_options_urls_and_malformed_requirements_are_refused(self):
        self.refused('python_packages: ["--index-url http://evil.example/simple"]', r"is a pip option")
        self.refused('python_packages: ["-e ."]', r"is a pip option")
        self.refused('python_packages: ["evil @ https://evil.example/evil.whl"]', r"URLs are not taken")
        self.refused('python_packages: ["numpy>=1.26 --hash=sha256:00"]', r"not a requirement")
        self.refused('python_packages: ["numpy; python_version > 3 | sh"]', r"not a requirement")
        self.refused("python_packages: 3", r"python_packages is a list of names")

    def test_local_files_must_be_wheels_or_sdists_inside_the_folder(self):
        self.refused('python_packages: ["../outside-1.0-py3-none-any.whl"]', r"not inside the service's folder")
        self.refused('python_packages: ["/tmp/x-1.0-py3-none-any.whl"]', r"not inside the service's folder")
        self.refused('python_packages: ["./wheels/missing-1.0-py3-none-any.whl"]', r"is not a file in")
        self.refused('python_packages: ["./src/pkg"]', r"not a wheel \(\.whl\) or source distribution")

    def test_the_requirements_file_must_exist_and_each_line_is_checked(self):
        self.refused("python_requirements: requirements.txt", r"python_requirements: 'requirements.txt' is not a file")
        self.refused("python_requirements: ../requirements.txt", r"not inside the service's folder")
        self.refused(
            "python_requirements: requirements.txt",
            r"^requirements.txt, line 3: '--extra-index-url http://evil.example' is a pip option",
            {"requirements.txt": "# pinned\nrequests==2.31.0\n--extra-index-url http://evil.example\n"},
        )

    def test_the_index_is_an_http_url_without_credentials(self):
        self.refused("pip_index_url: ftp://mirror.example/simple", r"pip_index_url is an http\(s\) URL")
        self.refused("pip_index_url: https://user:secret@mirror.example/simple", r"without credentials")
        self.assertEqual(project.load(write(temp_folder(self), "name: x\n")).pip_index_url, "https://pypi.org/simple")

    def test_packages_then_requirement_lines_with_local_files_as_paths_from_the_folder(self):
        folder = write(
            temp_folder(self),
            """\
            python_packages: ["requests[socks]==2.31.0", 'numpy>=1.26; python_version >= "3.9"', wheels/a-1.0-py3-none-any.whl]
            python_requirements: deps/requirements.txt
            pip_index_url: http://mirror.example:3141/simple
            """,
            {
                "wheels/a-1.0-py3-none-any.whl": b"a",
                "deps/requirements.txt": "pillow ~= 10.0  # images\n\n./wheels/b-2.0.tar.gz\n",
                "wheels/b-2.0.tar.gz": b"b",
            },
        )
        loaded = project.load(folder)
        self.assertEqual(
            loaded.python_packages,
            [
                "requests[socks]==2.31.0",
                'numpy>=1.26; python_version >= "3.9"',
                "./wheels/a-1.0-py3-none-any.whl",
                "pillow ~= 10.0",
                "./wheels/b-2.0.tar.gz",
            ],
        )
        self.assertEqual(loaded.pip_index_url, "http://mirror.example:3141/simple")
        self.assertIn("python3-pip", build.base_packages(loaded))

    def test_the_cli_says_it_in_one_line_and_exits_2(self):
        folder = write(temp_folder(self), 'name: x\npython_packages: ["-r /etc/passwd"]\n')
        done = limelight("build", cwd=folder)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertIn("is a pip option", done.stderr)

    def test_the_layer_key_follows_the_requirements_wheels_and_index_not_the_code(self):
        folder = write(
            temp_folder(self),
            "name: x\npython_packages: [./w/a-1.0-py3-none-any.whl]\n",
            {"w/a-1.0-py3-none-any.whl": b"one"},
        )

        def key() -> str:
            with tempfile.TemporaryDirectory() as staging:
                return build.stage_python_packages(project.load(folder), Path(staging)) or ""

        first = key()
        self.assertRegex(first, r"^localhost/limelight-python:[0-9a-f]{16}$")
        (folder / "main.py").write_text("app = 'changed'\n")
        self.assertEqual(key(), first)
        (folder / "w/a-1.0-py3-none-any.whl").write_bytes(b"two")
        second = key()
        self.assertNotEqual(second, first)
        with open(folder / "limelight.yaml", "a") as yaml:
            yaml.write("pip_index_url: http://mirror.example/simple\n")
        self.assertEqual(key(), second)  # every package is a file: no index is read
        with open(folder / "limelight.yaml", "a") as yaml:
            yaml.write("python_requirements: r.txt\n")
        (folder / "r.txt").write_text("requests\n")
        third = key()
        self.assertNotEqual(third, second)
        (folder / "limelight.yaml").write_text(
            (folder / "limelight.yaml").read_text().replace("mirror.example", "other.example")
        )
        self.assertNotEqual(key(), third)
        self.assertIsNone(build.stage_python_packages(project.load(write(temp_folder(self), "name: x\n")), folder))

    def test_wheels_beside_a_named_one_are_staged_and_keyed_too(self):
        folder = write(
            temp_folder(self),
            "name: x\npython_packages: [./w/a-1.0-py3-none-any.whl]\n",
            {"w/a-1.0-py3-none-any.whl": b"one", "w/b-1.0.tar.gz": b"b", "w/notes.txt": "n"},
        )
        with tempfile.TemporaryDirectory() as staging:
            first = build.stage_python_packages(project.load(folder), Path(staging))
            staged = sorted(p.name for p in (Path(staging) / "python" / "files" / "w").iterdir())
            self.assertEqual(staged, ["a-1.0-py3-none-any.whl", "b-1.0.tar.gz"])
        (folder / "w/b-1.0.tar.gz").write_bytes(b"b2")
        with tempfile.TemporaryDirectory() as staging:
            self.assertNotEqual(build.stage_python_packages(project.load(folder), Path(staging)), first)

    def test_a_wheel_the_ignore_rules_leave_out_is_an_error(self):
        folder = write(
            temp_folder(self),
            "name: x\npython_packages: [./w/a-1.0-py3-none-any.whl]\n",
            {"w/a-1.0-py3-none-any.whl": b"one", ".limelightignore": "w/\n"},
        )
        with (
            tempfile.TemporaryDirectory() as staging,
            self.assertRaisesRegex(
                build.BuildError, r"w/a-1.0-py3-none-any.whl is left out by the default excludes or .limelightignore"
            ),
        ):
            build.stage_python_packages(project.load(folder), Path(staging))


@unittest.skipIf(bool(SKIP) or not HATCHLING, SKIP or "building the test wheel needs hatchling (python3-hatchling)")
class ImageTest(unittest.TestCase):
    def test_a_local_wheel_is_installed_offline_in_a_layer_a_code_change_keeps(self):
        folder = temp_folder(self)
        marker = uuid.uuid4().hex[:8]
        wheel = make_wheel(folder / "wheels", marker)
        (folder / "limelight.yaml").write_text(
            f"name: greeter\npython: [main.py]\npython_packages: [./wheels/{wheel}]\nport: 8080\n"
        )
        (folder / "main.py").write_text(
            "import tinygreet\nfrom limelight.serve import App\n\napp = App(title='Greeter')\n\n\n"
            "@app.endpoint('/greet', time_limit_s=30)\ndef greet(name: str = 'world') -> dict:\n"
            "    return {'greeting': tinygreet.greet(name)}\n"
        )
        name = f"localhost/limelight-pip-test-{marker}"
        images = [f"{name}:1", f"{name}:2"]
        self.addCleanup(lambda: subprocess.run(["podman", "rmi", "-f", *images], capture_output=True))

        first = limelight("build", "--tag", f"{name}:1", cwd=folder, timeout=1800)
        self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
        ran = re.search(r"python packages (localhost/limelight-python:\w+): pip installs 1 requirement from "
                        r"the folder's files only, no network", first.stdout)  # fmt: skip
        self.assertIsNotNone(ran, first.stdout)
        assert ran is not None
        images.append(ran.group(1))
        with open(folder / "main.py", "a") as main:
            main.write("\n# a code change\n")
        second = limelight("build", "--tag", f"{name}:2", cwd=folder, timeout=600)
        self.assertEqual(second.returncode, 0, second.stdout + second.stderr)
        # pip did not run again: the packages' image was reused as it was.
        self.assertIn(f"python packages {ran.group(1)} (cached)", second.stdout)
        self.assertNotIn("pip installs", second.stdout)

        layers = [
            json.loads(podman("image", "inspect", "--format", "{{json .RootFS.Layers}}", image)) for image in images[:2]
        ]
        # base, the Python packages, the limelight package: the same layers; the code: a new one on top.
        self.assertEqual(len(layers[0]), 4)
        self.assertEqual(layers[0][:3], layers[1][:3])
        self.assertNotEqual(layers[0][3], layers[1][3])

        # The package imports with no network, from Debian's /usr/local dist-packages.
        where = podman(
            "run", "--rm", "--network", "none", "--entrypoint", "python3", f"{name}:2",
            "-c", "import tinygreet; print(tinygreet.__file__)",
        )  # fmt: skip
        self.assertEqual(where.strip(), "/usr/local/lib/python3.11/dist-packages/tinygreet/__init__.py")

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
        answer = call("POST", f"{url}/greet", json_body={"name": "ada"})
        self.assertEqual(answer.json(), {"greeting": f"hello ada ({marker})"})

    def test_a_dependency_beside_a_named_wheel_is_found_offline_through_a_requirements_file(self):
        folder = temp_folder(self)
        marker = uuid.uuid4().hex[:8]
        make_wheel(folder / "vendor" / "wheels", marker)  # not named: found beside tinyapp's wheel
        app = make_wheel(folder / "vendor" / "wheels", marker, name="tinyapp", needs="tinygreet==1.0")
        (folder / "requirements.txt").write_text(f"# ours\n./vendor/wheels/{app}\n")
        (folder / "limelight.yaml").write_text("name: app\npython_requirements: requirements.txt\n")
        (folder / "main.py").write_text("app = None\n")
        tag = f"localhost/limelight-pip-test-{marker}:1"
        images = [tag]
        self.addCleanup(lambda: subprocess.run(["podman", "rmi", "-f", *images], capture_output=True))
        done = limelight("build", "--tag", tag, cwd=folder, timeout=1800)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        images += re.findall(r"python packages (localhost/limelight-python:\w+)", done.stdout)
        found = podman(
            "run", "--rm", "--network", "none", "--entrypoint", "python3", tag,
            "-c", "import tinyapp, tinygreet; print(tinygreet.greet('x'))",
        )  # fmt: skip
        self.assertEqual(found.strip(), f"hello x ({marker})")

    def test_what_pip_says_when_it_fails_ends_the_error_and_the_exit_is_1(self):
        folder = temp_folder(self)
        (folder / "wheels").mkdir()
        broken = f"broken{uuid.uuid4().hex[:8]}-1.0-py3-none-any.whl"
        (folder / "wheels" / broken).write_bytes(b"not a zip file")
        (folder / "limelight.yaml").write_text(f"name: broken\npython_packages: [./wheels/{broken}]\n")
        (folder / "main.py").write_text("app = None\n")
        tag = f"localhost/limelight-pip-test-{uuid.uuid4().hex[:8]}:1"
        self.addCleanup(lambda: subprocess.run(["podman", "rmi", "-f", tag], capture_output=True))
        done = limelight("build", "--tag", tag, cwd=folder, timeout=1800)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("pip could not install the Python packages of limelight.yaml", done.stderr)
        self.assertRegex(done.stderr, rf"ERROR: .*{broken}")
        self.assertNotIn("Traceback", done.stderr)
        self.assertFalse(any(p.name.startswith(".limelight-build-") for p in folder.iterdir()))
        self.assertFalse(os.path.exists(folder / "Containerfile.python"))


if __name__ == "__main__":
    unittest.main()
