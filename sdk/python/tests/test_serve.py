"""limelight.serve on a real uvicorn server: typed inputs → OpenAPI, media inputs (upload, URL,
base64), file outputs, plain and job-style answers with progress, cancel raising in the function,
the concurrency limit, health states, setup failures and deduped redeliveries."""

from __future__ import annotations

import asyncio
import base64
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import List

from .serving import MISSING, call, needs_serving, served, until

HERE = Path(__file__).resolve().parent
SDK = HERE.parent
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)

if MISSING is None:
    from limelight.serve import App, Cancelled, ImageFile, Job, MediaFile
    from pydantic import Field

    sys.path.insert(0, str(HERE / "apps"))
    import typed_app


class ClientStaysStandardLibraryTest(unittest.TestCase):
    def test_importing_limelight_does_not_import_fastapi(self):
        code = "import sys, limelight; assert 'fastapi' not in sys.modules and 'limelight.serve' not in sys.modules; print('ok')"
        out = subprocess.run([sys.executable, "-c", code], cwd=SDK, capture_output=True, text=True, timeout=60)
        self.assertEqual(out.stdout.strip(), "ok", out.stderr)


@needs_serving
class OpenApiTest(unittest.TestCase):
    def setUp(self):
        self.document = typed_app.app.openapi()
        self.schemas = self.document["components"]["schemas"]

    def test_typed_parameters_become_the_body_schema_with_bounds_enums_and_models(self):
        body = self.document["paths"]["/count"]["post"]["requestBody"]["content"]
        self.assertEqual(list(body), ["application/json"])
        schema = self.schemas[body["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]]
        props = schema["properties"]
        self.assertEqual(schema["required"], ["text"])
        self.assertNotIn("job", props)
        self.assertEqual(props["text"]["description"], "The text to count")
        self.assertEqual(props["unit"]["enum"], ["words", "chars"])
        self.assertEqual((props["steps"]["minimum"], props["steps"]["maximum"], props["steps"]["default"]), (1, 50, 20))
        self.assertEqual(props["strength"]["multipleOf"], 0.05)
        voice = props["voice"].get("allOf", [props["voice"]])[0]["$ref"].rsplit("/", 1)[-1]
        self.assertEqual(self.schemas[voice]["enum"], ["low", "high"])
        self.assertIn("Options", self.schemas)
        self.assertEqual(props["tags"]["items"], {"type": "string"})
        self.assertEqual(self.document["paths"]["/count"]["post"]["summary"], "Counts the words of a text.")
        self.assertEqual(self.document["paths"]["/count"]["post"]["x-limelight-time-limit-s"], 60)

    def test_files_are_binary_fields_of_a_multipart_body_and_a_file_output_is_documented(self):
        body = self.document["paths"]["/transcribe"]["post"]["requestBody"]["content"]
        self.assertEqual(list(body), ["multipart/form-data"])
        props = self.schemas[body["multipart/form-data"]["schema"]["$ref"].rsplit("/", 1)[-1]]["properties"]
        self.assertEqual((props["audio"]["type"], props["audio"]["format"]), ("string", "binary"))
        self.assertEqual(props["attachment"]["format"], "binary")
        answers = self.document["paths"]["/thumbnail"]["post"]["responses"]["200"]["content"]
        self.assertEqual(list(answers), ["image/png"])

    def test_get_endpoints_take_query_parameters_and_platform_routes_stay_out(self):
        operation = self.document["paths"]["/hello"]["get"]
        self.assertNotIn("requestBody", operation)
        self.assertEqual(
            [(p["name"], p["in"], p["schema"].get("maximum")) for p in operation["parameters"]],
            [("name", "query", None), ("times", "query", 5)],
        )
        self.assertFalse({"/health", "/jobs/{run_id}", "/jobs/{run_id}/cancel"} & set(self.document["paths"]))

    def test_the_served_document_is_the_same(self):
        with served(typed_app.app) as url:
            self.assertEqual(call("GET", f"{url}/openapi.json").json()["paths"], self.document["paths"])
            self.assertEqual(call("GET", f"{url}/hello?name=Ada&times=2").json(), {"text": "Hello, Ada. Hello, Ada."})


def counter_app(**options) -> App:
    app = App(title="Counter", **options)

    @app.endpoint("/count")
    def count(text: str, steps: int = Field(3, ge=1, le=10), tags: List[str] = []) -> dict:  # noqa: B006
        return {"words": len(text.split()), "steps": steps, "tags": tags}

    @app.endpoint("/describe")
    def describe(file: MediaFile, note: str = "") -> dict:
        return {"size": file.size, "content_type": file.content_type, "head": file.read()[:4].hex(), "note": note}

    @app.endpoint("/image")
    def image(picture: ImageFile) -> dict:
        return {"size": picture.size, "exists": picture.path.exists()}

    @app.endpoint("/fail")
    def fail(text: str = "") -> dict:
        raise ValueError("the text is not a poem")

    return app


@needs_serving
class PlainAnswersTest(unittest.TestCase):
    def test_json_in_json_out_and_bad_input_is_a_422_naming_each_field(self):
        with served(counter_app()) as url:
            answer = call("POST", f"{url}/count", json_body={"text": "a b c", "tags": ["x"]})
            self.assertEqual((answer.status, answer.json()), (200, {"words": 3, "steps": 3, "tags": ["x"]}))
            bad = call("POST", f"{url}/count", json_body={"steps": 99})
            self.assertEqual(bad.status, 422)
            self.assertEqual(sorted(e["loc"][0] for e in bad.json()["errors"]), ["steps", "text"])
            self.assertIn("text", bad.json()["detail"])
            self.assertEqual(call("POST", f"{url}/count", json_body=[1]).status, 422)

    def test_form_fields_are_coerced_like_json(self):
        with served(counter_app()) as url:
            answer = call("POST", f"{url}/count", form={"text": "one two", "steps": "4", "tags": '["a","b"]'})
            self.assertEqual(answer.json(), {"words": 2, "steps": 4, "tags": ["a", "b"]})

    def test_a_failing_function_answers_500_in_words_and_the_server_goes_on(self):
        with served(counter_app()) as url:
            answer = call("POST", f"{url}/fail", json_body={})
            self.assertEqual(answer.status, 500)
            self.assertEqual(answer.json()["detail"], "fail() raised ValueError: the text is not a poem")
            self.assertEqual(call("POST", f"{url}/count", json_body={"text": "still here"}).status, 200)


class _FileServer(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path != "/pixel.png":
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(PNG)))
        self.end_headers()
        self.wfile.write(PNG)

    def log_message(self, *args):
        pass


@needs_serving
class MediaInputTest(unittest.TestCase):
    def test_an_upload_a_url_base64_and_a_data_uri_give_the_same_file(self):
        files = ThreadingHTTPServer(("127.0.0.1", 0), _FileServer)
        threading.Thread(target=files.serve_forever, daemon=True).start()
        self.addCleanup(files.server_close)
        self.addCleanup(files.shutdown)
        expected = {"size": len(PNG), "content_type": "image/png", "head": "89504e47"}
        with served(counter_app()) as url:
            sent = {
                "upload": call("POST", f"{url}/describe", form={"file": (PNG, "image/png", "pixel.png"), "note": "n"}),
                "url": call(
                    "POST", f"{url}/describe", json_body={"file": f"http://127.0.0.1:{files.server_port}/pixel.png"}
                ),
                "base64": call("POST", f"{url}/describe", json_body={"file": base64.b64encode(PNG).decode()}),
                "data uri": call(
                    "POST",
                    f"{url}/describe",
                    json_body={"file": "data:image/png;base64," + base64.b64encode(PNG).decode()},
                ),
                "file object": call(
                    "POST",
                    f"{url}/describe",
                    json_body={"file": {"content_type": "image/png", "content": base64.b64encode(PNG).decode()}},
                ),
            }
            for how, answer in sent.items():
                with self.subTest(how):
                    self.assertEqual(answer.status, 200, answer)
                    self.assertLessEqual(expected.items(), answer.json().items())
            self.assertEqual(sent["upload"].json()["note"], "n")
            image = call("POST", f"{url}/image", form={"picture": (PNG, "image/png", "p.png")})
            self.assertEqual(image.json(), {"size": len(PNG), "exists": True})

    def test_unreadable_files_answer_422_saying_why(self):
        with served(counter_app()) as url:
            cases = {
                "not base64": ({"file": "%%% not a file"}, "not a URL, a data: URI or valid base64"),
                "missing": ({}, "field required"),
                "dead url": ({"file": "http://127.0.0.1:9/none.png"}, "could not be read"),
            }
            for how, (body, words) in cases.items():
                with self.subTest(how):
                    answer = call("POST", f"{url}/describe", json_body=body)
                    self.assertEqual(answer.status, 422, answer)
                    self.assertIn(words, answer.json()["detail"])
            wrong = call("POST", f"{url}/image", form={"picture": (b"plain words", "text/plain", "a.txt")})
            self.assertEqual(wrong.status, 422)
            self.assertIn("expected image/*, got text/plain", wrong.json()["detail"])


@needs_serving
class FileOutputTest(unittest.TestCase):
    def test_a_returned_media_file_bytes_or_path_is_answered_as_a_file(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        saved = Path(folder.name) / "out.png"
        saved.write_bytes(PNG)
        app = App(title="Files")

        @app.endpoint("/media")
        def media() -> ImageFile:
            return ImageFile(PNG)

        @app.endpoint("/bytes")
        def raw() -> bytes:
            return b"\x00\x01binary"

        @app.endpoint("/path")
        def path() -> Path:
            return saved

        @app.endpoint("/nested")
        def nested() -> dict:
            return {"thumbnail": ImageFile(PNG), "caption": "a pixel"}

        with served(app) as url:
            for route, (content_type, body) in {
                "media": ("image/png", PNG),
                "bytes": ("application/octet-stream", b"\x00\x01binary"),
                "path": ("image/png", PNG),
            }.items():
                with self.subTest(route):
                    answer = call("POST", f"{url}/{route}")
                    self.assertEqual(
                        (answer.status, answer.headers["Content-Type"], answer.body), (200, content_type, body)
                    )
            # Inside JSON, a file is the { content_type, content } object the platform stores.
            self.assertEqual(
                call("POST", f"{url}/nested").json(),
                {
                    "thumbnail": {"content_type": "image/png", "content": base64.b64encode(PNG).decode()},
                    "caption": "a pixel",
                },
            )


class _Gate:
    """Lets a test hold an endpoint's function in the middle of its run."""

    def __init__(self):
        self.entered, self.release, self.saw = threading.Event(), threading.Event(), []


def long_app(gate: _Gate, **options) -> App:
    app = App(title="Long runs", **options)

    @app.endpoint("/work")
    def work(text: str = "", job: Job = None) -> dict:  # pyright: ignore[reportArgumentType]
        job.progress(0.5, "halfway")
        gate.entered.set()
        try:
            while not gate.release.wait(0.02):
                job.check()
        except Cancelled as cancelled:
            gate.saw.append(f"Cancelled: {cancelled}")
            raise
        job.progress(0.9, "almost")
        return {"echo": text, "attempt": job.attempt, "id": job.id}

    @app.endpoint("/spin", time_limit_s=0.3)
    def spin(job: Job = None) -> dict:  # pyright: ignore[reportArgumentType]
        while True:
            try:
                job.progress(0.1, "spinning")
            except Cancelled as cancelled:
                gate.saw.append(str(cancelled))
                raise
            time.sleep(0.01)

    @app.endpoint("/sleep")
    async def sleep_async(job: Job = None) -> dict:  # pyright: ignore[reportArgumentType]
        job.progress(0.2, "sleeping")
        gate.entered.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            gate.saw.append("CancelledError")
            raise
        return {}

    return app


ASYNC = {"Prefer": "respond-async"}


def settled(status_url: str) -> dict:
    """The run's status once it is no longer processing."""
    return until(
        lambda: (lambda s: s if s["status"] != "processing" else None)(call("GET", status_url).json()),
        what=f"{status_url} to settle",
    )


@needs_serving
class JobStyleTest(unittest.TestCase):
    def test_a_long_run_answers_job_style_with_progress_then_its_output(self):
        gate = _Gate()
        with served(long_app(gate)) as url:
            first = call("POST", f"{url}/work", json_body={"text": "hi"}, headers=ASYNC)
            self.assertEqual(first.status, 202, first)
            job = first.json()
            self.assertEqual(job["status"], "processing")
            self.assertEqual(first.headers["Location"], job["status_url"])
            self.assertEqual(job["status_url"], f"{url}/jobs/{job['id']}")
            gate.entered.wait(10)
            status = call("GET", job["status_url"]).json()
            self.assertEqual((status["progress"], status["message"]), (0.5, "halfway"))
            gate.release.set()
            done = settled(job["status_url"])
            self.assertEqual(done["status"], "succeeded")
            self.assertEqual((done["progress"], done["message"], done["output"]["echo"]), (1.0, "almost", "hi"))

    def test_a_short_run_waits_for_a_plain_answer(self):
        gate = _Gate()
        gate.release.set()
        with served(long_app(gate, answer_within_s=10)) as url:
            answer = call("POST", f"{url}/work", json_body={"text": "quick"})
            self.assertEqual((answer.status, answer.json()["echo"]), (200, "quick"))

    def test_cancel_raises_cancelled_inside_the_function(self):
        gate = _Gate()
        with served(long_app(gate)) as url:
            job = call("POST", f"{url}/work", json_body={}, headers=ASYNC).json()
            gate.entered.wait(10)
            self.assertEqual(call("POST", job["cancel_url"]).status, 200)
            final = settled(job["status_url"])
            self.assertEqual(final["status"], "cancelled")
            self.assertEqual(gate.saw, ["Cancelled: the job was cancelled"])

    def test_cancel_reaches_an_async_function_at_its_next_await(self):
        gate = _Gate()
        with served(long_app(gate)) as url:
            job = call("POST", f"{url}/sleep", json_body={}, headers=ASYNC).json()
            gate.entered.wait(10)
            call("POST", job["cancel_url"])
            final = settled(job["status_url"])
            self.assertEqual((final["status"], gate.saw), ("cancelled", ["CancelledError"]))

    def test_the_time_limit_raises_cancelled_and_fails_the_run_in_words(self):
        gate = _Gate()
        with served(long_app(gate)) as url:
            answer = call("POST", f"{url}/spin", json_body={}, headers={"Prefer": "wait=10"})
            self.assertEqual(answer.status, 500)
            self.assertEqual(answer.json()["detail"], "the run exceeded its time limit of 0.3 s")
            self.assertEqual(gate.saw, ["the run exceeded its time limit of 0.3 s"])

    def test_a_full_container_answers_409_and_takes_runs_again_when_a_slot_frees(self):
        gate = _Gate()
        with served(long_app(gate, concurrency=1)) as url:
            first = call("POST", f"{url}/work", json_body={}, headers=ASYNC).json()
            gate.entered.wait(10)
            busy = call("POST", f"{url}/work", json_body={}, headers=ASYNC)
            self.assertEqual(busy.status, 409)
            self.assertIn("1 of 1 run slots are taken", busy.json()["detail"])
            self.assertEqual(call("GET", f"{url}/health").json()["status"], "BUSY")
            gate.release.set()
            self.assertEqual(settled(first["status_url"])["status"], "succeeded")
            self.assertEqual(call("POST", f"{url}/work", json_body={}, headers={"Prefer": "wait=10"}).status, 200)
            self.assertEqual(call("GET", f"{url}/health").json()["status"], "READY")

    def test_a_redelivered_job_answers_the_existing_run_instead_of_running_again(self):
        gate = _Gate()
        with served(long_app(gate, concurrency=1)) as url:
            key = {"Idempotency-Key": "job-7f3a", **ASYNC}
            first = call("POST", f"{url}/work", json_body={"text": "once"}, headers={**key, "Limelight-Attempt": "1"})
            gate.entered.wait(10)
            again = call("POST", f"{url}/work", json_body={"text": "once"}, headers={**key, "Limelight-Attempt": "2"})
            # Not a 409 although the only slot is taken: the same run, not a new one.
            self.assertEqual((again.status, again.json()["id"]), (202, first.json()["id"]))
            gate.release.set()
            self.assertEqual(settled(first.json()["status_url"])["status"], "succeeded")
            third = call(
                "POST",
                f"{url}/work",
                json_body={"text": "once"},
                headers={"Idempotency-Key": "job-7f3a", "Limelight-Attempt": "3"},
            )
            self.assertEqual(third.status, 200)
            self.assertEqual(third.json(), {"echo": "once", "attempt": 1, "id": "job-7f3a"})
            status = call("GET", first.json()["status_url"]).json()
            self.assertEqual((status["job_id"], status["attempts"]), ("job-7f3a", [1, 2, 3]))
            other = call(
                "POST",
                f"{url}/work",
                json_body={"text": "new"},
                headers={"Idempotency-Key": "job-other", "Prefer": "wait=10"},
            )
            self.assertEqual(other.json()["echo"], "new")

    def test_unknown_runs_answer_404(self):
        with served(long_app(_Gate())) as url:
            answer = call("GET", f"{url}/jobs/nope")
            self.assertEqual(answer.status, 404)
            self.assertIn("No run nope", answer.json()["detail"])


@needs_serving
class HealthTest(unittest.TestCase):
    def test_starting_until_setup_ends_then_ready_and_runs_wait_for_setup(self):
        setup_may_end = threading.Event()
        app = App(title="Slow setup")
        loaded: List[str] = []

        @app.setup
        def load():
            print("loading weights")
            setup_may_end.wait(20)
            loaded.append("weights")

        @app.endpoint("/use")
        def use() -> dict:
            return {"loaded": list(loaded)}

        with served(app) as url:
            health = call("GET", f"{url}/health")
            self.assertEqual((health.status, health.json()["status"]), (503, "STARTING"))
            until(
                lambda: "loading weights" in call("GET", f"{url}/health").json()["setup"]["logs"], what="the setup log"
            )
            waiting: list = []
            caller = threading.Thread(target=lambda: waiting.append(call("POST", f"{url}/use", json_body={})))
            caller.start()
            time.sleep(0.2)
            self.assertEqual(waiting, [])
            setup_may_end.set()
            caller.join(20)
            self.assertEqual(waiting[0].json(), {"loaded": ["weights"]})
            ready = call("GET", f"{url}/health")
            self.assertEqual((ready.status, ready.json()["status"]), (200, "READY"))

    def test_a_failed_setup_is_reported_in_words_with_its_log(self):
        app = App(title="Broken")

        @app.setup
        def load_weights():
            print("opening /models/weights.bin")
            raise FileNotFoundError("/models/weights.bin does not exist")

        @app.endpoint("/use")
        def use() -> dict:
            return {}

        with served(app) as url:
            health = until(
                lambda: (lambda a: a if a.json()["status"] != "STARTING" else None)(call("GET", f"{url}/health"))
            )
            report = health.json()
            self.assertEqual((health.status, report["status"]), (503, "SETUP_FAILED"))
            self.assertEqual(
                report["setup"]["error"],
                "setup load_weights() raised FileNotFoundError: /models/weights.bin does not exist",
            )
            self.assertIn("opening /models/weights.bin", report["setup"]["logs"])
            self.assertTrue(any("Traceback" in line for line in report["setup"]["logs"]))
            refused = call("POST", f"{url}/use", json_body={})
            self.assertEqual(refused.status, 503)
            self.assertIn("load_weights() raised FileNotFoundError", refused.json()["detail"])


@needs_serving
class WrapsFastApiTest(unittest.TestCase):
    def test_an_existing_fastapi_app_keeps_its_routes(self):
        from fastapi import FastAPI

        plain = FastAPI()

        @plain.get("/version")
        def version() -> dict:
            return {"version": 3}

        app = App(plain, title="Wrapped")

        @app.endpoint("/double")
        def double(n: int) -> dict:
            return {"n": n * 2}

        @app.get("/also")
        def also() -> dict:
            return {"also": True}

        with served(app) as url:
            self.assertEqual(call("GET", f"{url}/version").json(), {"version": 3})
            self.assertEqual(call("GET", f"{url}/also").json(), {"also": True})
            self.assertEqual(call("POST", f"{url}/double", json_body={"n": 4}).json(), {"n": 8})
            self.assertEqual(plain.title, "Wrapped")


if MISSING is not None:
    print(f"limelight.serve tests skipped: {MISSING}", file=sys.stderr)

if __name__ == "__main__":  # pragma: no cover
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    unittest.main()
