import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo } from 'react';
import type { ModelCategory, ModelDescriptor } from '../src/api/types';
import { CatalogueProvider, createCatalogue } from '../src/catalogue';
import { ServiceSearch } from '../src/components/ServiceSearch';
import { fixtureCategories, fixtureModels } from '../test/fixtures/catalogue';

// Every state of product-rules §2 "Header search bar" and §4/§8: idle, results (with highlighted
// matches, run badges, fallback images, an 'Unknown Model'), loading (4 skeleton rows),
// searching during the debounce, 'No results', and a failed catalogue load (no message, only
// a log line; the box then says 'No results'). Data is plain props; the catalogue stories use a
// catalogue whose loader resolves or rejects after a delay.

const meta = {
  title: 'Widgets/ServiceSearch',
  component: ServiceSearch,
  args: { models: fixtureModels, categories: fixtureCategories },
  parameters: { layout: 'padded' },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 420, minHeight: 460 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ServiceSearch>;
export default meta;

type Story = StoryObj<typeof meta>;

/** Empty and closed: type, or press '/' or Ctrl/Cmd+K anywhere on the page to focus it. */
export const Idle: Story = {};

/** Top 4 results for 'image', the matched text highlighted. */
export const Results: Story = { args: { defaultValue: 'image', defaultOpen: true } };

/** A name with a slash: choosing it opens /APIs/service/black-forest-labs/flux-schnell. */
export const OwnerAndName: Story = { args: { defaultValue: 'flux', defaultOpen: true } };

/** Missing and placeholder images fall back to the bundled 404 image; a nameless model shows 'Unknown Model'. */
export const Fallbacks: Story = { args: { defaultValue: 'no-name', defaultOpen: true } };

/** The catalogue is still loading: 4 skeleton rows. */
export const Loading: Story = { args: { models: [], loading: true, defaultValue: 'flux', defaultOpen: true } };

/** While the 300 ms debounce runs the rows are skeletons; a long debounce keeps them visible here. */
export const Searching: Story = { args: { defaultValue: 'whisper', defaultOpen: true, debounceMs: 60_000 } };

/** Nothing matches: 'No results'. */
export const NoResults: Story = { args: { defaultValue: 'zzqx', defaultOpen: true } };

/** Keyboard shortcuts off (e.g. on a page that owns its keys). */
export const WithoutShortcuts: Story = { args: { shortcuts: false } };

function WithCatalogue({ outcome, delay, query }: { outcome: 'ok' | 'fail'; delay: number; query: string }) {
  const catalogue = useMemo(
    () =>
      createCatalogue({
        load: () =>
          new Promise<{ models: ModelDescriptor[]; categories: ModelCategory[] }>((resolve, reject) =>
            setTimeout(
              () => (outcome === 'ok' ? resolve({ models: fixtureModels, categories: fixtureCategories }) : reject(new Error('Offline'))),
              delay,
            ),
          ),
      }),
    [outcome, delay],
  );
  return (
    <CatalogueProvider catalogue={catalogue}>
      <ServiceSearch defaultValue={query} defaultOpen />
    </CatalogueProvider>
  );
}

/** Fetching its own data: skeletons for 2 s, then results. */
export const FetchingThenResults: Story = { render: () => <WithCatalogue outcome="ok" delay={2000} query="voice" /> };

/** The fetch fails: no message (product-rules §8), 'Failed to initialize search data' in the console, then 'No results'. */
export const LoadError: Story = { render: () => <WithCatalogue outcome="fail" delay={800} query="voice" /> };
