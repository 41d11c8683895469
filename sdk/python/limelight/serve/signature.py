"""An endpoint's function signature read as the inputs it takes.

Each parameter becomes a field of a pydantic model built with ``create_model`` (the public API
pydantic 1 and 2 share), so ``Field`` bounds, ``Literal``, enums and nested models validate and
document themselves. Media parameters are read by media.py instead and documented as binary
uploads; a ``Job`` parameter receives the run's handle. FastAPI's ``Depends`` is refused: the
App reads the request itself, so nothing would resolve the dependency (docs/publishing.md).
"""

from __future__ import annotations

import enum
import inspect
import sys
import typing
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from fastapi import params
from pydantic import BaseModel, create_model

from .jobs import Job
from .media import MediaFile, is_media_type

_UNION_TYPES: tuple = (typing.Union,)
if sys.version_info >= (3, 10):
    import types

    _UNION_TYPES += (types.UnionType,)


class SignatureError(TypeError):
    """An endpoint function whose parameters cannot be served: the message names the parameter."""


def _dependency(default: Any, annotation: Any) -> Optional[Any]:
    """The ``Depends(...)`` (or ``Security(...)``) of a parameter, as its default or in ``Annotated[...]``."""
    if isinstance(default, params.Depends):
        return default
    for extra in getattr(annotation, "__metadata__", ()):
        if isinstance(extra, params.Depends):
            return extra
    return None


def _refuse_dependency(fn: Any, name: str, dependency: Any) -> None:
    provider = getattr(dependency.dependency, "__name__", None) or ""
    used = f"{type(dependency).__name__}({provider})"
    raise SignatureError(
        f"{fn.__name__}(): parameter {name!r} uses FastAPI's {used}, which limelight.serve endpoints do "
        "not resolve (their parameters are the endpoint's inputs). Load shared things once in an @app.setup function "
        "and use them from the endpoint, call the dependency inside the function, or serve this path with a plain "
        "FastAPI route (app.get / app.post), where Depends works"
    )


def optional_inner(annotation: Any) -> Tuple[Any, bool]:
    """``Optional[X]`` (or ``X | None``) as (X, True); anything else as (annotation, False)."""
    if typing.get_origin(annotation) in _UNION_TYPES:
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(args) == 1 and len(args) < len(typing.get_args(annotation)):
            return args[0], True
    return annotation, False


def _is_required(default: Any) -> bool:
    """No default, or a ``Field(...)`` without one (pydantic 1 keeps ``...``, pydantic 2 answers is_required())."""
    if default is ...:
        return True
    is_required = getattr(default, "is_required", None)
    return getattr(default, "default", None) is ... or (callable(is_required) and bool(is_required()))


def _media_kind(annotation: Any) -> Tuple[Optional[type], bool]:
    """(MediaFile subclass, is a list) for media annotations, else (None, False)."""
    inner, _ = optional_inner(annotation)
    if is_media_type(inner):
        return inner, False
    if typing.get_origin(inner) in (list, List) and typing.get_args(inner) and is_media_type(typing.get_args(inner)[0]):
        return typing.get_args(inner)[0], True
    return None, False


def is_structured(annotation: Any) -> bool:
    """Values sent as text (a form field, a query string) are JSON for these types."""
    inner, _ = optional_inner(annotation)
    if isinstance(inner, type) and issubclass(inner, (BaseModel, dict, list, tuple, set)):
        return True
    return typing.get_origin(inner) in (list, dict, tuple, set, List, Dict)


def is_list(annotation: Any) -> bool:
    inner, _ = optional_inner(annotation)
    return inner is list or typing.get_origin(inner) in (list, List, tuple, set)


class Inputs:
    """What one function takes: a validation model, the media parameters and the Job parameter."""

    def __init__(self, fn: Any, model_name: str):
        try:
            hints = typing.get_type_hints(fn)
            extras = typing.get_type_hints(fn, include_extras=True)
        except Exception as error:  # an annotation that does not resolve: say which function
            raise SignatureError(f"the annotations of {fn.__name__}() cannot be read: {error}") from error
        self.job_param: Optional[str] = None
        self.media: Dict[str, Tuple[type, bool, bool]] = {}  # name → (kind, many, required)
        self.annotations: Dict[str, Any] = {}
        fields: Dict[str, Any] = {}
        doc_fields: Dict[str, Any] = {}
        for name, parameter in inspect.signature(fn).parameters.items():
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                raise SignatureError(f"{fn.__name__}(): *{name} parameters cannot be served; name each input")
            annotation = hints.get(name, Any)
            default = ... if parameter.default is inspect.Parameter.empty else parameter.default
            dependency = _dependency(default, extras.get(name, parameter.annotation))
            if dependency is not None:
                _refuse_dependency(fn, name, dependency)
            if optional_inner(annotation)[0] is Job:
                self.job_param = name
                continue
            kind, many = _media_kind(annotation)
            if kind is not None:
                required = _is_required(default)
                self.media[name] = (kind, many, required)
                binary = List[bytes] if many else bytes
                doc_fields[name] = (binary if required else Optional[binary], default)
                continue
            self.annotations[name] = annotation
            fields[name] = doc_fields[name] = (annotation, default)
        self.model = create_model(model_name, **fields)
        self.doc_model = create_model(model_name, **doc_fields)


def _returned(fn: Any) -> Any:
    """The function's return annotation without Optional, None when it has none or it does not resolve."""
    try:
        return optional_inner(typing.get_type_hints(fn).get("return"))[0]
    except Exception:
        return None


def output_media_type(fn: Any) -> Optional[str]:
    """The content type to document when the function's return annotation is a file."""
    inner = _returned(fn)
    if is_media_type(inner):
        return inner.default_type if inner is not MediaFile else "application/octet-stream"
    if isinstance(inner, type) and issubclass(inner, (bytes, Path)):
        return "application/octet-stream"
    return None


def response_model_of(fn: Any) -> Optional[type]:
    """A pydantic model (or enum) return annotation documents the JSON answer."""
    inner = _returned(fn)
    return inner if isinstance(inner, type) and issubclass(inner, (BaseModel, enum.Enum)) else None
