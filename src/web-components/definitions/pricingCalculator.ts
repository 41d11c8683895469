// Pure data (no runtime imports): the manifest script loads it in Node; each element imports only its own.
import type { WidgetDefinition } from '../types';
import { apiUrl, theme, strings } from './common';

export const pricingCalculatorDefinition = {
  tag: 'lime-pricing-calculator',
  className: 'LimePricingCalculatorElement',
  bundle: 'lime-pricing-calculator',
  description:
    'Serverless cost calculator (product-rules §2 Pricing page, §9): GPU memory chips, requests per hour and execution time, the monthly estimate and the GPU price table.',
  attributes: [
    apiUrl,
    {
      name: 'gpu-vram-gb',
      property: 'gpuVramGb',
      type: 'number',
      default: 'the smallest',
      description: 'GPU memory chip selected at first, in GB.',
    },
    {
      name: 'requests-per-hour',
      property: 'requestsPerHour',
      type: 'number',
      default: '100',
      description: 'Requests per hour at first (product-rules §9).',
    },
    {
      name: 'execution-ms',
      property: 'executionMs',
      type: 'number',
      default: '300',
      description: 'Execution time in milliseconds at first (product-rules §9).',
    },
    {
      name: 'live',
      property: 'live',
      type: 'boolean',
      default: 'true',
      description:
        'Fetches live prices from `api-url` after showing the bundled ones; `live="false"` keeps the bundled prices (no network).',
    },
    {
      name: 'show-table',
      property: 'showTable',
      type: 'boolean',
      default: 'true',
      description: 'Shows the GPU price table below the estimate; `show-table="false"` hides it.',
    },
    {
      name: 'heading-level',
      property: 'headingLevel',
      type: 'number',
      typeText: '0 | 2 | 3 | 4 | 5 | 6',
      default: '3',
      description: "Heading level of the calculator's title, or 0 for no visible title.",
    },
    theme,
    strings,
  ],
  events: [
    {
      name: 'estimate',
      detail: '{ server: PricingServer; requestsPerHour: number; executionMs: number; monthlyCostUsd: number }',
      description:
        'A new valid estimate (the first one too): the GPU, both inputs and the monthly cost in whole US dollars. Not sent while an input is invalid.',
    },
  ],
  methods: [],
} as const satisfies WidgetDefinition;
