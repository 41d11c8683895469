"""Types of the job API (docs/jobs.md), as TypedDicts: the answers are plain dicts, typed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional, TypedDict

from ._rules import FINAL_JOB_STATUSES, JobStatus

# The statuses are the platform's rules, generated into _rules (docs/architecture.md, "Where the
# rules live").
FINAL_STATUSES = FINAL_JOB_STATUSES
#: What a job's webhook may be sent for (``webhook_events_filter``; docs/jobs.md, "Webhooks").
WebhookEventType = Literal["start", "output", "logs", "completed"]


class FileRef(TypedDict):
    """A stored file: inputs take its ``url``; media outputs are FileRefs."""

    url: str
    content_type: str
    size: int


class FieldError(TypedDict):
    name: str
    rule: str
    message: str


class JobError(TypedDict):
    code: str
    message: str


class JobMetrics(TypedDict):
    queue_ms: Optional[float]
    run_ms: Optional[float]
    gpu_seconds: Optional[float]
    cost_credits: Optional[float]


class JobLinks(TypedDict):
    self: str
    cancel: str
    stream: str


class QueueInfo(TypedDict):
    position: int


class Job(TypedDict):
    """The job envelope."""

    job_id: str
    service_id: str
    endpoint: str
    status: JobStatus
    progress: float
    message: Optional[str]
    input: Dict[str, Any]
    result: Any
    error: Optional[JobError]
    runtime: Optional[str]
    queue: Optional[QueueInfo]
    metrics: JobMetrics
    created_at: str
    started_at: Optional[str]
    finished_at: Optional[str]
    output_expires_at: Optional[str]
    links: JobLinks


class LogLine(TypedDict):
    """A line a job's container wrote: in ``Client.logs`` and as the stream's ``log`` events."""

    at: str
    stream: Literal["stdout", "stderr"]
    text: str


class JobEstimate(TypedDict):
    """What a run probably costs: the service's GPU price and the endpoint's recent run times."""

    service_id: str
    endpoint: str
    gpu: str
    price_per_s_usd: float
    recent_run_seconds: List[float]


class JobList(TypedDict):
    jobs: List[Job]
    next_cursor: Optional[str]


@dataclass(frozen=True)
class JobEvent:
    """One server-sent event of a job's stream: ``id`` is the version to resume after."""

    id: Optional[str]
    event: str
    job: Job

    @property
    def final(self) -> bool:
        return self.job["status"] in FINAL_STATUSES


def is_final(job: Job) -> bool:
    return job["status"] in FINAL_STATUSES
