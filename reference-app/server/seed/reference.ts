// Reference data: GPU pricing servers, plans (product-rules §9) and newsletter topics.
import { GPU_PRICES } from '@limelight/rules';

/**
 * The GPU offers and their per-second prices: the platform's one price table (@limelight/rules),
 * which the widgets bundle too. A price changes there.
 */
export const SEED_PRICING_SERVERS = GPU_PRICES.map((offer) => ({ ...offer }));

/** product-rules §9 plans, with the texts of the widgets' strings table (src/config/strings/pricing.ts). */
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
    features: [
      'Limited access to the model marketplace',
      'Free public hosting of your services',
      'Earn credits on every request to your public services',
      'Generated Python and JavaScript SDKs',
    ],
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
    features: [
      'Everything in Free',
      'Private hosting for up to 2 services',
      'Higher daily usage limits',
      'Per-second serverless GPU billing',
    ],
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
    features: [
      'Everything in Pro',
      'Unlimited private hosting',
      'Shared organisation balance',
      'Single sign-on (SSO)',
      'Service level agreement (SLA)',
      'Audit logs',
    ],
  },
];

export const SEED_NEWSLETTER_OPTIONS = [
  { id: 1, display_value: 'Product updates', description: 'New features of the platform, once a month.' },
  { id: 2, display_value: 'New models', description: 'The most interesting services added to the marketplace each week.' },
  { id: 3, display_value: 'Hosting & GPUs', description: 'Price changes, new GPU types and regions for serverless hosting.' },
  { id: 4, display_value: 'Developer tips', description: 'Tutorials for the Python and JavaScript SDKs and the task API.' },
  { id: 5, display_value: 'Events & webinars', description: 'Invitations to live sessions and meetups.' },
];
