"""A limelight.yaml that cannot be used is refused in one line naming the line and column (its
syntax) or the field (its meaning), exit status 2, never a Python traceback (issue 47): `python:
["."]`, documents nested deep enough to exhaust a recursive parser, a wrong type for every field,
an unknown key (with the nearest known one suggested), a file that is not YAML or not UTF-8. Each
case goes through the CLI's main entry (`python -m limelight build`), as a publisher meets it."""

from __future__ import annotations

import unittest
from pathlib import Path

from .test_cli import limelight, temp_folder

DEEP = 20_000  # the recursion limit is 1,000


class BadProjectFileTest(unittest.TestCase):
    def refused(self, text, words: str, command: str = "build") -> None:
        folder = temp_folder(self)
        path = folder / "limelight.yaml"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        (folder / "main.py").write_text("app = None\n")
        done = limelight(command, cwd=folder)
        self.assertNotIn("Traceback", done.stderr)
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        self.assertIn(words, done.stderr)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertTrue(done.stderr.startswith(f"limelight {command}: "), done.stderr)

    def test_deep_nesting_is_refused_at_its_first_level_without_recursing(self):
        for text in [
            "name: " + "[" * DEEP + "]" * DEEP + "\n",
            "resources: " + "{a: " * DEEP + "1" + "}" * DEEP + "\n",
            "weights:\n  - " + "[" * DEEP + "\n",
        ]:
            with self.subTest(text[:20]):
                self.refused(text, "a list or mapping inside another one: limelight.yaml nests one level only")
        self.refused(
            "name: x\nresources:\n  cpu:\n    max:\n      deeper: 1\n",
            "line 3, column 3: resources.cpu needs a value (one level of nesting only)",
        )

    def test_syntax_errors_name_the_line_and_column(self):
        cases = {
            'name: ocr\ntitle: "Reader\n': 'limelight.yaml, line 2, column 8: an unterminated quoted value (close it with " on the same line)',
            "name: ocr\n\tport: 80\n": "line 2, column 1: a tab in the indentation (YAML indents with spaces)",
            "name: ocr\npython: [main.py\n": "line 2, column 9: [ opens a list that is not closed with ] on the same line",
            "name: ocr\nresources: {cpu: 1, 2}\n": "line 2, column 21: expected `key: value` inside { }, found '2'",
            "name: ocr\nthis is not yaml\n": "line 2, column 1: expected `key: value`, found 'this is not yaml'",
            "name: ocr\nname: other\n": "line 2, column 1: name is given twice (first on line 1)",
            "name: ocr\n- main.py\n": "line 2, column 1: a list item without a key above it",
            "port: ]\n": "line 1, column 7: ] closes nothing",
            b"name: ocr\ntitle: caf\xe9\n": "line 2, column 11: not UTF-8 text (byte 0xe9)",
        }
        for text, words in cases.items():
            with self.subTest(text):
                self.refused(text, words)

    def test_python_dot_is_the_whole_folder_and_paths_outside_it_are_refused(self):
        # `python: ["."]` was an IndexError from pathlib; it is the folder (less .limelightignore).
        from limelight.cli import project

        folder = temp_folder(self)
        (folder / "limelight.yaml").write_text('python: ["."]\n')
        self.assertEqual(project.load(folder).python, ["."])
        for value in ['["/etc"]', '["../elsewhere"]', "[src/../../x]", '["~/.ssh"]', '[""]']:
            with self.subTest(value):
                self.refused(f"python: {value}\n", "python: ")
        self.refused('python: ["/etc"]\n', "python: '/etc' is not inside the service's folder")
        self.refused("python: []\n", "python names the service's files (like [main.py] or [src/]), got []")

    def test_a_wrong_type_for_every_field_names_the_field(self):
        cases = {
            "name: [a, b]": 'name is the image\'s name: lowercase letters and digits, with . _ or - between them (like word-counter), got ["a", "b"]',
            "name: Big Name": "name is the image's name",
            "entry: 5": "entry is `module:attribute` (like main:app), got 5",
            "python: {a: 1}": 'python is a list of names, got {"a": 1}',
            "python: 3": "python is a list of names, got 3",
            "debian_packages: true": "debian_packages is a list of names, got true",
            'debian_packages: ["curl,evil"]': "debian_packages: 'curl,evil' is not a Debian package name",
            "weights: 7": "weights is a list of names, got 7",
            "gpu: [t4]": 'gpu is one of none, t4, a4000, a10, l4, a100, h100, got ["t4"]',
            "gpu: b200": "gpu is one of none",
            "port: true": "port is a number from 1 to 65535, got true",
            'port: "8080"': 'port is a number from 1 to 65535, got "8080"',
            "resources: [1]": "resources is a mapping like",
            "resources: {cpu: x}": 'resources.cpu is a number in steps of 0.1 from 0.1 to 32, got "x"',
            "title: [a]": 'title is a text, got ["a"]',
            "description: {a: 1}": 'description is a text, got {"a": 1}',
            "gpu_offer: true": "gpu_offer is a text, got true",
            "visibility: secret": 'visibility is public or private, got "secret"',
            "min_instances: -1": "min_instances is a whole number from 0 to 100, got -1",
            'max_instances: "2"': 'max_instances is a whole number from 1 to 1000, got "2"',
            "idle_timeout_s: 1.5": "idle_timeout_s is a whole number from 10 to 86400, got 1.5",
            "concurrency: true": "concurrency is a whole number from 1 to 64, got true",
            "min_instances: 3\nmax_instances: 2": "max_instances (2) is at least min_instances (3)",
            "port: " + "9" * 5000: "line 1, column 7: a number of 5000 digits is more than any field takes",
        }
        for text, words in cases.items():
            with self.subTest(text[:40]):
                self.refused(text + "\n", f"limelight.yaml: {words}" if "line " not in words else words)

    def test_an_unknown_key_suggests_the_nearest_known_one(self):
        self.refused("name: ocr\nmax_instance: 2\n", "line 2: no field max_instance (did you mean max_instances?")
        self.refused("nmae: ocr\n", "line 1: no field nmae (did you mean name?")
        self.refused("flavour: vanilla\n", "no field flavour (the fields are name, entry, python")

    def test_every_command_that_reads_the_file_says_the_same(self):
        for command in ("build", "push", "deploy"):
            with self.subTest(command):
                self.refused("port: true\n", "port is a number from 1 to 65535, got true", command)

    def test_the_examples_and_the_init_file_still_load(self):
        from limelight.cli import project

        repo = Path(__file__).resolve().parents[3]
        for example in ("ocr", "speech"):
            with self.subTest(example):
                self.assertEqual(project.load(repo / "examples" / example).name, example)
        folder = temp_folder(self)
        self.assertEqual(limelight("init", ".", "--name", "Word Counter", cwd=folder).returncode, 0)
        self.assertEqual(project.load(folder).name, "word-counter")


if __name__ == "__main__":
    unittest.main()
