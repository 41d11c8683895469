"""Media files in and out of an endpoint (standard library only).

An input typed ``MediaFile`` (or ``ImageFile``, ``AudioFile``, ``VideoFile``) accepts a multipart
upload, a URL, a ``data:`` URI or plain base64, and the ``{content_type, content}`` or
``{url}`` objects the platform's results carry. A returned ``MediaFile``, ``bytes`` or
``pathlib.Path`` is answered as a file (docs/publishing.md, "The serving library").
"""

from __future__ import annotations

import base64
import binascii
import http.client
import mimetypes
import os
import re
import socket
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any, Optional, Union

#: Largest media input read from an upload, a URL or base64.
MAX_MEDIA_BYTES = int(os.environ.get("LIMELIGHT_MAX_MEDIA_BYTES", str(200 * 1024 * 1024)))
#: Longest a URL input may take, from connecting to its last byte, redirects included.
URL_TIMEOUT_S = float(os.environ.get("LIMELIGHT_MEDIA_URL_TIMEOUT_S", "60"))
MAX_REDIRECTS = 5
_READ_CHUNK = 64 * 1024
# The only URLs a caller's input may name (docs/publishing.md, "The library"): a caller must not
# make the service read its own files (file:) or reach other protocols (ftp:).
ALLOWED_URLS = "http://, https:// or data:"

_DATA_URI = re.compile(r"^data:([\w.+-]+/[\w.+-]+)?((?:;[^,;]*)*?)(;base64)?,(.*)$", re.S | re.I)
_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):", re.I)
# Magic numbers of the common formats, for inputs that arrive without a usable content type.
_SIGNATURES = [
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"BM", "image/bmp"),
    (b"ID3", "audio/mpeg"),
    (b"OggS", "audio/ogg"),
    (b"fLaC", "audio/flac"),
    (b"%PDF", "application/pdf"),
    (b"\x1aE\xdf\xa3", "video/webm"),
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
    def from_path(cls, path: Union[str, os.PathLike], content_type: Optional[str] = None) -> MediaFile:
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
            suffix = (
                Path(self.file_name).suffix if self.file_name else (mimetypes.guess_extension(self.content_type) or "")
            )
            handle, name = tempfile.mkstemp(prefix="limelight-", suffix=suffix)
            with os.fdopen(handle, "wb") as out:
                out.write(self._data)
            self._path = Path(name)
        return self._path

    def __del__(self):
        path = getattr(self, "_path", None)
        if path is not None:
            try:
                path.unlink()
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


def _shown(url: str) -> str:
    return url if len(url) <= 200 else f"{url[:200]}…"


def _refused_scheme(url: str, scheme: str) -> MediaError:
    other = f", not {scheme}:" if scheme else " (this one has no scheme)"
    return MediaError(f"{_shown(url)} is refused: a file URL must be {ALLOWED_URLS}{other}")


def _data_url(url: str) -> tuple:
    """A ``data:`` URL's (bytes, content type), decoded here (base64 or percent-encoded), not by urllib."""
    match = _DATA_URI.match(url)
    if not match:
        raise MediaError("not a valid data: URI (data:[type][;base64],…)")
    content_type, _params, is_base64, payload = match.groups()
    if not is_base64:
        return urllib.parse.unquote_to_bytes(payload), content_type
    try:
        return base64.b64decode(re.sub(r"\s+", "", payload), validate=True), content_type
    except (binascii.Error, ValueError) as error:
        raise MediaError("the data: URI's base64 is not valid") from error


def _from_url(url: str) -> tuple:
    """A URL input as (bytes, content type, file name): data: decoded here, http(s) fetched, any
    other scheme (file:, ftp:, …) refused naming it."""
    match = _SCHEME.match(url)
    scheme = match.group(1).lower() if match else ""
    if scheme == "data":
        data, content_type = _data_url(url)
        return data, content_type, None
    if scheme in ("http", "https"):
        return _fetch(url)
    raise _refused_scheme(url, scheme)


def _fetch(url: str) -> tuple:
    """GET an http(s) URL: (bytes, content type, file name), or MediaError saying why not.

    http.client is used directly rather than urllib's opener, whose default handlers also read
    file:, ftp: and data: URLs and follow redirects to ftp:. Here redirects are followed only to
    http(s), the body is read in chunks and never past MAX_MEDIA_BYTES + 1 bytes, and one
    deadline covers every connection, header and byte (a server trickling bytes cannot hold a run).
    """
    limit, limit_s = MAX_MEDIA_BYTES, URL_TIMEOUT_S
    deadline = time.monotonic() + limit_s
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        parts = urllib.parse.urlsplit(current)
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https"):
            raise MediaError(
                f"{_shown(url)} redirected to {_shown(current)}, which is refused: redirects are "
                "followed only to http:// and https://"
            )
        location, content_type, data = _get(parts, url, deadline, limit, limit_s)
        if location is None:
            return data, content_type, Path(parts.path).name or None
        current = urllib.parse.urljoin(current, location)
    raise MediaError(f"{_shown(url)} redirected more than {MAX_REDIRECTS} times")


def _get(parts: urllib.parse.SplitResult, url: str, deadline: float, limit: int, limit_s: float) -> tuple:
    """One GET: (redirect location or None, content type, body)."""
    too_slow = MediaError(
        f"{_shown(url)} was not read within {limit_s:g} s, the time limit of a file URL (LIMELIGHT_MEDIA_URL_TIMEOUT_S)"
    )
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise too_slow
    try:
        if not parts.hostname:
            raise ValueError("no host")
        kind = http.client.HTTPSConnection if parts.scheme.lower() == "https" else http.client.HTTPConnection
        connection = kind(parts.hostname, parts.port, timeout=remaining)
    except ValueError as error:  # no host, or a port that is not a number
        raise MediaError(f"{_shown(url)} could not be read ({error})") from error
    expired = threading.Event()

    def expire() -> None:
        # A socket timeout bounds each read, not the whole: a server sending a byte a second would
        # never trip it. At the deadline the socket is shut, which ends any read waiting on it.
        expired.set()
        sock = connection.sock
        if sock is not None:
            try:
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(remaining, expire)
    timer.daemon = True
    timer.start()
    try:
        connection.connect()
        if expired.is_set():  # the deadline passed while connecting, before there was a socket to shut
            raise too_slow
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("GET", target, headers={"User-Agent": "limelight-serve", "Accept": "*/*"})
        response = connection.getresponse()
        location = response.getheader("Location")
        if response.status in (301, 302, 303, 307, 308) and location:
            return location, None, b""
        if not 200 <= response.status < 300:
            raise MediaError(f"{_shown(url)} answered {response.status}")
        declared = (response.getheader("Content-Length") or "").strip()
        if declared.isdigit() and int(declared) > limit:
            raise MediaError(f"the file at {_shown(url)} is {int(declared)} bytes; at most {limit} are accepted")
        chunks, size = [], 0
        while size <= limit:
            chunk = response.read(min(_READ_CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if expired.is_set():  # a shut socket reads as the end: the body was cut, not complete
            raise too_slow
        if size > limit:
            raise MediaError(f"the file at {_shown(url)} is more than {limit} bytes; at most {limit} are accepted")
        content_type = (response.getheader("Content-Type") or "").split(";")[0].strip() or None
        return None, content_type, b"".join(chunks)
    except MediaError:
        raise
    except (OSError, http.client.HTTPException, ValueError) as error:
        if expired.is_set():
            raise too_slow from error
        raise MediaError(f"{_shown(url)} could not be read ({error})") from error
    finally:
        timer.cancel()
        connection.close()


def media_from_value(kind: type, value: Any) -> MediaFile:
    """Reads a JSON or form value as a media file (blocking: URLs are fetched)."""
    if isinstance(value, MediaFile):
        return _checked(kind, value.read(), value.content_type, value.file_name)
    if isinstance(value, dict):
        content_type = value.get("content_type") or value.get("media_type")
        if isinstance(value.get("content"), str):
            return media_from_value(
                kind, f"data:{content_type or 'application/octet-stream'};base64,{value['content']}"
            )
        if isinstance(value.get("url"), str):
            data, fetched_type, name = _from_url(value["url"])
            return _checked(kind, data, content_type or fetched_type, name)
        raise MediaError("a file object needs content (base64) or url")
    if not isinstance(value, str) or value == "":
        raise MediaError(f"expected a file upload, a URL or base64, got {type(value).__name__}")
    if _SCHEME.match(value):  # base64 has no ':': this is a URL
        data, content_type, name = _from_url(value)
        return _checked(kind, data, content_type, name)
    try:
        data = base64.b64decode(re.sub(r"\s+", "", value), validate=True)
    except (binascii.Error, ValueError) as error:
        raise MediaError("not a URL, a data: URI or valid base64") from error
    return _checked(kind, data, None, None)


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
