"""``limelight push`` hands the engine the API key in a private auth file, never on its command line
(where every user of the host sees it in ``ps``) and never in the user's stored logins (issue 47).

The engines here are stand-ins that record what they were given (the real push is
test/integration/publishing/cli-e2e.test.ts, with Podman): their arguments, and the auth file
they were pointed at with its mode, read while the push runs (the file is gone after it).
"""

from __future__ import annotations

import base64
import json
import os
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from limelight.cli.push import push_image  # noqa: E402

KEY = "lime_secret_push_key"
DIGEST = "sha256:" + "a" * 64

RECORDER = textwrap.dedent(
    """\
    #!/usr/bin/env python3
    import json, os, stat, sys
    args = sys.argv[1:]
    seen = {"args": args}
    def auth_of(path):
        return {"mode": stat.S_IMODE(os.stat(path).st_mode), "content": json.load(open(path))}
    if "--authfile" in args:
        seen["auth"] = auth_of(args[args.index("--authfile") + 1])
    if "--digestfile" in args:
        open(args[args.index("--digestfile") + 1], "w").write("DIGEST")
    if "--config" in args:
        seen["auth"] = auth_of(os.path.join(args[args.index("--config") + 1], "config.json"))
    with open(os.environ["RECORD"], "a") as out:
        out.write(json.dumps(seen) + "\\n")
    if args and args[-1].startswith("127.0.0.1") and "push" in args:
        print("latest: digest: DIGEST size: 528")
    """
).replace("DIGEST", DIGEST)


class PushCredentialsTest(unittest.TestCase):
    def engine(self, name: str) -> Path:
        folder = Path(tempfile.mkdtemp(prefix="limelight-fake-engine-"))
        self.addCleanup(lambda: [p.unlink() for p in folder.iterdir()] and folder.rmdir())
        path = folder / name
        path.write_text(RECORDER)
        path.chmod(0o755)
        record = folder / "record.jsonl"
        os.environ["RECORD"] = str(record)
        self.addCleanup(os.environ.pop, "RECORD", None)
        return path

    def calls(self) -> list:
        return [json.loads(line) for line in Path(os.environ["RECORD"]).read_text().splitlines()]

    def assert_private_auth(self, auth: dict) -> None:
        self.assertEqual(auth["mode"], 0o600)
        token = auth["content"]["auths"]["127.0.0.1:5999"]["auth"]
        self.assertEqual(base64.b64decode(token).decode(), f"limelight:{KEY}")

    def test_podman_gets_the_key_in_an_auth_file_of_mode_0600_not_on_its_command_line(self) -> None:
        engine = self.engine("podman")
        digest = push_image(str(engine), "localhost/app:latest", "127.0.0.1:5999/me/app:1", KEY, "127.0.0.1:5999")
        self.assertEqual(digest, DIGEST)
        (call,) = self.calls()
        self.assertNotIn(KEY, " ".join(call["args"]))
        self.assertNotIn("--creds", call["args"])
        self.assert_private_auth(call["auth"])

    def test_docker_gets_the_key_in_a_config_folder_of_its_own_not_on_its_command_line(self) -> None:
        engine = self.engine("docker")
        digest = push_image(str(engine), "localhost/app:latest", "127.0.0.1:5999/me/app:1", KEY, "127.0.0.1:5999")
        self.assertEqual(digest, DIGEST)
        calls = self.calls()
        self.assertTrue(all(KEY not in " ".join(c["args"]) for c in calls))
        self.assertFalse(any("login" in c["args"] for c in calls), "no `docker login`: it stores the key for good")
        (pushed,) = [c for c in calls if "push" in c["args"]]
        self.assert_private_auth(pushed["auth"])


if __name__ == "__main__":
    unittest.main()
