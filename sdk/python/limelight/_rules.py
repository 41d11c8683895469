"""The platform's rules (prices, GPU offers, limits, defaults, statuses), generated from
@limelight/rules (packages/rules) by scripts/python-rules.mjs: do not edit, change them there and
run the script (docs/architecture.md, "Where the rules live")."""

import math
from typing import Literal

#: One of JOB_STATUSES.
JobStatus = Literal["QUEUED", "PROCESSING", "FINISHED", "FAILED", "TIMEOUT", "CANCELLED"]

#: product-rules §9: an API key's lifetime when its owner picks none, in days.
API_KEY_DEFAULT_LIFETIME_DAYS = 183

#: A container runtime's fields the owner may leave out: FastAPI's port and document, one job per instance at a time.
CONTAINER_RUNTIME_DEFAULTS = {
    "port": 8080,
    "health_path": "/openapi.json",
    "concurrency": 1,
}

#: The CPU tier (docs/jobs.md: metering): the price of one CPU-second, in the GPU table's units (USD per second), for the services whose real model runs on the platform's CPU (the local models: OCR, voice, cutout, speech to text, face detection). A CPU core rents for about a tenth of the cheapest GPU here (RTX A4000, 0.00016), so a second of Tesseract is not priced as a second of an A100.
CPU_PRICE = {
    "id": "limelight-cpu",
    "display_name": "CPU",
    "customer_price_per_s_usd": 0.00002,
}

#: Credits per US dollar of GPU time (92).
CREDITS_PER_USD = 92

#: The GPU that prices the runs of a service with no hosting record (docs/jobs.md: metering).
DEFAULT_GPU = "L4 24 GB"

#: The defaults fit a CPU service, so several instances, the paused pool and a rolling update fit on an ordinary host.
DEFAULT_RESOURCES = {
    "cpu": 1,
    "memory_mb": 1024,
    "gpu": 0,
}

#: 1 credit = 0.01 EUR (the server's default credit price).
EUR_PER_CREDIT = 0.01

#: Fixed conversion of the USD GPU prices: 1 USD = 0.92 EUR, hence 92 credits per USD.
EUR_PER_USD = 0.92

#: Job statuses after which a job never changes again.
FINAL_JOB_STATUSES = (
    "FINISHED",
    "FAILED",
    "TIMEOUT",
    "CANCELLED",
)

#: Per-second prices in USD, of the size the providers list for serverless GPUs. Clients keep the offers whose provider contains one of `PRICING_PROVIDER_IDS` (product-rules §7); the last three are other providers they filter out.
GPU_PRICES = (
    {
        "id": "runpod-a4000-16",
        "display_name": "RTX A4000 16 GB",
        "provider": "runpod",
        "physical_gpus": 1,
        "gpu_vram_gb": 16,
        "customer_price_per_s_usd": 0.00016,
    },
    {
        "id": "runpod-l4-24",
        "display_name": "L4 24 GB",
        "provider": "runpod",
        "physical_gpus": 1,
        "gpu_vram_gb": 24,
        "customer_price_per_s_usd": 0.00019,
    },
    {
        "id": "runpod-a5000-24",
        "display_name": "RTX A5000 24 GB",
        "provider": "runpod",
        "physical_gpus": 1,
        "gpu_vram_gb": 24,
        "customer_price_per_s_usd": 0.00022,
    },
    {
        "id": "runpod-4090-24",
        "display_name": "RTX 4090 24 GB",
        "provider": "runpod-secure",
        "physical_gpus": 1,
        "gpu_vram_gb": 24,
        "customer_price_per_s_usd": 0.00031,
    },
    {
        "id": "runpod-a6000-48",
        "display_name": "RTX A6000 48 GB",
        "provider": "runpod",
        "physical_gpus": 1,
        "gpu_vram_gb": 48,
        "customer_price_per_s_usd": 0.00034,
    },
    {
        "id": "runpod-l40s-48",
        "display_name": "L40S 48 GB",
        "provider": "runpod-secure",
        "physical_gpus": 1,
        "gpu_vram_gb": 48,
        "customer_price_per_s_usd": 0.00053,
    },
    {
        "id": "runpod-a100-80",
        "display_name": "A100 80 GB",
        "provider": "runpod",
        "physical_gpus": 1,
        "gpu_vram_gb": 80,
        "customer_price_per_s_usd": 0.00076,
    },
    {
        "id": "runpod-h100-80",
        "display_name": "H100 80 GB",
        "provider": "runpod-secure",
        "physical_gpus": 1,
        "gpu_vram_gb": 80,
        "customer_price_per_s_usd": 0.00116,
    },
    {
        "id": "runpod-h200-141",
        "display_name": "H200 141 GB",
        "provider": "runpod-secure",
        "physical_gpus": 1,
        "gpu_vram_gb": 141,
        "customer_price_per_s_usd": 0.00155,
    },
    {
        "id": "runpod-2xh100-160",
        "display_name": "2× H100 80 GB",
        "provider": "runpod-secure",
        "physical_gpus": 2,
        "gpu_vram_gb": 160,
        "customer_price_per_s_usd": 0.00232,
    },
    {
        "id": "replicate-t4-16",
        "display_name": "T4 16 GB",
        "provider": "replicate",
        "physical_gpus": 1,
        "gpu_vram_gb": 16,
        "customer_price_per_s_usd": 0.000225,
    },
    {
        "id": "replicate-l40s-48",
        "display_name": "L40S 48 GB",
        "provider": "replicate",
        "physical_gpus": 1,
        "gpu_vram_gb": 48,
        "customer_price_per_s_usd": 0.000975,
    },
    {
        "id": "replicate-a100-80",
        "display_name": "A100 80 GB",
        "provider": "replicate",
        "physical_gpus": 1,
        "gpu_vram_gb": 80,
        "customer_price_per_s_usd": 0.0014,
    },
    {
        "id": "replicate-h100-80",
        "display_name": "H100 80 GB",
        "provider": "replicate",
        "physical_gpus": 1,
        "gpu_vram_gb": 80,
        "customer_price_per_s_usd": 0.001525,
    },
    {
        "id": "lambda-a100-40",
        "display_name": "A100 40 GB",
        "provider": "lambdalabs",
        "physical_gpus": 1,
        "gpu_vram_gb": 40,
        "customer_price_per_s_usd": 0.00036,
    },
    {
        "id": "vast-3090-24",
        "display_name": "RTX 3090 24 GB",
        "provider": "vast.ai",
        "physical_gpus": 1,
        "gpu_vram_gb": 24,
        "customer_price_per_s_usd": 0.00008,
    },
    {
        "id": "coreweave-h100-80",
        "display_name": "H100 80 GB",
        "provider": "coreweave",
        "physical_gpus": 1,
        "gpu_vram_gb": 80,
        "customer_price_per_s_usd": 0.00135,
    },
)

#: Job statuses in lifecycle order; the last four are final.
JOB_STATUSES = (
    "QUEUED",
    "PROCESSING",
    "FINISHED",
    "FAILED",
    "TIMEOUT",
    "CANCELLED",
)

#: The longest `Prefer: wait` the server honours, in seconds.
MAX_PREFER_WAIT_S = 60

#: Secrets one service may hold.
MAX_SECRETS = 50

#: The longest name of a secret, in characters.
MAX_SECRET_NAME_LENGTH = 64

#: Bytes of one value (UTF-8): large enough for a PEM key, small enough for a container's environment.
MAX_SECRET_VALUE_BYTES = 16384

#: product-rules §7: the third-party GPU providers whose offers the pricing views show.
PRICING_PROVIDER_IDS = (
    "runpod",
    "replicate",
)

#: Private services each plan may host (Free 0, Plus 2, Pro 5, Enterprise unlimited). Public hosting is free on every plan.
PRIVATE_SERVICE_LIMITS = {
    "free": 0,
    "plus": 2,
    "pro": 5,
    "enterprise": math.inf,
}

#: Share of a run's cost credited to the publisher of a public service (not for own runs).
PUBLISHER_SHARE = 0.3

#: Names the platform sets itself (PORT, docs/publishing.md "The container contract") or the process needs.
RESERVED_SECRET_NAMES = (
    "PORT",
    "PATH",
    "HOME",
    "HOSTNAME",
)

#: Names with this prefix are the platform's.
RESERVED_SECRET_PREFIX = "LIMELIGHT_"

#: What a service may declare, per instance (the runtime schema's ranges).
RESOURCE_BOUNDS = {
    "cpu": {
        "min": 0.1,
        "max": 32,
    },
    "memory_mb": {
        "min": 64,
        "max": 262144,
    },
    "gpu": {
        "min": 0,
        "max": 8,
    },
}

#: A secret's name: an environment variable's, capital letters, digits and _, not starting with a digit.
SECRET_NAME_PATTERN = "^[A-Z_][A-Z0-9_]*$"
