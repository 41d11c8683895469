"""What `limelight build` leaves out of the image: `.limelightignore` in .dockerignore syntax (`*`,
`**`, `?`, classes, `!`, comments, the last match deciding, a folder taking what is under it), the
default excludes that apply without the file (`.env*`, `.git`, keys, caches), a `!` in the file
bringing a default-excluded file back, and the build context holding only what is let through,
with one line saying what the defaults left out. The image built from such a folder is checked
with real Podman in test_build.py."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

from .test_cli import limelight, temp_folder

SDK = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SDK))

from limelight.cli import build, ignore, project  # noqa: E402


def files_under(folder: Path) -> list:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


class MatcherTest(unittest.TestCase):
    def test_dockerignore_syntax(self):
        rules = ignore.Ignore(
            [
                "# a comment, then a blank line",
                "",
                "*.log",  # at the top only, as in .dockerignore
                "/build/",  # a leading / and a trailing / change nothing
                "data/**/*.csv",
                "**/tmp?",
                "notes/[a-c]*.txt",
                "docs",
                "!docs/README.md",
                "cache/",
                "!cache/keep",
                "cache/keep/secret",
            ]
        )
        cases = {
            "app.log": True,
            "src/app.log": False,
            "build/x/y.py": True,
            "builder.py": False,
            "data/a.csv": True,
            "data/x/y/z.csv": True,
            "data/a.json": False,
            "tmp1": True,
            "src/tmpA/file.py": True,
            "tmp12": False,
            "notes/b-list.txt": True,
            "notes/d-list.txt": False,
            "docs/guide.md": True,
            "docs/README.md": False,
            "cache/a": True,
            "cache/keep/file": False,
            "cache/keep/secret": True,
            "main.py": False,
        }
        for path, left_out in cases.items():
            with self.subTest(path):
                self.assertEqual(rules.excludes(path), left_out)

    def test_the_defaults_apply_without_a_file_anywhere_in_the_tree(self):
        rules = ignore.Ignore()
        for path in [
            ".env",
            "src/.env",
            ".env.production",
            "config/.env.local",
            ".git/config",
            "lib/.hg/store/data",
            ".svn/entries",
            "server.pem",
            "certs/tls.key",
            "id_rsa",
            "keys/id_ed25519.pub",
            "home/.ssh/known_hosts",
            "pkg/__pycache__/main.cpython-311.pyc",
            ".venv/bin/python",
            "venv/lib/site.py",
            "web/node_modules/left-pad/index.js",
            ".limelight/pushed.json",
        ]:
            with self.subTest(path):
                self.assertTrue(rules.excludes(path))
        for path in ["main.py", "environment.py", "src/env/settings.py", "keyboard.py", "models/weights.bin"]:
            with self.subTest(path):
                self.assertFalse(rules.excludes(path))

    def test_a_bang_in_the_file_brings_a_default_excluded_file_back(self):
        rules = ignore.Ignore(["!.env.example", "!certs/ca.pem"])
        self.assertFalse(rules.excludes(".env.example"))
        self.assertFalse(rules.excludes("certs/ca.pem"))
        self.assertTrue(rules.excludes(".env"))
        self.assertTrue(rules.excludes("certs/server.pem"))

    def test_a_bad_pattern_is_refused_naming_its_line(self):
        with self.assertRaisesRegex(project.ProjectError, r"\.limelightignore, line 2: .*\[ class that is not closed"):
            ignore.Ignore(["*.log", "data/[abc"])


class ContextTest(unittest.TestCase):
    def service(self, python: str, ignore_file: str = "") -> Path:
        folder = temp_folder(self)
        (folder / "limelight.yaml").write_text(f"name: svc\npython: {python}\nweights: [models]\n")
        for path, text in {
            "main.py": "app = None\n",
            "src/util.py": "",
            "src/.env": "API_TOKEN=secret\n",
            ".env": "DATABASE_URL=postgres://u:p@db/x\n",
            ".env.example": "DATABASE_URL=\n",
            "deploy.pem": "-----BEGIN PRIVATE KEY-----\n",
            ".ssh/id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----\n",
            ".git/config": "[core]\n",
            "src/__pycache__/util.cpython-311.pyc": "",
            "models/model.bin": "weights",
            "notes.txt": "draft\n",
        }.items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text)
        if ignore_file:
            (folder / ".limelightignore").write_text(ignore_file)
        return folder

    def stage(self, folder: Path) -> tuple:
        staging = temp_folder(self)
        lines: list = []
        build.stage_context(project.load(folder), staging, lines.append)
        return files_under(staging / "app"), files_under(staging / "weights"), lines

    def test_the_whole_folder_less_the_defaults_and_the_file(self):
        folder = self.service('["."]', "# drafts stay here\nnotes.txt\n!.env.example\n")
        app, weights, lines = self.stage(folder)
        self.assertEqual(
            app, [".env.example", ".limelightignore", "limelight.yaml", "main.py", "src/util.py"]
        )  # the weights stay in their own layer, not again in the code's
        self.assertEqual(weights, ["models/model.bin"])
        self.assertEqual(len(lines), 1, lines)
        self.assertRegex(
            lines[0],
            r"^left out 6 files by default \(\.env, \.git/, \.ssh/, deploy\.pem, src/\.env, …\): "
            r"a line !<path> in \.limelightignore brings one back",
        )

    def test_a_folder_named_in_python_loses_its_env_file_without_any_ignore_file(self):
        # issue 47: `python: [src]` shipped src/.env
        app, _, lines = self.stage(self.service("[main.py, src]"))
        self.assertEqual(app, ["main.py", "src/util.py"])
        self.assertEqual(lines, [lines[0]])
        self.assertIn("left out 2 files by default (src/.env, src/__pycache__/)", lines[0])

    def test_the_same_folder_gives_the_same_context_and_says_nothing_when_nothing_is_left_out(self):
        folder = self.service("[main.py]")
        self.assertEqual(self.stage(folder), self.stage(folder))
        self.assertEqual(self.stage(folder)[2], [])

    def test_a_pattern_whose_every_file_is_left_out_is_refused(self):
        done = limelight("build", cwd=self.service("[main.py, .env]"))
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertIn(
            "python: everything '.env' names is left out by the default excludes or .limelightignore", done.stderr
        )
        self.assertNotIn("Traceback", done.stderr)


if __name__ == "__main__":
    unittest.main()
