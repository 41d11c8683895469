import type { SubscriptionOption } from '@limelight/widgets/api';

/**
 * product-rules §5: the subscribe_to ids are filtered to numbers that exist among the options; if the
 * parameter is absent, all options are preselected.
 */
export function initialSelection(subscribeTo: string | null, options: SubscriptionOption[]): number[] {
  const known = new Set(options.map((o) => o.id));
  if (subscribeTo === null) return options.map((o) => o.id);
  return [
    ...new Set(
      subscribeTo
        .split(',')
        .map((part) => part.trim())
        .filter((part) => /^\d+$/.test(part))
        .map(Number)
        .filter((id) => known.has(id)),
    ),
  ];
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** product-rules §5: subscribing does nothing without a valid e-mail or with nothing selected. */
export function canSubscribe(email: string, selected: number[]): boolean {
  return EMAIL_PATTERN.test(email.trim()) && selected.length > 0;
}

/** Bundled options shown until the live list arrives (product-rules §4: preloaded from bundled cache). */
export const bundledSubscriptionOptions: SubscriptionOption[] = [
  { id: 1, display_value: 'Product updates', description: 'New features and releases, about once a month.' },
  { id: 2, display_value: 'New models', description: 'The most interesting services added to the marketplace.' },
  { id: 3, display_value: 'Hosting & GPUs', description: 'New GPU types, regions and price changes.' },
  { id: 4, display_value: 'Research digest', description: 'Papers and open models worth knowing about.' },
];
