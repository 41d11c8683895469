"""Limelight: run hosted AI services from Python (standard library only).

import limelight
client = limelight.Client()  # LIMELIGHT_BASE_URL and LIMELIGHT_API_KEY, or base_url=…, api_key=…
print(client.run("lime-diffusion-xl", input={"prompt": "a lighthouse at dusk"}))
"""

from . import webhooks
from ._http import InsecureTransportWarning
from .aio import AsyncClient
from .client import Client, __version__
from .errors import (
    APIError,
    AuthenticationError,
    ConflictError,
    ConnectionFailedError,
    InsufficientCreditsError,
    JobFailedError,
    JobTimeoutError,
    LimelightError,
    NotFoundError,
    RateLimitError,
    ValidationError,
    WebhookVerificationError,
)
from .files import FileInput
from .models import (
    FINAL_STATUSES,
    FieldError,
    FileRef,
    Job,
    JobEstimate,
    JobEvent,
    JobList,
    JobStatus,
    LogLine,
    WebhookEventType,
)
from .output import AsyncFileOutput, FileOutput

__all__ = [
    "AsyncClient",
    "Client",
    "InsecureTransportWarning",
    "webhooks",
    "__version__",
    "APIError",
    "AuthenticationError",
    "ConflictError",
    "ConnectionFailedError",
    "InsufficientCreditsError",
    "JobFailedError",
    "JobTimeoutError",
    "LimelightError",
    "NotFoundError",
    "RateLimitError",
    "ValidationError",
    "WebhookVerificationError",
    "FINAL_STATUSES",
    "FieldError",
    "FileRef",
    "Job",
    "JobEvent",
    "JobStatus",
    "FileInput",
    "FileOutput",
    "AsyncFileOutput",
    "JobEstimate",
    "JobList",
    "LogLine",
    "WebhookEventType",
]
