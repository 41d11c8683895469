"""limelight.yaml's ``resources`` (issue 47): what one instance may use, declared by the service and
sent with the deploy; bad values are refused in words before anything is built
(docs/publishing.md, "Resources")."""

from __future__ import annotations

import shutil
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

SDK = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SDK))

from limelight.cli import project  # noqa: E402
from limelight.cli.deploy import service_body  # noqa: E402


def loaded(test: unittest.TestCase, text: str) -> project.Project:
    folder = Path(tempfile.mkdtemp(prefix="limelight-resources-"))
    test.addCleanup(shutil.rmtree, folder, True)
    (folder / "limelight.yaml").write_text(textwrap.dedent(text))
    return project.load(folder)


class ResourcesTest(unittest.TestCase):
    def test_a_block_or_a_flow_mapping_is_read(self):
        block = loaded(
            self,
            """\
            name: ocr
            resources:
              cpu: 0.5   # half a CPU
              memory_mb: 512
            port: 9000
            """,
        )
        self.assertEqual(block.resources, {"cpu": 0.5, "memory_mb": 512})
        self.assertEqual(block.port, 9000)
        self.assertNotIn("resources", block.extra)
        flow = loaded(self, "resources: {cpu: 2, memory_mb: 4096, gpu: 1}\n")
        self.assertEqual(flow.resources, {"cpu": 2, "memory_mb": 4096, "gpu": 1})
        self.assertEqual(loaded(self, "name: x\n").resources, {})

    def test_the_deploy_sends_them_with_the_runtime_and_leaves_them_out_when_none_are_declared(self):
        declared = loaded(self, "resources:\n  memory_mb: 256\n")
        body = service_body(declared, "127.0.0.1:5000/me/x@sha256:" + "0" * 64, "runpod-a4000-16", None)
        self.assertEqual(body["runtime"]["resources"], {"memory_mb": 256})
        self.assertEqual(body["runtime"]["gpu"], "runpod-a4000-16")
        plain = service_body(loaded(self, "name: x\n"), "img", "offer", None)
        self.assertNotIn("resources", plain["runtime"])

    def test_a_gpu_type_and_count_is_read_sent_and_names_the_offer(self):
        # Flow mapping inside a flow mapping, and inside an indented block: both read the same.
        flow = loaded(self, "resources: {cpu: 4, gpu: {type: runpod-a100-80, count: 2}}\n")
        block = loaded(self, "resources:\n  cpu: 4\n  gpu: {type: runpod-a100-80, count: 2}\n")
        for read in (flow, block):
            self.assertEqual(read.resources, {"cpu": 4, "gpu": {"type": "runpod-a100-80", "count": 2}})
            self.assertEqual(read.extra["gpu_offer"], "runpod-a100-80")
        body = service_body(flow, "img", flow.extra["gpu_offer"], None)
        self.assertEqual(body["runtime"]["gpu"], "runpod-a100-80")
        self.assertEqual(body["runtime"]["resources"]["gpu"], {"type": "runpod-a100-80", "count": 2})
        # The count defaults to one; the same offer named twice is fine.
        one = loaded(self, "gpu_offer: runpod-l4-24\nresources: {gpu: {type: runpod-l4-24}}\n")
        self.assertEqual(one.resources["gpu"], {"type": "runpod-l4-24", "count": 1})
        # A plain count stays accepted, and leaves the offer to gpu / gpu_offer.
        self.assertEqual(loaded(self, "resources: {gpu: 1}\n").resources, {"gpu": 1})
        self.assertNotIn("gpu_offer", loaded(self, "resources: {gpu: 1}\n").extra)

    def test_a_bad_gpu_type_or_count_is_refused_in_words(self):
        cases = {
            "resources: {gpu: {type: a100, count: 1}}\n": r"resources.gpu.type is a GPU offer, got \"a100\" \(did you mean",
            "resources: {gpu: {count: 1}}\n": r"resources.gpu.type is a GPU offer, got null",
            "resources: {gpu: {type: runpod-l4-24, count: 0}}\n": "resources.gpu.count is a whole number from 1 to 8, got 0",
            "resources: {gpu: {type: runpod-l4-24, count: 9}}\n": "resources.gpu.count is a whole number from 1 to 8, got 9",
            "resources: {gpu: {type: runpod-l4-24, vram: 24}}\n": r"resources.gpu has no vram \(it takes type and count\)",
            "gpu_offer: runpod-a4000-16\nresources: {gpu: {type: runpod-l4-24}}\n": 'gpu_offer is "runpod-a4000-16" but resources.gpu.type',
            # Two levels at most: nothing inside the inner mapping, and no mapping in a list.
            "resources: {gpu: {type: {a: 1}}}\n": "a list or mapping inside another one",
            "python: [{a: 1}]\n": "a list or mapping inside another one",
        }
        for text, words in cases.items():
            with self.subTest(text), self.assertRaisesRegex(project.ProjectError, words):
                loaded(self, text)

    def test_bad_resources_are_refused_naming_the_field(self):
        cases = {
            "resources: {memory_mb: 10}\n": "resources.memory_mb is a whole number from 64 to 262144, got 10",
            "resources: {memory_mb: 512.5}\n": "resources.memory_mb is a whole number",
            "resources: {cpu: 0.25}\n": r"resources.cpu is a number in steps of 0.1 from 0.1 to 32, got 0.25",
            "resources: {cpu: 64}\n": "resources.cpu is a number in steps of 0.1",
            "resources: {gpu: true}\n": "resources.gpu is a whole number from 0 to 8",
            "resources: {memory: 512}\n": r"resources has no memory \(it takes cpu, memory_mb, gpu\)",
            "resources: 512\n": "resources is a mapping like",
            "resources:\n  cpu:\n    max: 2\n": r"line 2, column 3: resources.cpu needs a value \(one level of nesting only\)",
            "  cpu: 1\nname: x\n": "line 1, column 3: an indented `key: value` belongs under a key",
            "name: x\n  cpu: 1\n": "line 2, column 3: an indented `key: value` belongs under a key",
            "resources: {cpu 1}\n": r"expected `key: value` inside \{ \}",
        }
        for text, words in cases.items():
            with self.subTest(text), self.assertRaisesRegex(project.ProjectError, words):
                loaded(self, text)


if __name__ == "__main__":
    unittest.main()
