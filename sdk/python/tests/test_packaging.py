"""The package as `pip install ./sdk/python` builds it (docs/sdk.md, "Install"): offline, with
Debian's hatchling and no build isolation, the wheel carries the three packages, the type marker,
the SPDX licence with its file, and the `limelight` command."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


@unittest.skipUnless(
    importlib.util.find_spec("hatchling"),
    "hatchling is not installed: apt-get install python3-hatchling (or pip install hatchling)",
)
class OfflineWheel(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        out = tempfile.mkdtemp(prefix="limelight-wheel-")
        cls.addClassCleanup(shutil.rmtree, out, ignore_errors=True)
        built = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-build-isolation",
                "--no-deps",
                "--no-index",
                "-q",
                "-w",
                out,
                str(PACKAGE),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if built.returncode != 0:
            raise AssertionError(f"the offline build failed:\n{built.stderr}")
        (wheel,) = Path(out).glob("limelight-*.whl")
        cls.names = set(zipfile.ZipFile(wheel).namelist())
        cls.metadata = (
            zipfile.ZipFile(wheel).read(next(n for n in cls.names if n.endswith(".dist-info/METADATA"))).decode()
        )
        cls.entry_points = (
            zipfile.ZipFile(wheel).read(next(n for n in cls.names if n.endswith("entry_points.txt"))).decode()
        )

    def test_carries_the_client_the_serving_library_and_the_cli_with_their_type_marker(self) -> None:
        for name in ("limelight/client.py", "limelight/serve/app.py", "limelight/cli/app.py", "limelight/py.typed"):
            self.assertIn(name, self.names)
        self.assertFalse([n for n in self.names if "/tests/" in n or n.startswith("tests/")], "tests are not shipped")

    def test_states_an_spdx_licence_and_ships_its_file(self) -> None:
        self.assertIn("License-Expression: MIT", self.metadata.splitlines())
        self.assertTrue(any(n.endswith(".dist-info/licenses/LICENSE") for n in self.names))
        self.assertIn("Classifier: Typing :: Typed", self.metadata)
        self.assertIn("Project-URL: Documentation,", self.metadata)

    def test_needs_nothing_and_offers_httpx_as_the_async_extra(self) -> None:
        # The client stays standard library only; limelight[async] brings AsyncClient's native
        # transport (docs/sdk.md, "Async Python").
        requires = [line for line in self.metadata.splitlines() if line.startswith("Requires-Dist:")]
        self.assertEqual([line for line in requires if "extra ==" not in line], [])
        self.assertIn("Provides-Extra: async", self.metadata.splitlines())
        self.assertIn("Requires-Dist: httpx; extra == 'async'", [r.replace('"', "'") for r in requires])

    def test_installs_the_limelight_command(self) -> None:
        self.assertIn("limelight = limelight.cli:main", self.entry_points)


if __name__ == "__main__":
    unittest.main()
