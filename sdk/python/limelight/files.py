"""File inputs: what ``upload`` and ``run`` accept as a file, turned into one multipart body."""

from __future__ import annotations

import mimetypes
import os
import uuid
from pathlib import Path
from typing import BinaryIO, Optional, Tuple, Union

#: A file for a file input: a path (``Path`` or ``str``), bytes or a binary file object.
FileInput = Union["os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO, str]


def is_file_input(value: object) -> bool:
    """Values ``run`` always uploads before submitting: ``Path``s, bytes and binary file objects.
    A ``str`` is a URL or data: URI unless it names an existing file (``is_path_string``)."""
    return isinstance(value, (os.PathLike, bytes, bytearray, memoryview)) or hasattr(value, "read")


def is_path_string(value: object) -> bool:
    """A ``str`` that is not a URL or data: URI and names an existing file."""
    if not isinstance(value, str) or not value or "://" in value or value.startswith("data:") or len(value) > 4096:
        return False
    try:
        return Path(value).expanduser().is_file()
    except (OSError, ValueError):
        return False


def read_file(file: FileInput, content_type: Optional[str], filename: Optional[str]) -> Tuple[bytes, str, str]:
    if isinstance(file, (str, os.PathLike)):
        path = Path(file).expanduser()
        data = path.read_bytes()
        filename = filename or path.name
    elif isinstance(file, (bytes, bytearray, memoryview)):
        data = bytes(file)
    else:
        data = file.read()
        name = getattr(file, "name", None)
        if not filename and isinstance(name, str):
            filename = os.path.basename(name)
    filename = filename or "upload"
    content_type = content_type or mimetypes.guess_type(filename)[0] or sniff(data)
    return data, content_type, filename


_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"%PDF", "application/pdf"),
    (b"ID3", "audio/mpeg"),
    (b"OggS", "audio/ogg"),
)


def sniff(data: bytes) -> str:
    """The type of bytes without a name, from their first bytes (the server accepts listed types only)."""
    for signature, content_type in _SIGNATURES:
        if data.startswith(signature):
            return content_type
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        return "audio/wav"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return "application/octet-stream"


def multipart(data: bytes, content_type: str, filename: str) -> Tuple[bytes, str]:
    boundary = f"limelight-{uuid.uuid4().hex}"
    safe_name = filename.replace('"', "").replace("\r", "").replace("\n", "")
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{safe_name}"\r\n'
        f"Content-Type: {content_type}\r\n\r\n"
    ).encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode("ascii"), f"multipart/form-data; boundary={boundary}"
