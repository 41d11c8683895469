import type { ModelCategory, ModelDescriptor } from '@limelight/widgets/api';
import { categoriesById, categoryIdsOf, normalizeDomain } from '@limelight/widgets/catalogue';

// The home showcase's chips (product-rules §2), in the spec's order. The spec names the chips but not how
// each maps onto the catalogue's categories. A category titled like the chip ('Generate images'
// or 'Generate images' for the chip 'Generate images', 'Generate text' for 'text') is the
// chip's; a catalogue without such titles falls back to domains (e.g. text in, image out) and
// keywords in the category's id and title.

export type ChipKey = 'images' | 'text' | 'speech' | 'videos' | 'threeD' | 'faceSwap' | 'voiceCloning' | 'backgroundRemoval';

const has = (domains: unknown, domain: string) => Array.isArray(domains) && domains.some((d) => normalizeDomain(d) === domain);
const words = (c: ModelCategory) => `${c.id} ${c.title}`.toLowerCase();

export const SHOWCASE_CHIPS: ReadonlyArray<{ key: ChipKey; matches: (category: ModelCategory) => boolean }> = [
  { key: 'images', matches: (c) => has(c.output_domain, 'image') && has(c.input_domain, 'text') },
  { key: 'text', matches: (c) => has(c.output_domain, 'text') },
  { key: 'speech', matches: (c) => /speech|tts|voice/.test(words(c)) },
  { key: 'videos', matches: (c) => has(c.output_domain, 'video') },
  { key: 'threeD', matches: (c) => /\b3d\b|3d/.test(words(c)) },
  { key: 'faceSwap', matches: (c) => /face/.test(words(c)) },
  { key: 'voiceCloning', matches: (c) => /voice|clon/.test(words(c)) },
  { key: 'backgroundRemoval', matches: (c) => /background|rembg|matting/.test(words(c)) },
];

/** product-rules §2: Generate images is selected at first. */
export const INITIAL_CHIP: ChipKey = 'images';

/** product-rules §2: clicking a chip selects it; clicking the selected one deselects it. */
export function toggleChip(selected: ChipKey | null, clicked: ChipKey): ChipKey | null {
  return selected === clicked ? null : clicked;
}

const simplify = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Whether a category's title names the chip (its label, or 'Generate ' + label). */
export function titleMatchesChip(category: ModelCategory, label: string): boolean {
  const title = simplify(String(category.title ?? ''));
  const name = simplify(label);
  return title === name || title === `generate ${name}`;
}

/**
 * The models in a chip's categories; every model when no chip is selected. `label` is the
 * chip's text, matched against category titles first.
 */
export function modelsForChip(
  models: readonly ModelDescriptor[],
  categories: readonly ModelCategory[],
  chip: ChipKey | null,
  label?: string,
): ModelDescriptor[] {
  if (!chip) return [...models];
  const byTitle = label ? categories.filter((c) => titleMatchesChip(c, label)) : [];
  const heuristic = SHOWCASE_CHIPS.find((c) => c.key === chip)!.matches;
  const matches = byTitle.length > 0 ? (c: ModelCategory) => byTitle.includes(c) : heuristic;
  const byId = categoriesById(categories);
  return models.filter((m) =>
    categoryIdsOf(m).some((id) => {
      const category = byId.get(id);
      return category ? matches(category) : false;
    }),
  );
}
