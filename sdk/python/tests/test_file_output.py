"""Files in a job's output as objects (docs/sdk.md, "Files"): run() gives FileOutputs whose bytes
are the stored file's, read whole, in chunks or saved; AsyncFileOutput the same with await; the
generated types name them; and an interrupted save leaves no half file behind."""

from __future__ import annotations

import asyncio
import io
import json
import sys
import tempfile
import unittest
import urllib.request
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import limelight  # noqa: E402
from limelight import types as limelight_types  # noqa: E402
from limelight.output import FileOutput  # noqa: E402

from .server import platform  # noqa: E402
from .test_client import CUTOUT, TEXT2IMG, TINY_PNG, client  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def small(prompt: str) -> dict:
    return {"prompt": prompt, "width": 64, "height": 64}


class SyncFileOutputTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.image = client().run(TEXT2IMG, input=small("a file object"))["image"]
        with urllib.request.urlopen(cls.image.url) as response:
            cls.stored = response.read()

    def test_run_gives_a_file_output_with_its_url_type_and_size(self):
        self.assertIsInstance(self.image, limelight.FileOutput)
        self.assertEqual(self.image.content_type, "image/png")
        self.assertEqual(self.image.size, len(self.stored))
        # The dict access of earlier versions still works.
        self.assertEqual((self.image["url"], self.image["content_type"]), (self.image.url, "image/png"))
        self.assertEqual(json.loads(json.dumps(self.image.to_dict()))["url"], self.image.url)

    def test_read_and_iteration_give_the_stored_bytes(self):
        self.assertTrue(self.stored.startswith(PNG_SIGNATURE))
        self.assertEqual(self.image.read(), self.stored)
        chunks = list(self.image.iter_bytes(chunk_size=100))
        self.assertGreater(len(chunks), 1)
        self.assertTrue(all(len(c) <= 100 for c in chunks))
        self.assertEqual(b"".join(chunks), self.stored)
        self.assertEqual(b"".join(self.image), self.stored)

    def test_save_writes_to_a_path_or_into_a_folder(self):
        with tempfile.TemporaryDirectory() as folder:
            named = self.image.save(Path(folder) / "lighthouse.png")
            self.assertEqual(named, Path(folder) / "lighthouse.png")
            self.assertEqual(named.read_bytes(), self.stored)
            into = self.image.save(folder)
            self.assertEqual(into.parent, Path(folder))
            self.assertEqual(into.suffix, ".png")
            self.assertEqual(into.read_bytes(), self.stored)
            self.assertEqual(sorted(p.name for p in Path(folder).iterdir()), sorted({named.name, into.name}))

    def test_plain_dicts_when_asked(self):
        plain = limelight.Client(base_url=platform()["url"], api_key=platform()["apiKey"], use_file_output=False)
        output = plain.run(TEXT2IMG, input=small("plain"))
        self.assertIs(type(output["image"]), dict)
        self.assertEqual(set(output["image"]), {"url", "content_type", "size"})

    def test_an_uploaded_file_comes_back_as_a_file_output_of_the_same_kind(self):
        output = client().run(CUTOUT, input={"image": TINY_PNG}, endpoint="/remove")
        self.assertIsInstance(output["image"], limelight.FileOutput)
        self.assertTrue(output["image"].read().startswith(PNG_SIGNATURE))


class AsyncFileOutputTest(unittest.TestCase):
    def test_await_read_save_and_async_iteration(self):
        server = platform()

        async def main():
            async with limelight.AsyncClient(base_url=server["url"], api_key=server["apiKey"]) as c:
                image = (await c.run(TEXT2IMG, input=small("async file")))["image"]
                whole = await image.read()
                chunks = [chunk async for chunk in image.aiter_bytes(chunk_size=100)]
                with tempfile.TemporaryDirectory() as folder:
                    saved = (await image.save(Path(folder) / "out.png")).read_bytes()
                return image, whole, chunks, saved

        image, whole, chunks, saved = asyncio.run(main())
        self.assertIsInstance(image, limelight.AsyncFileOutput)
        self.assertTrue(whole.startswith(PNG_SIGNATURE))
        self.assertEqual(len(whole), image.size)
        self.assertGreater(len(chunks), 1)
        self.assertEqual(b"".join(chunks), whole)
        self.assertEqual(saved, whole)


class _Broken(io.RawIOBase):
    """An answer that breaks after its first chunk, as a dropped connection does."""

    def __init__(self) -> None:
        self.sent = False

    def read(self, size: int = -1) -> bytes:
        if self.sent:
            raise ConnectionResetError("the connection dropped")
        self.sent = True
        return b"half of it"


class InterruptedSaveTest(unittest.TestCase):
    def test_an_interrupted_download_leaves_no_file_and_keeps_the_old_one(self):
        @contextmanager
        def opener(_url: str):
            yield _Broken()

        output = FileOutput({"url": "http://127.0.0.1:9/f.png", "content_type": "image/png", "size": 20}, opener)
        with tempfile.TemporaryDirectory() as folder:
            target = Path(folder) / "f.png"
            target.write_bytes(b"the earlier file")
            with self.assertRaises(ConnectionResetError):
                output.save(target)
            self.assertEqual(target.read_bytes(), b"the earlier file")
            self.assertEqual([p.name for p in Path(folder).iterdir()], ["f.png"])


class GeneratedTypesTest(unittest.TestCase):
    def test_file_inputs_are_file_inputs_and_output_files_file_outputs(self):
        source = limelight_types.generate({CUTOUT: client().openapi(CUTOUT)})
        self.assertRegex(source, r"\n    image: limelight\.FileInput")
        self.assertRegex(source, r"\n    image: limelight\.FileOutput")
        self.assertNotIn("class FileRef", source)
        namespace: dict = {}
        exec(compile(source, "limelight_types.py", "exec"), namespace)  # noqa: S102


if __name__ == "__main__":
    unittest.main()
