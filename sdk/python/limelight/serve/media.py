"""Media files in and out of an endpoint (standard library only).

An input typed ``MediaFile`` (or ``ImageFile``, ``AudioFile``, ``VideoFile``) accepts a multipart
upload, a URL, a ``data:`` URI or plain base64, and the ``{content_type, content}`` or
``{url}`` objects the platform's results carry. A returned ``MediaFile``, ``bytes`` or
``pathlib.Path`` is answered as a file (docs/publishing.md, "The serving library").
"""

from __future__ import annotations

import base64
import binascii
import mimetypes
import os
import re
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Optional, Union

#: Largest media input read from an upload, a URL or base64.
MAX_MEDIA_BYTES = int(os.environ.get("LIMELIGHT_MAX_MEDIA_BYTES", str(200 * 1024 * 1024)))
URL_TIMEOUT_S = 60

_DATA_URI = re.compile(r"^data:([\w.+-]+/[\w.+-]+)?(?:;[^,]*)?;base64,(.*)$", re.S)
# Magic numbers of the common formats, for inputs that arrive without a usable content type.
_SIGNATURES = [
    (b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF8", "image/gif"),
    (b"BM", "image/bmp"), (b"ID3", "audio/mpeg"), (b"OggS", "audio/ogg"), (b"fLaC", "audio/flac"),
    (b"%PDF", "application/pdf"), (b"\x1aE\xdf\xa3", "video/webm"),
]


class MediaError(ValueError):
    """A media input that cannot be read: the message names why."""


def sniff(data: bytes) -> Optional[str]:
    for magic, kind in _SIGNATURES:
        if data.startswith(magic):
            return kind
    if data[:4] == b"RIFF" and data[8:12] in (b"WAVE", b"WEBP"):
        return "audio/wav" if data[8:12] == b"WAVE" else "image/webp"
    if data[4:8] == b"ftyp":
        return "video/mp4"
    return None


class MediaFile:
    """A file given to or returned by an endpoint: its bytes, content type and file name.

    ``read()`` gives the bytes, ``path`` a temporary file holding them (for tools that want a file
    name), ``content_type`` the media type. Build one to return with ``MediaFile(data,
    content_type=...)`` or ``MediaFile.from_path(path)``.
    """

    #: The media family a subclass accepts ("image" for ImageFile); None accepts any file.
    family: Optional[str] = None
    #: The content type documented for an output of this class.
    default_type = "application/octet-stream"

    def __init__(self, data: bytes, content_type: Optional[str] = None, file_name: Optional[str] = None):
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"{type(self).__name__} holds bytes, not {type(data).__name__}")
        self._data = bytes(data)
        guessed = mimetypes.guess_type(file_name)[0] if file_name else None
        declared = content_type if content_type and content_type != "application/octet-stream" else None
        self.content_type = declared or guessed or sniff(self._data) or content_type or self.default_type
        self.file_name = file_name
        self._path: Optional[Path] = None

    @classmethod
    def from_path(cls, path: Union[str, os.PathLike], content_type: Optional[str] = None) -> "MediaFile":
        path = Path(path)
        return cls(path.read_bytes(), content_type, path.name)

    def read(self) -> bytes:
        return self._data

    @property
    def size(self) -> int:
        return len(self._data)

    @property
    def path(self) -> Path:
        """A temporary file holding the bytes, written on first use and removed with the object."""
        if self._path is None:
            suffix = Path(self.file_name).suffix if self.file_name else (mimetypes.guess_extension(self.content_type) or "")
            handle, name = tempfile.mkstemp(prefix="limelight-", suffix=suffix)
            with os.fdopen(handle, "wb") as out:
                out.write(self._data)
            self._path = Path(name)
        return self._path

    def __del__(self):
        if getattr(self, "_path", None) is not None:
            try:
                self._path.unlink()
            except OSError:
                pass

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.content_type}, {self.size} bytes)"

    def as_json(self) -> dict:
        """The shape the platform stores from a JSON result: ``{content_type, content: base64}``."""
        return {"content_type": self.content_type, "content": base64.b64encode(self._data).decode("ascii")}


class ImageFile(MediaFile):
    family = "image"
    default_type = "image/png"


class AudioFile(MediaFile):
    family = "audio"
    default_type = "audio/wav"


class VideoFile(MediaFile):
    family = "video"
    default_type = "video/mp4"


def is_media_type(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, MediaFile)


def _checked(kind: type, data: bytes, content_type: Optional[str], file_name: Optional[str]) -> MediaFile:
    if len(data) > MAX_MEDIA_BYTES:
        raise MediaError(f"the file is {len(data)} bytes; at most {MAX_MEDIA_BYTES} are accepted")
    media = kind(data, content_type, file_name)
    family = media.content_type.split("/")[0]
    if kind.family and family != kind.family and media.content_type != "application/octet-stream":
        raise MediaError(f"expected {kind.family}/*, got {media.content_type}")
    return media


def _fetch(url: str) -> tuple:
    request = urllib.request.Request(url, headers={"User-Agent": "limelight-serve"})
    try:
        with urllib.request.urlopen(request, timeout=URL_TIMEOUT_S) as response:
            data = response.read(MAX_MEDIA_BYTES + 1)
            content_type = (response.headers.get("Content-Type") or "").split(";")[0].strip() or None
    except urllib.error.HTTPError as error:
        raise MediaError(f"{url} answered {error.code}") from error
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise MediaError(f"{url} could not be read ({reason})") from error
    return data, content_type, Path(urllib.request.urlparse(url).path).name or None


def media_from_value(kind: type, value: Any) -> MediaFile:
    """Reads a JSON or form value as a media file (blocking: URLs are fetched)."""
    if isinstance(value, MediaFile):
        return _checked(kind, value.read(), value.content_type, value.file_name)
    if isinstance(value, dict):
        content_type = value.get("content_type") or value.get("media_type")
        if isinstance(value.get("content"), str):
            return media_from_value(kind, f"data:{content_type or 'application/octet-stream'};base64,{value['content']}")
        if isinstance(value.get("url"), str):
            data, fetched_type, name = _fetch(value["url"])
            return _checked(kind, data, content_type or fetched_type, name)
        raise MediaError("a file object needs content (base64) or url")
    if not isinstance(value, str) or value == "":
        raise MediaError(f"expected a file upload, a URL or base64, got {type(value).__name__}")
    if re.match(r"^https?://", value, re.I):
        data, content_type, name = _fetch(value)
        return _checked(kind, data, content_type, name)
    match = _DATA_URI.match(value)
    content_type, encoded = (match.group(1), match.group(2)) if match else (None, value)
    try:
        data = base64.b64decode(re.sub(r"\s+", "", encoded), validate=True)
    except (binascii.Error, ValueError) as error:
        raise MediaError("not a URL, a data: URI or valid base64") from error
    return _checked(kind, data, content_type, None)


def media_from_upload(kind: type, data: bytes, content_type: Optional[str], file_name: Optional[str]) -> MediaFile:
    return _checked(kind, data, content_type, file_name)


def file_answer(value: Any) -> Optional[MediaFile]:
    """A returned value that is answered as a file: MediaFile, bytes or a pathlib path."""
    if isinstance(value, MediaFile):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return MediaFile(bytes(value))
    if isinstance(value, Path):
        return MediaFile.from_path(value)
    return None


def jsonable_media(value: Any, depth: int = 0) -> Any:
    """Files nested in a JSON result become ``{content_type, content}`` objects (the platform stores them)."""
    if depth > 16:
        return value
    as_file = file_answer(value)
    if as_file is not None:
        return as_file.as_json()
    if isinstance(value, dict):
        return {key: jsonable_media(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable_media(item, depth + 1) for item in value]
    return value
