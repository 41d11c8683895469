"""Reading a request into the function's keyword arguments.

The platform's HTTP runtime sends an endpoint's input as JSON, as multipart when it carries
files (other fields as text, objects as JSON text), or as a query string for GET
(docs/publishing.md, "How a published service runs"); all three are accepted, and so is a
form without files. Bad input answers 422 naming each field.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Dict, List

from pydantic import ValidationError

from .media import MediaError, media_from_upload, media_from_value
from .signature import Inputs, is_list, is_structured


class InputError(Exception):
    """Input that does not fit the endpoint: one {loc, msg} per bad field."""

    def __init__(self, errors: List[Dict[str, Any]]):
        self.errors = errors
        super().__init__("; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors))


def _is_upload(value: Any) -> bool:
    return hasattr(value, "read") and hasattr(value, "filename")


async def _raw_values(request: Any, inputs: Inputs, opened: List[Any]) -> Dict[str, Any]:
    """Field name → value(s) as sent, before validation (a form read is added to ``opened``)."""
    if request.method == "GET":
        source, textual = request.query_params, True
    else:
        content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type in ("multipart/form-data", "application/x-www-form-urlencoded"):
            source, textual = await request.form(), True
            opened.append(source)
        else:
            body = await request.body()
            if not body.strip():
                return {}
            try:
                data = json.loads(body)
            except ValueError as error:
                raise InputError([{"loc": ["body"], "msg": f"the body is not valid JSON ({error})"}]) from error
            if not isinstance(data, dict):
                raise InputError([{"loc": ["body"], "msg": "the body is a JSON object of the endpoint's inputs"}])
            return data
    values: Dict[str, Any] = {}
    for name in source.keys():
        items = source.getlist(name)
        media = inputs.media.get(name)
        annotation = inputs.annotations.get(name)
        many = media[1] if media else is_list(annotation)
        if media or not textual:
            values[name] = items if many else items[-1]
        elif many and len(items) == 1 and str(items[0]).lstrip().startswith("["):
            values[name] = _json_text(name, items[0])  # the platform sends arrays as JSON text
        elif many:
            values[name] = items
        else:
            values[name] = _json_text(name, items[-1]) if is_structured(annotation) else items[-1]
    return values


def _json_text(name: str, text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError as error:
        raise InputError([{"loc": [name], "msg": f"expected JSON text ({error})"}]) from error


async def _media(name: str, kind: type, value: Any) -> Any:
    try:
        if _is_upload(value):
            data = await value.read()
            return media_from_upload(kind, data, value.content_type, value.filename)
        # URLs are fetched with urllib: off the event loop.
        return await asyncio.get_running_loop().run_in_executor(None, media_from_value, kind, value)
    except MediaError as error:
        raise InputError([{"loc": [name], "msg": str(error)}]) from error


async def read_arguments(request: Any, inputs: Inputs) -> Dict[str, Any]:
    """The validated keyword arguments of the function (without its Job parameter)."""
    opened: List[Any] = []
    try:
        return await _validated(await _raw_values(request, inputs, opened), inputs)
    finally:
        for form in opened:  # uploads are spooled to temporary files: close them
            await form.close()


async def _validated(raw: Dict[str, Any], inputs: Inputs) -> Dict[str, Any]:
    errors: List[Dict[str, Any]] = []
    arguments: Dict[str, Any] = {}
    for name, (kind, many, required) in inputs.media.items():
        value = raw.pop(name, None)
        if value is None or value == "" or value == []:
            if required:
                errors.append({"loc": [name], "msg": "field required"})
            arguments[name] = [] if many and required else None
            continue
        try:
            if many:
                arguments[name] = [
                    await _media(name, kind, item) for item in (value if isinstance(value, list) else [value])
                ]
            else:
                arguments[name] = await _media(name, kind, value)
        except InputError as error:
            errors.extend(error.errors)
    try:
        validated = inputs.model(**raw)
        for name in inputs.annotations:
            arguments[name] = getattr(validated, name)
    except ValidationError as error:
        errors.extend({"loc": list(e["loc"]), "msg": e["msg"]} for e in error.errors())
    if errors:
        raise InputError(errors)
    return arguments
