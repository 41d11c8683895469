"""Verification of job webhooks (Standard Webhooks, https://www.standardwebhooks.com/).

The server signs ``"{webhook-id}.{webhook-timestamp}.{body}"`` with HMAC-SHA256 under your secret
(``whsec_`` + base64, from ``client.webhook_secret()``) and sends ``webhook-signature: v1,<base64>``.
Verify the raw body exactly as received (bytes or str, before any JSON parsing), with the headers
as any mapping (a dict, ``http.server`` headers, a framework's request headers)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional, Union

from .errors import WebhookVerificationError

#: Messages older or newer than this many seconds are refused (replays, skewed clocks).
DEFAULT_TOLERANCE_S = 300


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    getter = getattr(headers, "get", None)
    value = getter(name) if getter else None
    if value is None:
        lowered = name.lower()
        for key, candidate in headers.items():
            if str(key).lower() == lowered:
                value = candidate
                break
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    return None if value is None else str(value)


def _key(secret: str) -> bytes:
    raw = secret[len("whsec_") :] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(raw, validate=True)
    except ValueError as error:
        raise WebhookVerificationError("the webhook secret is not whsec_<base64>") from error


def sign(payload: Union[str, bytes], msg_id: str, timestamp: int, secret: str) -> str:
    """The ``webhook-signature`` value for a message (for tests and for forwarding)."""
    body = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
    signed = f"{msg_id}.{timestamp}.".encode() + body
    digest = hmac.new(_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def verify(
    payload: Union[str, bytes],
    headers: Mapping[str, Any],
    secret: str,
    *,
    tolerance: float = DEFAULT_TOLERANCE_S,
    now: Optional[float] = None,
) -> Any:
    """The parsed event ``{"type", "timestamp", "data": <job>}`` when the signature is valid and the
    timestamp within ``tolerance`` seconds of ``now``; raises WebhookVerificationError otherwise."""
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
    try:
        sent_at = int(timestamp)
    except ValueError as error:
        raise WebhookVerificationError("webhook-timestamp is not a number") from error
    current = time.time() if now is None else now
    if abs(current - sent_at) > tolerance:
        raise WebhookVerificationError(
            f"webhook-timestamp is {int(current - sent_at)} s from now; the tolerance is {int(tolerance)} s"
        )
    expected = sign(payload, msg_id, sent_at, secret).split(",", 1)[1]
    for candidate in signatures.split():
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            text = payload.decode("utf-8") if isinstance(payload, (bytes, bytearray)) else payload
            return json.loads(text)
    raise WebhookVerificationError(
        "no webhook-signature matches: the body or headers were changed, or the secret is wrong"
    )
