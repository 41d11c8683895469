/**
 * Texts of the pricing widgets (product-rules §2 "Pricing page", §9 "Plans" and "Calculator"). Prices
 * and limits are data in `src/pricing/`; only words live here. Placeholders: `{max}`,
 * `{vram}`, `{name}`, `{provider}`.
 */
export const pricingStrings = {
  plans: {
    /** Accessible name of the list of plan cards. */
    listLabel: 'Plans',
    /** product-rules §9: the Pro plan's badge. */
    mostPopular: 'Most Popular',
    /** Read before the struck-through price by screen readers. */
    previousPrice: 'Previously',
    /** Before Enterprise's price (product-rules §9: "from 39.99"). */
    from: 'from',
    free: {
      title: 'Free',
      sub: 'forever',
      buttonText: 'Start for free',
      features: {
        models: 'Limited access to the model marketplace',
        publicHosting: 'Free public hosting of your services',
        credits: 'Earn credits on every request to your public services',
        sdks: 'Generated Python and JavaScript SDKs',
      },
    },
    plus: {
      title: 'Plus',
      sub: 'per month',
      buttonText: 'Choose Plus',
      features: {
        everything: 'Everything in Free',
        privateHosting: 'Private hosting for up to 2 services',
        limits: 'Higher daily usage limits',
        billing: 'Per-second serverless GPU billing',
      },
    },
    pro: {
      title: 'Pro',
      sub: 'per month',
      buttonText: 'Choose Pro',
      features: {
        everything: 'Everything in Plus',
        privateHosting: 'Private hosting for up to 5 services',
        support: 'Premium support',
        earlyAccess: 'Early access to new features',
      },
    },
    enterprise: {
      title: 'Enterprise',
      sub: 'per person per month',
      buttonText: 'Choose Enterprise',
      features: {
        everything: 'Everything in Pro',
        privateHosting: 'Unlimited private hosting',
        balance: 'Shared organisation balance',
        sso: 'Single sign-on (SSO)',
        sla: 'Service level agreement (SLA)',
        audit: 'Audit logs',
      },
    },
  },
  calculator: {
    /** Accessible name of the calculator. */
    title: 'Serverless cost calculator',
    /** Legend of the GPU chip radio group. */
    gpuMemory: 'GPU memory',
    /** A chip's main text. */
    vram: '{vram} GB',
    /** The CPU tier's chip and table row (its chip reads the tier's name, CPU_PRICE's "CPU"): priced per CPU-second. */
    cpuTier: 'CPU tier, per CPU-second',
    requestsPerHour: 'Requests per hour',
    executionMs: 'Execution time (ms)',
    monthlyCost: 'Estimated monthly cost',
    /** Under the estimate: which GPU it is for. */
    estimateOn: 'on {name} ({vram} GB, {provider})',
    perMonth: 'per month',
    /** Shown instead of a figure while an input is invalid. */
    noEstimate: 'Fix the inputs to see an estimate',
    noServers: 'No GPU prices available right now.',
    /** Field errors (never NaN or Infinity on screen). */
    errors: {
      required: 'Enter a number.',
      notANumber: 'Enter a number, digits only.',
      negative: 'Must be 0 or more.',
      tooLarge: 'Must be at most {max}.',
    },
  },
  table: {
    /** Caption of the GPU table. */
    caption: 'Serverless GPU prices, cheapest first',
    gpu: 'GPU',
    vram: 'Memory',
    provider: 'Provider',
    pricePerSecond: 'Price per second',
    pricePerHour: 'Price per hour',
    selected: 'Selected',
  },
};
