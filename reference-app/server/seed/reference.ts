// Reference data: GPU pricing servers, plans (spec §9) and newsletter topics.

/**
 * Per-second prices in USD, of the size the providers list for serverless GPUs. Clients keep
 * the servers whose provider contains 'runpod' or 'replicate' (spec §7); the last three are
 * other providers they filter out.
 */
export const SEED_PRICING_SERVERS = [
  { id: 'runpod-a4000-16', display_name: 'RTX A4000 16 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 16, customer_price_per_s_usd: 0.00016 },
  { id: 'runpod-l4-24', display_name: 'L4 24 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 24, customer_price_per_s_usd: 0.00019 },
  { id: 'runpod-a5000-24', display_name: 'RTX A5000 24 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 24, customer_price_per_s_usd: 0.00022 },
  { id: 'runpod-4090-24', display_name: 'RTX 4090 24 GB', provider: 'runpod-secure', physical_gpus: 1, gpu_vram_gb: 24, customer_price_per_s_usd: 0.00031 },
  { id: 'runpod-a6000-48', display_name: 'RTX A6000 48 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 48, customer_price_per_s_usd: 0.00034 },
  { id: 'runpod-l40s-48', display_name: 'L40S 48 GB', provider: 'runpod-secure', physical_gpus: 1, gpu_vram_gb: 48, customer_price_per_s_usd: 0.00053 },
  { id: 'runpod-a100-80', display_name: 'A100 80 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.00076 },
  { id: 'runpod-h100-80', display_name: 'H100 80 GB', provider: 'runpod-secure', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.00116 },
  { id: 'runpod-h200-141', display_name: 'H200 141 GB', provider: 'runpod-secure', physical_gpus: 1, gpu_vram_gb: 141, customer_price_per_s_usd: 0.00155 },
  { id: 'runpod-2xh100-160', display_name: '2× H100 80 GB', provider: 'runpod-secure', physical_gpus: 2, gpu_vram_gb: 160, customer_price_per_s_usd: 0.00232 },
  { id: 'replicate-t4-16', display_name: 'T4 16 GB', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 16, customer_price_per_s_usd: 0.000225 },
  { id: 'replicate-l40s-48', display_name: 'L40S 48 GB', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 48, customer_price_per_s_usd: 0.000975 },
  { id: 'replicate-a100-80', display_name: 'A100 80 GB', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.0014 },
  { id: 'replicate-h100-80', display_name: 'H100 80 GB', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.001525 },
  { id: 'lambda-a100-40', display_name: 'A100 40 GB', provider: 'lambdalabs', physical_gpus: 1, gpu_vram_gb: 40, customer_price_per_s_usd: 0.00036 },
  { id: 'vast-3090-24', display_name: 'RTX 3090 24 GB', provider: 'vast.ai', physical_gpus: 1, gpu_vram_gb: 24, customer_price_per_s_usd: 0.00008 },
  { id: 'coreweave-h100-80', display_name: 'H100 80 GB', provider: 'coreweave', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.00135 },
];

/** Spec §9 plans, with the texts of the widgets' strings table (src/config/strings/pricing.ts). */
export const SEED_PLANS = [
  {
    key: 'free',
    title: 'Free',
    sub: 'forever',
    currency: 'USD',
    price_major: 0,
    price_cents: 0,
    strike_through: null,
    button_text: 'Start for free',
    badge: null,
    active: true,
    features: ['Limited access to the model marketplace', 'Free public hosting of your services', 'Earn credits on every request to your public services', 'Generated Python and JavaScript SDKs'],
  },
  {
    key: 'plus',
    title: 'Plus',
    sub: 'per month',
    currency: 'EUR',
    price_major: 4,
    price_cents: 99,
    strike_through: null,
    button_text: 'Choose Plus',
    badge: null,
    active: true,
    features: ['Everything in Free', 'Private hosting for up to 2 services', 'Higher daily usage limits', 'Per-second serverless GPU billing'],
  },
  {
    key: 'pro',
    title: 'Pro',
    sub: 'per month',
    currency: 'EUR',
    price_major: 19,
    price_cents: 99,
    strike_through: '$29,99',
    button_text: 'Choose Pro',
    badge: 'Most Popular',
    active: true,
    features: ['Everything in Plus', 'Private hosting for up to 5 services', 'Premium support', 'Early access to new features'],
  },
  {
    key: 'enterprise',
    title: 'Enterprise',
    sub: 'per person per month',
    currency: 'EUR',
    price_major: 39,
    price_cents: 99,
    strike_through: null,
    button_text: 'Choose Enterprise',
    badge: null,
    active: true,
    features: ['Everything in Pro', 'Unlimited private hosting', 'Shared organisation balance', 'Single sign-on (SSO)', 'Service level agreement (SLA)', 'Audit logs'],
  },
];

export const SEED_NEWSLETTER_OPTIONS = [
  { id: 1, display_value: 'Product updates', description: 'New features of the platform, once a month.' },
  { id: 2, display_value: 'New models', description: 'The most interesting services added to the marketplace each week.' },
  { id: 3, display_value: 'Hosting & GPUs', description: 'Price changes, new GPU types and regions for serverless hosting.' },
  { id: 4, display_value: 'Developer tips', description: 'Tutorials for the Python and JavaScript SDKs and the task API.' },
  { id: 5, display_value: 'Events & webinars', description: 'Invitations to live sessions and meetups.' },
];
