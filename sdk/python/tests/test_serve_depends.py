"""limelight.serve refuses FastAPI's Depends in an endpoint's parameters when the App is defined,
naming the parameter and what to do instead; plain FastAPI routes on the same App keep it
(docs/publishing.md, "The serving library")."""

from __future__ import annotations

import unittest
from typing import TYPE_CHECKING, Annotated

from .serving import MISSING, call, needs_serving, served

if MISSING is None or TYPE_CHECKING:
    from fastapi import Depends, Security
    from limelight.serve import App
    from limelight.serve.signature import SignatureError


def database() -> str:
    return "connected"


ADVICE = (
    "which limelight.serve endpoints do not resolve (their parameters are the endpoint's inputs). Load shared "
    "things once in an @app.setup function and use them from the endpoint, call the dependency inside the "
    "function, or serve this path with a plain FastAPI route (app.get / app.post), where Depends works"
)


@needs_serving
class DependsTest(unittest.TestCase):
    def test_depends_as_a_default_is_refused_naming_the_parameter(self):
        app = App()

        def count(text: str, db: str = Depends(database)) -> dict:
            return {"words": len(text.split()), "db": db}

        with self.assertRaises(SignatureError) as raised:
            app.endpoint("/count")(count)
        self.assertEqual(str(raised.exception), f"count(): parameter 'db' uses FastAPI's Depends(database), {ADVICE}")
        self.assertNotIn("/count", app.openapi()["paths"])

    def test_depends_in_annotated_and_security_are_refused_too(self):
        app = App()

        def tagged(text: str, db: Annotated[str, Depends(database)]) -> dict:
            return {}

        def secured(user: str = Security(database)) -> dict:
            return {}

        def bare(db: str = Depends()) -> dict:
            return {}

        for fn, words in (
            (tagged, "parameter 'db' uses FastAPI's Depends(database)"),
            (secured, "parameter 'user' uses FastAPI's Security(database)"),
            (bare, "parameter 'db' uses FastAPI's Depends()"),
        ):
            with self.subTest(fn.__name__):
                with self.assertRaises(SignatureError) as raised:
                    app.endpoint(f"/{fn.__name__}")(fn)
                self.assertIn(f"{fn.__name__}(): {words}, which limelight.serve", str(raised.exception))

    def test_a_plain_fastapi_route_on_the_app_keeps_depends(self):
        app = App()

        @app.get("/plain")
        def plain(db: str = Depends(database)) -> dict:
            return {"db": db}

        @app.endpoint("/count")
        def count(text: str) -> dict:
            return {"words": len(text.split()), "db": database()}

        with served(app) as url:
            self.assertEqual(call("GET", f"{url}/plain").json(), {"db": "connected"})
            self.assertEqual(
                call("POST", f"{url}/count", json_body={"text": "a b"}).json(), {"words": 2, "db": "connected"}
            )


if __name__ == "__main__":
    unittest.main()
