"""Errors of the Limelight client: every failure names its HTTP status, the server's message and,
for invalid input (422), one entry per bad field. A job that was created is never lost: errors
raised while waiting for one carry its ``job_id`` so the result can be fetched later."""

from __future__ import annotations

import re
from typing import Any, List, Mapping, Optional

from .models import FieldError, Job


class LimelightError(Exception):
    """Base class of every error this package raises."""

    def __init__(self, message: str, *, job_id: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.job_id = job_id


class APIError(LimelightError):
    """The server answered with an error status (``{"detail": ..., "errors": [...]}``)."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        fields: Optional[List[FieldError]] = None,
        body: Any = None,
        job_id: Optional[str] = None,
    ) -> None:
        super().__init__(f"{status}: {message}", job_id=job_id)
        self.status = status
        self.detail = message
        self.fields: List[FieldError] = list(fields or [])
        self.body = body

    @property
    def code(self) -> str:
        """A short name of the failure, stable across messages."""
        return _CODES.get(self.status, "server_error" if self.status >= 500 else "http_error")


class AuthenticationError(APIError):
    """401: no, invalid or expired credentials."""


class InsufficientCreditsError(APIError):
    """402: the balance does not cover the run's estimate; no job was created."""


class NotFoundError(APIError):
    """404: unknown (or someone else's private) service, endpoint or job."""


class ConflictError(APIError):
    """409: an Idempotency-Key reused for a different request (``job_id`` is the job it made), or a
    paused service."""


class ValidationError(APIError):
    """422: ``fields`` lists every bad field as ``{"name", "rule", "message"}``."""


class RateLimitError(APIError):
    """429 after every retry."""


_CODES = {
    400: "bad_request",
    401: "unauthorized",
    402: "insufficient_credits",
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    413: "too_large",
    415: "unsupported_type",
    422: "invalid_input",
    429: "rate_limited",
}

_CLASSES = {
    401: AuthenticationError,
    402: InsufficientCreditsError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationError,
    429: RateLimitError,
}


def api_error(status: int, body: Any) -> APIError:
    """The error for an answer: the subclass of its status with the server's detail and fields."""
    detail = body.get("detail") if isinstance(body, Mapping) else None
    fields = body.get("errors") if isinstance(body, Mapping) else None
    message = detail if isinstance(detail, str) else (body if isinstance(body, str) and body else f"HTTP {status}")
    cls = _CLASSES.get(status, APIError)
    job = _NAMED_JOB.search(message) if status == 409 else None
    return cls(
        status,
        message,
        fields=fields if isinstance(fields, list) else None,
        body=body,
        job_id=job.group(1) if job else None,
    )


# The job a 409 names ("Idempotency-Key k was already used for a different request (job <id>)"),
# so the caller can fetch the job the key already made rather than parse the message.
_NAMED_JOB = re.compile(r"\bjob ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b", re.IGNORECASE)


class ConnectionFailedError(LimelightError):
    """The server could not be reached (after every retry)."""


class JobFailedError(LimelightError):
    """The job ended FAILED, TIMEOUT or CANCELLED; ``job`` is its envelope, ``error`` its error."""

    def __init__(self, job: Job) -> None:
        error = job.get("error") or {}
        super().__init__(
            f"job {job['job_id']} ended {job['status']}: {error.get('message', 'no message')}", job_id=job["job_id"]
        )
        self.job = job
        self.status = job["status"]
        self.code = error.get("code")


class JobTimeoutError(LimelightError):
    """``run`` stopped waiting; the job goes on. Fetch it later with ``client.get(error.job_id)``."""


class WebhookVerificationError(LimelightError):
    """A webhook's signature, headers or timestamp did not check out: do not trust its body."""
