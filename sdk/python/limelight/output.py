"""Files in a job's output as objects (docs/sdk.md, "Files"): where a file is, and its bytes on
demand, in the sync and the async client. ``run`` gives every ``{url, content_type, size}`` of a
result back as a FileOutput (``Client(use_file_output=False)`` keeps the plain dicts)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import tempfile
from pathlib import Path
from typing import (
    Any,
    AsyncContextManager,
    AsyncIterator,
    Callable,
    ContextManager,
    Generator,
    Iterator,
    Optional,
    Union,
)
from urllib.parse import unquote, urlsplit

from .models import FileRef

#: Opens a GET of a file's URL; the answer is read in chunks (``Transport.open`` in the client).
Opener = Callable[[str], ContextManager[Any]]
#: The same for asyncio: an httpx answer (AsyncTransport.open), read with ``aiter_bytes``.
AsyncOpener = Callable[[str], AsyncContextManager[Any]]

CHUNK_BYTES = 1 << 16
# Nested results deeper than this are given back as they are (the JavaScript client's bound too).
MAX_DEPTH = 8

_EXTENSIONS = {
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "audio/mpeg": ".mp3",
    "audio/wav": ".wav",
    "audio/ogg": ".ogg",
    "video/mp4": ".mp4",
    "application/pdf": ".pdf",
    "application/json": ".json",
    "text/plain": ".txt",
}


def is_file_ref(value: object) -> bool:
    """A ``{url, content_type, size}`` of a result, as the job API gives every output file."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("url"), str)
        and isinstance(value.get("content_type"), str)
        and isinstance(value.get("size"), int)
    )


class FileOutput:
    """A file in a job's output: ``url``, ``content_type`` and ``size``, and its bytes with
    ``read()``, ``save(path)`` or by iterating over it (chunks, never the whole file in memory).
    Outputs expire 7 days after the job ends; the URL is the permission, so it can be handed to
    a browser as it is. ``output["url"]`` (the older dict access) still works."""

    def __init__(self, ref: FileRef, opener: Opener) -> None:
        self.url: str = ref["url"]
        self.content_type: str = ref["content_type"]
        self.size: int = ref["size"]
        self._open = opener

    def iter_bytes(self, chunk_size: int = CHUNK_BYTES) -> Generator[bytes, None, None]:
        """The file's bytes in chunks of at most ``chunk_size``, as they arrive."""
        with self._open(self.url) as response:
            while True:
                chunk = response.read(chunk_size)
                if not chunk:
                    return
                yield chunk

    def __iter__(self) -> Iterator[bytes]:
        return self.iter_bytes()

    def read(self) -> bytes:
        """The whole file."""
        return b"".join(self.iter_bytes())

    def save(self, path: Union[str, os.PathLike[str]]) -> Path:
        """Writes the file to ``path`` (into it, named after the URL, when it is a folder) and
        answers where. The file appears whole or not at all: it is written beside the target and
        renamed, so an interrupted download never leaves half a file under the name."""
        target = _target(Path(path).expanduser(), self.url, self.content_type)
        with _whole_or_nothing(target) as file:
            for chunk in self.iter_bytes():
                file.write(chunk)
        return target

    def to_dict(self) -> FileRef:
        """The plain ``{url, content_type, size}``, e.g. for ``json.dumps``."""
        return {"url": self.url, "content_type": self.content_type, "size": self.size}

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]  # type: ignore[literal-required]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FileOutput):
            return self.to_dict() == other.to_dict()
        return isinstance(other, dict) and dict(self.to_dict()) == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(url={self.url!r}, content_type={self.content_type!r}, size={self.size})"


class AsyncFileOutput(FileOutput):
    """A FileOutput for asyncio code: ``await read()``, ``await save(path)``, ``async for chunk in
    output``. With AsyncClient's httpx transport the bytes are awaited on the event loop (a
    cancelled task stops the download); with its threads they are read in worker threads. Either
    way other tasks go on meanwhile."""

    def __init__(self, ref: FileRef, opener: Opener, async_opener: Optional[AsyncOpener] = None) -> None:
        super().__init__(ref, opener)
        self._async_open = async_opener

    async def read(self) -> bytes:  # type: ignore[override]
        if self._async_open is None:
            return await asyncio.to_thread(FileOutput.read, self)
        return b"".join([chunk async for chunk in self.aiter_bytes()])

    async def save(self, path: Union[str, os.PathLike[str]]) -> Path:  # type: ignore[override]
        if self._async_open is None:
            return await asyncio.to_thread(FileOutput.save, self, path)
        target = _target(Path(path).expanduser(), self.url, self.content_type)
        with _whole_or_nothing(target) as file:
            async for chunk in self.aiter_bytes():
                file.write(chunk)  # a local file: a write does not wait on the network
        return target

    async def aiter_bytes(self, chunk_size: int = CHUNK_BYTES) -> AsyncIterator[bytes]:
        if self._async_open is not None:
            async with self._async_open(self.url) as response:
                async for chunk in response.aiter_bytes(chunk_size):
                    yield chunk
            return
        chunks = self.iter_bytes(chunk_size)
        try:
            while True:
                chunk = await asyncio.to_thread(next, chunks, None)
                if chunk is None:
                    return
                yield chunk
        finally:
            await asyncio.to_thread(chunks.close)

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self.aiter_bytes()


def with_file_outputs(value: Any, make: Callable[[FileRef], FileOutput], depth: int = 0) -> Any:
    """A result with every ``{url, content_type, size}`` made a FileOutput by ``make``."""
    if is_file_ref(value):
        return make(value)
    if depth > MAX_DEPTH:
        return value
    if isinstance(value, list):
        return [with_file_outputs(v, make, depth + 1) for v in value]
    if isinstance(value, dict):
        return {k: with_file_outputs(v, make, depth + 1) for k, v in value.items()}
    return value


def as_async(value: Any, depth: int = 0) -> Any:
    """A result of the sync client with its FileOutputs made AsyncFileOutputs."""
    if isinstance(value, FileOutput) and not isinstance(value, AsyncFileOutput):
        return AsyncFileOutput(value.to_dict(), value._open)
    if depth > MAX_DEPTH:
        return value
    if isinstance(value, list):
        return [as_async(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {k: as_async(v, depth + 1) for k, v in value.items()}
    return value


@contextlib.contextmanager
def _whole_or_nothing(target: Path) -> Iterator[Any]:
    """A file written beside ``target`` and renamed to it once whole, so an interrupted download
    never leaves half a file under the name."""
    handle, partial = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            yield file
        os.replace(partial, target)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


def _target(path: Path, url: str, content_type: str) -> Path:
    if not path.is_dir():
        return path
    name = re.sub(r"[^A-Za-z0-9._-]", "_", unquote(urlsplit(url).path.rsplit("/", 1)[-1])).lstrip(".")
    if not name:
        name = "output"
    if not Path(name).suffix:
        name += _EXTENSIONS.get(content_type.split(";")[0].strip(), "")
    return path / name
