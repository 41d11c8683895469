"""Limelight: run hosted AI services from Python (standard library only).

    import limelight
    client = limelight.Client(base_url="http://localhost:3000", api_key="lime_…")
    print(client.run("lime-diffusion-xl", input={"prompt": "a lighthouse at dusk"}))
"""

from . import webhooks
from .client import Client, __version__
from .errors import (APIError, AuthenticationError, ConflictError, ConnectionFailedError, InsufficientCreditsError,
                     JobFailedError, JobTimeoutError, LimelightError, NotFoundError, RateLimitError, ValidationError,
                     WebhookVerificationError)
from .models import FINAL_STATUSES, FieldError, FileRef, Job, JobEvent, JobStatus

__all__ = [
    "Client", "webhooks", "__version__", "APIError", "AuthenticationError", "ConflictError", "ConnectionFailedError",
    "InsufficientCreditsError", "JobFailedError", "JobTimeoutError", "LimelightError", "NotFoundError",
    "RateLimitError", "ValidationError", "WebhookVerificationError", "FINAL_STATUSES", "FieldError", "FileRef", "Job",
    "JobEvent", "JobStatus",
]
