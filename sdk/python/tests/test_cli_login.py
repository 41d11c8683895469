"""`limelight login`, `logout`, `whoami` and `secrets` against the real platform server (tests/server.py):
the key checked and saved 0600 in the config folder, used by every command, LIMELIGHT_API_KEY
winning over it, never sent to another platform; secrets set from standard input, listed by name,
removed, their value in no output (docs/publishing.md, "Signing in" and "Secrets")."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest
import urllib.request
from pathlib import Path
from typing import Dict, Optional

from tests.server import platform

SDK = Path(__file__).resolve().parents[1]


class Cli(unittest.TestCase):
    def setUp(self) -> None:
        holder = tempfile.TemporaryDirectory()
        self.addCleanup(holder.cleanup)
        self.root = Path(holder.name)
        self.home = self.root / "home"
        self.config = self.root / "config"
        self.folder = self.root / "work"
        for path in (self.home, self.folder):
            path.mkdir()
        self.server = platform()

    def cli(self, *args: str, stdin: str = "", env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
        """`limelight …` in a clean environment: no LIMELIGHT_* or LIME_* of the caller's, its own HOME and XDG_CONFIG_HOME."""
        clean = {k: v for k, v in os.environ.items() if not k.startswith(("LIMELIGHT_", "LIME_", "XDG_CONFIG_HOME"))}
        clean.update({"PYTHONPATH": str(SDK), "HOME": str(self.home), "XDG_CONFIG_HOME": str(self.config)})
        clean.update(env or {})
        return subprocess.run(
            [sys.executable, "-m", "limelight", *args],
            cwd=self.folder,
            env={k: v for k, v in clean.items() if v is not None},
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )

    def login(self, key: Optional[str] = None) -> subprocess.CompletedProcess:
        return self.cli(
            "login", "--with-token", "--base-url", self.server["url"], stdin=(key or self.server["apiKey"]) + "\n"
        )

    @property
    def saved(self) -> Path:
        return self.config / "limelight" / "credentials.json"


class Login(Cli):
    def test_login_checks_and_saves_the_key_0600_and_whoami_uses_it(self) -> None:
        done = self.login()
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"signed in to {self.server['url']} as {self.server['email']}", done.stdout)
        self.assertNotIn(self.server["apiKey"], done.stdout + done.stderr)
        self.assertEqual(stat.S_IMODE(self.saved.stat().st_mode), 0o600)
        self.assertEqual(stat.S_IMODE(self.saved.parent.stat().st_mode), 0o700)
        self.assertEqual(
            json.loads(self.saved.read_text()),
            {"api_key": self.server["apiKey"], "base_url": self.server["url"], "email": self.server["email"]},
        )
        # No LIMELIGHT_* at all: the saved key and URL sign in.
        me = self.cli("whoami")
        self.assertEqual(me.returncode, 0, me.stderr)
        self.assertEqual(
            me.stdout.splitlines(), [self.server["email"], f"platform: {self.server['url']}", f"key: from {self.saved}"]
        )

    def test_a_refused_key_is_not_saved(self) -> None:
        done = self.login("lime_not-a-real-key")
        self.assertEqual(done.returncode, 1)
        self.assertIn("refuses the key (mistyped, expired or deleted?)", done.stderr)
        self.assertFalse(self.saved.exists())

    def test_the_key_comes_from_stdin_or_a_terminal_never_an_argument(self) -> None:
        empty = self.cli("login", "--with-token", "--base-url", self.server["url"], stdin="\n")
        self.assertEqual(
            (empty.returncode, empty.stderr.strip()), (1, "limelight login: no API key given on standard input")
        )
        no_terminal = self.cli("login", "--base-url", self.server["url"], stdin=self.server["apiKey"])
        self.assertEqual(no_terminal.returncode, 1)
        self.assertIn("not a terminal to ask on: pipe the key in with --with-token", no_terminal.stderr)
        self.assertEqual(self.cli("login", self.server["apiKey"]).returncode, 2)
        bad_url = self.cli("login", "--with-token", "--base-url", "localhost:3000", stdin="lime_x")
        self.assertIn("--base-url: give the platform's URL, http:// or https://", bad_url.stderr)
        self.assertFalse(self.saved.exists())

    def test_the_environment_key_wins_and_the_saved_key_stays_on_its_platform(self) -> None:
        self.assertEqual(self.login().returncode, 0)
        # LIMELIGHT_API_KEY wins over the saved key, even when it is wrong.
        env_wins = self.cli("whoami", env={"LIMELIGHT_API_KEY": "lime_wrong"})
        self.assertEqual(env_wins.returncode, 1)
        self.assertIn("refuses the key", env_wins.stderr)
        self.assertIn("the key from LIMELIGHT_API_KEY", env_wins.stderr)
        right = self.cli("whoami", env={"LIMELIGHT_API_KEY": self.server["apiKey"]})
        self.assertIn("key: from LIMELIGHT_API_KEY", right.stdout)
        # Another platform never gets the saved key.
        elsewhere = self.cli("whoami", env={"LIMELIGHT_BASE_URL": "http://127.0.0.1:9"})
        self.assertEqual(elsewhere.returncode, 1)
        self.assertIn(
            f"the key saved by `limelight login` is for {self.server['url']}, not LIMELIGHT_BASE_URL=http://127.0.0.1:9",
            elsewhere.stderr,
        )

    def test_logout_deletes_it(self) -> None:
        self.assertEqual(self.login().returncode, 0)
        out = self.cli("logout")
        self.assertEqual((out.returncode, out.stdout.strip()), (0, f"signed out: deleted {self.saved}"))
        self.assertFalse(self.saved.exists())
        me = self.cli("whoami")
        self.assertEqual(me.returncode, 1)
        self.assertIn("not signed in: set LIMELIGHT_API_KEY", me.stderr)
        self.assertIn("or run `limelight login`", me.stderr)
        again = self.cli("logout")
        self.assertEqual((again.returncode, again.stdout.strip()), (0, f"not signed in: no {self.saved}"))

    def test_without_xdg_config_home_the_folder_is_under_home_and_a_wide_file_is_narrowed(self) -> None:
        folder = self.home / ".config" / "limelight"
        folder.mkdir(parents=True, mode=0o755)
        folder.chmod(0o755)
        (folder / "credentials.json").write_text("{}")
        (folder / "credentials.json").chmod(0o644)
        done = self.cli(
            "login",
            "--with-token",
            "--base-url",
            self.server["url"],
            stdin=self.server["apiKey"],
            env={"XDG_CONFIG_HOME": ""},
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(stat.S_IMODE((folder / "credentials.json").stat().st_mode), 0o600)
        self.assertEqual(stat.S_IMODE(folder.stat().st_mode), 0o700)
        self.assertEqual(json.loads((folder / "credentials.json").read_text())["api_key"], self.server["apiKey"])


class Secrets(Cli):
    def setUp(self) -> None:
        super().setUp()
        request = urllib.request.Request(
            f"{self.server['url']}/v1/model_management/services",
            data=json.dumps({"display_name": f"Secrets {os.urandom(4).hex()}", "visibility": "public"}).encode(),
            headers={"Authorization": f"Bearer {self.server['apiKey']}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            self.service = json.loads(answer.read())["id"]
        self.assertEqual(self.login().returncode, 0)

    def names_on_the_platform(self) -> list:
        request = urllib.request.Request(
            f"{self.server['url']}/v1/model_management/services/{self.service}/secrets",
            headers={"Authorization": f"Bearer {self.server['apiKey']}"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return [s["name"] for s in json.loads(answer.read())["secrets"]]

    def test_set_list_rm_with_the_saved_key_and_the_value_in_no_output(self) -> None:
        value = "sk-live-" + os.urandom(8).hex()
        outputs = []
        done = self.cli("secrets", "set", "OPENAI_API_KEY", "--service", self.service, stdin=value + "\n")
        outputs.append(done)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"set OPENAI_API_KEY on service {self.service}; it takes effect on the next deploy", done.stdout)
        self.assertEqual(self.names_on_the_platform(), ["OPENAI_API_KEY"])
        listed = self.cli("secrets", "list", "--service", self.service)
        outputs.append(listed)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        lines = listed.stdout.splitlines()
        self.assertEqual(lines[0].split(), ["NAME", "UPDATED"])
        self.assertRegex(lines[1], r"^OPENAI_API_KEY  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$")
        removed = self.cli("secrets", "rm", "OPENAI_API_KEY", "--service", self.service)
        outputs.append(removed)
        self.assertIn("removed OPENAI_API_KEY", removed.stdout)
        self.assertEqual(self.names_on_the_platform(), [])
        empty = self.cli("secrets", "list", "--service", self.service)
        self.assertIn("no secrets on service", empty.stdout)
        gone = self.cli("secrets", "rm", "OPENAI_API_KEY", "--service", self.service)
        self.assertEqual(
            (gone.returncode, gone.stderr.strip()),
            (1, "limelight secrets: name: the service has no secret OPENAI_API_KEY"),
        )
        for output in outputs:
            self.assertNotIn(value, output.stdout + output.stderr)
        refused = self.cli("secrets", "list", "--service", self.service, env={"LIMELIGHT_API_KEY": "lime_deleted"})
        self.assertEqual(refused.returncode, 1)
        self.assertIn("refuses the API key (expired or deleted?): `limelight login` again", refused.stderr)

    def test_the_service_deployed_from_this_folder_is_the_default(self) -> None:
        state = self.folder / ".limelight"
        state.mkdir()
        (state / "service.json").write_text(json.dumps({"id": self.service, "base_url": self.server["url"]}))
        done = self.cli("secrets", "set", "HF_TOKEN", stdin="hf_x")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.names_on_the_platform(), ["HF_TOKEN"])
        (state / "service.json").unlink()
        nothing = self.cli("secrets", "list")
        self.assertEqual(nothing.returncode, 1)
        self.assertIn("no service deployed from this folder: run `limelight push --deploy` here first", nothing.stderr)

    def record_of(self, service_id: str) -> dict:
        request = urllib.request.Request(
            f"{self.server['url']}/v1/model_management/services/{service_id}",
            headers={"Authorization": f"Bearer {self.server['apiKey']}"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    def test_set_before_the_first_deploy_creates_the_service_from_limelight_yaml(self) -> None:
        # Code that reads a secret at setup needs it on its very first deploy: `secrets set` in a
        # folder never deployed makes the service (no image yet), which the first deploy then updates.
        nothing = self.cli("secrets", "set", "HF_TOKEN", stdin="hf_x")
        self.assertEqual(nothing.returncode, 1)
        self.assertIn("no limelight.yaml here to create one from", nothing.stderr)
        name = f"reader-{os.urandom(3).hex()}"
        self.assertEqual(self.cli("init", ".", "--name", name).returncode, 0)
        with open(self.folder / "limelight.yaml", "a") as yaml:
            yaml.write(f"title: Reader {name}\ndescription: Reads a token at setup\n")
        done = self.cli("secrets", "set", "HF_TOKEN", stdin="hf_first\n")
        self.assertEqual(done.returncode, 0, done.stderr)
        saved = json.loads((self.folder / ".limelight" / "service.json").read_text())
        self.assertEqual(saved["base_url"], self.server["url"])
        created = saved["id"]
        self.assertIn(f"created service {created} from limelight.yaml, not deployed yet", done.stdout)
        self.assertIn(f"set HF_TOKEN on service {created}", done.stdout)
        record = self.record_of(created)
        self.assertEqual(
            (record["display_name"], record["model_desc"], record["visibility"], record["endpoints"]),
            (f"Reader {name}", "Reads a token at setup", "public", []),
        )
        # Not deployed: no container runtime (this test server answers its demo runtime for none).
        self.assertNotEqual((record["runtime"] or {}).get("type"), "container")
        self.service = created  # the service names_on_the_platform reads
        self.assertEqual(self.names_on_the_platform(), ["HF_TOKEN"])
        # The next one goes to the same service; list finds it too.
        again = self.cli("secrets", "set", "OTHER_TOKEN", stdin="x")
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertNotIn("created service", again.stdout)
        self.assertEqual(self.names_on_the_platform(), ["HF_TOKEN", "OTHER_TOKEN"])
        self.assertIn("OTHER_TOKEN", self.cli("secrets", "list").stdout)
        # The recorded service deleted since: set makes a new one rather than failing on it.
        request = urllib.request.Request(
            f"{self.server['url']}/v1/model_management/services/{created}",
            headers={"Authorization": f"Bearer {self.server['apiKey']}"},
            method="DELETE",
        )
        urllib.request.urlopen(request, timeout=30).close()
        anew = self.cli("secrets", "set", "HF_TOKEN", stdin="hf_second")
        self.assertEqual(anew.returncode, 0, anew.stderr)
        self.service = json.loads((self.folder / ".limelight" / "service.json").read_text())["id"]
        self.assertNotEqual(self.service, created)
        self.assertIn(f"created service {self.service} from limelight.yaml", anew.stdout)
        self.assertEqual(self.names_on_the_platform(), ["HF_TOKEN"])
        for output in (done, again, anew):
            self.assertNotIn("hf_first", output.stdout + output.stderr)

    def test_bad_names_and_values_are_refused_before_any_call(self) -> None:
        for name, words in [
            ("openai_key", "capital letters, digits and _"),
            ("PORT", "PORT is set by the platform"),
            ("LIMELIGHT_TOKEN", "LIMELIGHT_* are reserved"),
            ("A" * 65, "at most 64 characters"),
        ]:
            done = self.cli("secrets", "set", name, "--service", self.service, stdin="x")
            self.assertEqual(done.returncode, 1, name)
            self.assertIn(words, done.stderr)
        empty = self.cli("secrets", "set", "EMPTY", "--service", self.service, stdin="\n")
        self.assertEqual(empty.returncode, 1)
        self.assertIn("empty value for EMPTY", empty.stderr)
        # The value is never an argument.
        argument = self.cli("secrets", "set", "TOKEN", "sk-live-on-the-command-line", "--service", self.service)
        self.assertEqual(argument.returncode, 2)
        self.assertEqual(self.names_on_the_platform(), [])
        # A multi-line value keeps its inner lines; only the final line break goes.
        pem = "-----BEGIN KEY-----\nabc\n-----END KEY-----\n"
        self.assertEqual(self.cli("secrets", "set", "PEM", "--service", self.service, stdin=pem).returncode, 0)


class ValueReading(unittest.TestCase):
    def test_one_final_line_break_goes(self) -> None:
        import io

        from limelight.cli.secrets import read_value

        self.assertEqual(read_value("X", io.StringIO("v\n")), "v")
        self.assertEqual(read_value("X", io.StringIO("v\r\n")), "v")
        self.assertEqual(read_value("X", io.StringIO("a\nb\n\n")), "a\nb\n")


if __name__ == "__main__":
    unittest.main()
