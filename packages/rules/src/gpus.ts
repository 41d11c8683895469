// GPU prices (product-rules §4, §9): the one table behind the platform server's `pricing_servers`
// seed, the widgets' bundled copy shown before the live list arrives, and the price of a run.
// A price changes here and nowhere else (docs/architecture.md, "Where the rules live").

/** One GPU offer of a provider, as `GET /v1/model_management/pricing_servers` lists it. */
export interface GpuPrice {
  id: string;
  display_name: string;
  provider: string;
  physical_gpus: number;
  gpu_vram_gb: number;
  /** The customer's price per second of this GPU, USD. */
  customer_price_per_s_usd: number;
}

/**
 * Per-second prices in USD, of the size the providers list for serverless GPUs. Clients keep
 * the offers whose provider contains one of `PRICING_PROVIDER_IDS` (product-rules §7); the last
 * three are other providers they filter out.
 */
export const GPU_PRICES: readonly GpuPrice[] = [
  {
    id: 'runpod-a4000-16',
    display_name: 'RTX A4000 16 GB',
    provider: 'runpod',
    physical_gpus: 1,
    gpu_vram_gb: 16,
    customer_price_per_s_usd: 0.00016,
  },
  {
    id: 'runpod-l4-24',
    display_name: 'L4 24 GB',
    provider: 'runpod',
    physical_gpus: 1,
    gpu_vram_gb: 24,
    customer_price_per_s_usd: 0.00019,
  },
  {
    id: 'runpod-a5000-24',
    display_name: 'RTX A5000 24 GB',
    provider: 'runpod',
    physical_gpus: 1,
    gpu_vram_gb: 24,
    customer_price_per_s_usd: 0.00022,
  },
  {
    id: 'runpod-4090-24',
    display_name: 'RTX 4090 24 GB',
    provider: 'runpod-secure',
    physical_gpus: 1,
    gpu_vram_gb: 24,
    customer_price_per_s_usd: 0.00031,
  },
  {
    id: 'runpod-a6000-48',
    display_name: 'RTX A6000 48 GB',
    provider: 'runpod',
    physical_gpus: 1,
    gpu_vram_gb: 48,
    customer_price_per_s_usd: 0.00034,
  },
  {
    id: 'runpod-l40s-48',
    display_name: 'L40S 48 GB',
    provider: 'runpod-secure',
    physical_gpus: 1,
    gpu_vram_gb: 48,
    customer_price_per_s_usd: 0.00053,
  },
  {
    id: 'runpod-a100-80',
    display_name: 'A100 80 GB',
    provider: 'runpod',
    physical_gpus: 1,
    gpu_vram_gb: 80,
    customer_price_per_s_usd: 0.00076,
  },
  {
    id: 'runpod-h100-80',
    display_name: 'H100 80 GB',
    provider: 'runpod-secure',
    physical_gpus: 1,
    gpu_vram_gb: 80,
    customer_price_per_s_usd: 0.00116,
  },
  {
    id: 'runpod-h200-141',
    display_name: 'H200 141 GB',
    provider: 'runpod-secure',
    physical_gpus: 1,
    gpu_vram_gb: 141,
    customer_price_per_s_usd: 0.00155,
  },
  {
    id: 'runpod-2xh100-160',
    display_name: '2× H100 80 GB',
    provider: 'runpod-secure',
    physical_gpus: 2,
    gpu_vram_gb: 160,
    customer_price_per_s_usd: 0.00232,
  },
  {
    id: 'replicate-t4-16',
    display_name: 'T4 16 GB',
    provider: 'replicate',
    physical_gpus: 1,
    gpu_vram_gb: 16,
    customer_price_per_s_usd: 0.000225,
  },
  {
    id: 'replicate-l40s-48',
    display_name: 'L40S 48 GB',
    provider: 'replicate',
    physical_gpus: 1,
    gpu_vram_gb: 48,
    customer_price_per_s_usd: 0.000975,
  },
  {
    id: 'replicate-a100-80',
    display_name: 'A100 80 GB',
    provider: 'replicate',
    physical_gpus: 1,
    gpu_vram_gb: 80,
    customer_price_per_s_usd: 0.0014,
  },
  {
    id: 'replicate-h100-80',
    display_name: 'H100 80 GB',
    provider: 'replicate',
    physical_gpus: 1,
    gpu_vram_gb: 80,
    customer_price_per_s_usd: 0.001525,
  },
  {
    id: 'lambda-a100-40',
    display_name: 'A100 40 GB',
    provider: 'lambdalabs',
    physical_gpus: 1,
    gpu_vram_gb: 40,
    customer_price_per_s_usd: 0.00036,
  },
  {
    id: 'vast-3090-24',
    display_name: 'RTX 3090 24 GB',
    provider: 'vast.ai',
    physical_gpus: 1,
    gpu_vram_gb: 24,
    customer_price_per_s_usd: 0.00008,
  },
  {
    id: 'coreweave-h100-80',
    display_name: 'H100 80 GB',
    provider: 'coreweave',
    physical_gpus: 1,
    gpu_vram_gb: 80,
    customer_price_per_s_usd: 0.00135,
  },
];

/** product-rules §7: the third-party GPU providers whose offers the pricing views show. */
export const PRICING_PROVIDER_IDS = ['runpod', 'replicate'] as const;

/**
 * The CPU tier (docs/jobs.md: metering): the price of one CPU-second, in the GPU table's units
 * (USD per second), for the services whose real model runs on the platform's CPU (the local
 * models: OCR, voice, cutout, speech to text, face detection). A CPU core rents for about a
 * tenth of the cheapest GPU here (RTX A4000, 0.00016), so a second of Tesseract is not priced
 * as a second of an A100.
 */
export const CPU_PRICE = {
  id: 'limelight-cpu',
  display_name: 'CPU',
  customer_price_per_s_usd: 0.00002,
} as const;

/**
 * The price per second of a run on `gpuCount` GPUs of an offer (docs/publishing.md, "Resources"):
 * a service that declares `resources.gpu: {type, count}` pays the offer's price once per GPU each
 * instance holds. A count of 0 (a service that asks the runner for no GPU but names an offer, as
 * every service did before counts existed) is priced as one: the offer alone prices it.
 */
export function gpuPricePerSecond(offerPricePerSecondUsd: number, gpuCount: number): number {
  const count = Number.isInteger(gpuCount) && gpuCount > 1 ? gpuCount : 1;
  return offerPricePerSecondUsd * count;
}

/** The GPU that prices the runs of a service with no hosting record (docs/jobs.md: metering). */
export const DEFAULT_GPU = 'L4 24 GB';
