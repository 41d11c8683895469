// ServiceSearch in real Chromium: product-rules §2 "Header search bar", §4 "Catalogue and search data",
// §8 (search failures), §9 (search constants). Driven by keyboard and mouse; ARIA asserted.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { userEvent as browserUser } from 'vitest/browser';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelDescriptor } from '../../../src/api/types';
import { createCatalogue, CatalogueProvider, FALLBACK_IMAGE } from '../../../src/catalogue';
import { createSearchStore, createMemoryCache } from '../../../src/catalogue/store';
import { ServiceSearch, type ServiceSearchProps } from '../../../src/components/ServiceSearch';
import { PlatformProvider } from '../../../src/config';
import { fixtureCategories, fixtureModel, fixtureModels } from '../../fixtures/catalogue';
import { expectNoAxeViolations } from '../../setup/axe';

function setup(props: Partial<ServiceSearchProps> = {}, provider: { apiUrl?: string } = {}) {
  const navigate = vi.fn<(path: string) => void>();
  const user = userEvent.setup();
  const view = render(
    <PlatformProvider navigate={navigate} apiUrl={provider.apiUrl ?? 'http://127.0.0.1:9'}>
      <header>
        <h1>Limelight</h1>
        <ServiceSearch models={fixtureModels} categories={fixtureCategories} {...props} />
      </header>
      <main>
        <label>
          Notes
          <input type="text" />
        </label>
        <p>Page content</p>
      </main>
    </PlatformProvider>,
  );
  const input = () => screen.getByRole('combobox', { name: 'Search services' });
  return { navigate, user, input, ...view };
}

const skeletonRows = () => document.querySelectorAll('[data-skeleton]');
/** The visible empty state (the live region repeats the text for screen readers). */
const emptyState = () => screen.queryAllByText('No results').find((el) => el.tagName === 'P') ?? null;
const options = () => screen.queryAllByRole('option');

afterEach(() => vi.restoreAllMocks());

describe('ServiceSearch: the box (product-rules §2)', () => {
  it('is a combobox named and labelled "Search services", collapsed, with no results while empty', async () => {
    const { input } = setup();
    const box = input();
    expect(box.getAttribute('placeholder')).toBe('Search services');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.getAttribute('aria-autocomplete')).toBe('list');
    const listbox = screen.getByRole('listbox', { hidden: true });
    expect(box.getAttribute('aria-controls')).toBe(listbox.id);
    expect(options()).toHaveLength(0);
    await expectNoAxeViolations(document);
  });

  it('renders no style attributes in its markup (strict CSP, house rule 3)', () => {
    const html = renderToString(
      <PlatformProvider navigate={() => {}}>
        <ServiceSearch models={fixtureModels} defaultValue="flux" />
      </PlatformProvider>,
    );
    expect(html).toContain('role="combobox"');
    expect(html).not.toMatch(/\sstyle=/);
  });
});

describe('ServiceSearch: results (product-rules §2, §9 debounce 300 ms, top 4)', () => {
  it('shows 4 skeleton rows while the 300 ms debounce runs, then at most 4 results', async () => {
    const { user, input } = setup();
    await user.type(input(), 'image');
    expect(input().getAttribute('aria-expanded')).toBe('true');
    expect(skeletonRows()).toHaveLength(4);
    expect(screen.getByRole('listbox').getAttribute('aria-busy')).toBe('true');
    expect(options()).toHaveLength(0);
    // Still debouncing well before 300 ms.
    await new Promise((r) => setTimeout(r, 120));
    expect(skeletonRows()).toHaveLength(4);
    const found = await screen.findAllByRole('option');
    // The top 4 results, then the "see all results" option (issue 25, item 10).
    expect(found).toHaveLength(5);
    expect(found[4]).toHaveTextContent(/^All results for image$/);
    expect(skeletonRows()).toHaveLength(0);
    await expectNoAxeViolations(document);
  });

  it('the last option, "All results for …", is reachable by keyboard and opens the catalogue search with the query', async () => {
    const onSearch = vi.fn();
    const { user, input, navigate } = setup({ onSearch });
    await user.type(input(), 'image');
    const found = await screen.findAllByRole('option');
    const seeAll = found.at(-1)!;
    expect(seeAll).toHaveTextContent('All results for image');
    await user.keyboard('{ArrowUp}');
    expect(input().getAttribute('aria-activedescendant')).toBe(seeAll.id);
    expect(seeAll.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');
    expect(onSearch).toHaveBeenCalledWith('image', expect.objectContaining({ href: '/APIs/Overview?q=image' }));
    expect(navigate).toHaveBeenCalledWith('/APIs/Overview?q=image');
    expect((input() as HTMLInputElement).value).toBe('');
  });

  it('"All results for …" is one line across the row, even for a long query (issue 39)', async () => {
    const { user, input } = setup();
    await user.type(input(), 'image generation model');
    const seeAll = (await screen.findAllByRole('option')).at(-1)!;
    expect(seeAll).toHaveTextContent('All results for image generation model');
    // The lines its text is laid out on: one (it wrapped word by word in the 40 px picture column).
    const range = document.createRange();
    range.selectNodeContents(seeAll);
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    expect(lines.size).toBe(1);
  });

  it('applies the query only after typing pauses for 300 ms', async () => {
    const { user, input } = setup();
    const started = performance.now();
    await user.type(input(), 'whisper');
    await screen.findAllByRole('option');
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('shows image, display name, sanitised description cut at 80 characters and the run badge', async () => {
    const { user, input } = setup();
    await user.type(input(), 'face2face');
    const [first] = await screen.findAllByRole('option');
    expect(first!.textContent).toContain('Face2Face');
    expect(first!.textContent).toContain('999 runs');
    // The fixture carries a <script> and a javascript: link; only text remains, cut to 80 + '…'.
    const desc = 'Swap faces in images and videos. Instantly. Works with any face.';
    expect(first!.textContent).toContain(desc);
    expect(first!.querySelector('script, a')).toBeNull();
    const img = first!.querySelector('img')!;
    expect(img.getAttribute('alt')).toBe('');
    expect(img.getAttribute('src')).toBe('https://images.example.com/face2face.webp');
  });

  it("formats run counts as 'X.XK runs', 'X.XM runs', 'X.XB runs' (product-rules §9)", async () => {
    const { user, input } = setup();
    await user.type(input(), 'llama');
    const found = await screen.findAllByRole('option');
    expect(found[0]!.textContent).toContain('1.3B runs');
    await user.clear(input());
    await user.type(input(), 'speechcraft');
    expect((await screen.findAllByRole('option'))[0]!.textContent).toContain('12.3K runs');
  });

  it('cuts a long description to 80 characters with an ellipsis', async () => {
    const { user, input } = setup();
    await user.type(input(), 'hunyuan');
    const [first] = await screen.findAllByRole('option');
    const text = first!.querySelector('span > span:nth-child(2)')!.textContent!;
    expect(text.endsWith('…')).toBe(true);
    expect(Array.from(text.slice(0, -1)).length).toBeLessThanOrEqual(80);
  });

  it('falls back to the bundled 404 image for missing and placeholder images (product-rules §3)', async () => {
    const { user, input } = setup();
    await user.type(input(), 'real-esrgan');
    const [first] = await screen.findAllByRole('option');
    expect(first!.querySelector('img')!.getAttribute('src')).toBe(FALLBACK_IMAGE);
  });

  it('swaps in the fallback image when an image fails to load', async () => {
    const broken: ModelDescriptor = { ...fixtureModel('whisper'), display_img_url: 'http://127.0.0.1:9/missing.png' };
    const { user, input } = setup({ models: [broken] });
    await user.type(input(), 'whisper');
    const [first] = await screen.findAllByRole('option');
    await waitFor(() => expect(first!.querySelector('img')!.getAttribute('src')).toBe(FALLBACK_IMAGE));
  });

  it("shows 'Unknown Model' for a model without a name (product-rules §3)", async () => {
    const { user, input } = setup();
    await user.type(input(), 'no-name-service');
    const [first] = await screen.findAllByRole('option');
    expect(first!.textContent).toContain('Unknown Model');
  });

  it('highlights the matched text', async () => {
    const { user, input } = setup();
    await user.type(input(), 'flux');
    const [first] = await screen.findAllByRole('option');
    const marks = Array.from(first!.querySelectorAll('mark')).map((m) => m.textContent!.toLowerCase());
    expect(marks).toContain('flux');
  });

  it("shows 'No results' when nothing matches (product-rules §8 empty state)", async () => {
    const { user, input } = setup();
    await user.type(input(), 'zzqxv');
    await waitFor(() => expect(emptyState()).not.toBeNull());
    expect(options()).toHaveLength(0);
    await expectNoAxeViolations(document);
  });

  it('announces the result count to screen readers', async () => {
    const { user, input } = setup();
    const status = screen.getByRole('status');
    await user.type(input(), 'image');
    expect(status.textContent).toBe('Loading results…');
    await screen.findAllByRole('option');
    expect(status.textContent).toMatch(/^Top 4 of \d+ results$/);
    await user.clear(input());
    await user.type(input(), 'zzqxv');
    await waitFor(() => expect(status.textContent).toBe('No results'));
  });

  it('shows 4 skeleton rows while the data loads (product-rules §2)', async () => {
    const { user, input } = setup({ models: [], loading: true });
    await user.type(input(), 'flux');
    await new Promise((r) => setTimeout(r, 350));
    expect(skeletonRows()).toHaveLength(4);
    expect(options()).toHaveLength(0);
    expect(emptyState()).toBeNull();
    await expectNoAxeViolations(document);
  });

  it('defaultValue with defaultOpen shows the results on mount', async () => {
    setup({ defaultValue: 'kokoro', defaultOpen: true });
    const found = await screen.findAllByRole('option');
    expect(found[0]!.textContent).toContain('Kokoro TTS');
  });

  it('hides the list when the text is cleared to blank', async () => {
    const { user, input } = setup();
    await user.type(input(), 'flux');
    await screen.findAllByRole('option');
    await user.clear(input());
    await user.type(input(), '   ');
    expect(input().getAttribute('aria-expanded')).toBe('false');
    expect(options()).toHaveLength(0);
    expect(skeletonRows()).toHaveLength(0);
  });
});

describe('ServiceSearch: choosing and submitting (product-rules §2)', () => {
  it('keyboard: arrows move aria-activedescendant, Enter opens /APIs/service/{owner}/{name} and clears', async () => {
    const { user, input, navigate } = setup();
    await user.type(input(), 'flux');
    const found = await screen.findAllByRole('option');
    expect(input().hasAttribute('aria-activedescendant') ? input().getAttribute('aria-activedescendant') : '').toBe('');
    await user.keyboard('{ArrowDown}');
    expect(input().getAttribute('aria-activedescendant')).toBe(found[0]!.id);
    expect(found[0]!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}{ArrowUp}');
    expect(input().getAttribute('aria-activedescendant')).toBe(found[0]!.id);
    await user.keyboard('{Enter}');
    expect(navigate).toHaveBeenCalledWith('/APIs/service/black-forest-labs/flux-schnell');
    expect((input() as HTMLInputElement).value).toBe('');
    expect(input().getAttribute('aria-expanded')).toBe('false');
  });

  it('mouse: clicking a result opens its page; names without a slash use one encoded segment', async () => {
    const { user, input, navigate } = setup();
    await user.type(input(), 'fast image gen');
    const option = (await screen.findAllByRole('option')).find((o) => o.textContent!.includes('Fast image generator'))!;
    await user.hover(option);
    expect(option.hasAttribute('data-highlighted')).toBe(true);
    await user.click(option);
    expect(navigate).toHaveBeenCalledWith('/APIs/service/Fast%20image%20generator');
    expect((input() as HTMLInputElement).value).toBe('');
  });

  it('Enter without a highlighted result opens /APIs/Overview?q=... with the trimmed query and clears', async () => {
    const onSearch = vi.fn();
    const { user, input, navigate } = setup({ onSearch });
    await user.type(input(), '  voice clone ');
    await user.keyboard('{Enter}');
    expect(onSearch).toHaveBeenCalledWith('voice clone', expect.objectContaining({ href: '/APIs/Overview?q=voice%20clone' }));
    expect(navigate).toHaveBeenCalledWith('/APIs/Overview?q=voice%20clone');
    expect((input() as HTMLInputElement).value).toBe('');
  });

  it('onSelect can prevent navigation (return false or preventDefault); the box still clears', async () => {
    const onSelect = vi.fn((_model: ModelDescriptor, event: { preventDefault(): void }) => event.preventDefault());
    const { user, input, navigate } = setup({ onSelect });
    await user.type(input(), 'whisper');
    await user.click((await screen.findAllByRole('option'))[0]!);
    expect(onSelect).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'whisper' }),
      expect.objectContaining({ href: '/APIs/service/openai/whisper', source: 'pointer', defaultPrevented: true }),
    );
    expect(navigate).not.toHaveBeenCalled();
    expect((input() as HTMLInputElement).value).toBe('');

    onSelect.mockImplementation(() => false as never);
    await user.type(input(), 'whisper');
    await screen.findAllByRole('option');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith(expect.anything(), expect.objectContaining({ source: 'keyboard' }));
    expect(navigate).not.toHaveBeenCalled();
  });

  it('uses the serviceHref and overviewHref templates', async () => {
    const { user, input, navigate } = setup({
      serviceHref: 'https://limelight.example/APIs/service/{path}',
      overviewHref: 'https://limelight.example/APIs/Overview?ref=embed',
    });
    await user.type(input(), 'whisper');
    await screen.findAllByRole('option');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(navigate).toHaveBeenLastCalledWith('https://limelight.example/APIs/service/openai/whisper');
    await user.type(input(), 'tts');
    await user.keyboard('{Enter}');
    expect(navigate).toHaveBeenLastCalledWith('https://limelight.example/APIs/Overview?ref=embed&q=tts');
  });

  it('leaving the box never chooses the highlighted result', async () => {
    const { user, input, navigate } = setup();
    await user.type(input(), 'whisper');
    await screen.findAllByRole('option');
    await user.keyboard('{ArrowDown}');
    await user.tab();
    expect(navigate).not.toHaveBeenCalled();
    expect(input().getAttribute('aria-expanded')).toBe('false');
  });

  it('Escape closes the list; a second Escape clears the text', async () => {
    const { user, input } = setup();
    await user.type(input(), 'whisper');
    await screen.findAllByRole('option');
    await user.keyboard('{Escape}');
    expect(input().getAttribute('aria-expanded')).toBe('false');
    await user.keyboard('{Escape}');
    expect((input() as HTMLInputElement).value).toBe('');
  });
});

describe('ServiceSearch: clearing and filter resets (product-rules §4)', () => {
  it('the clear button empties the text and resets all filters, keeping focus in the box', async () => {
    const store = createSearchStore({ models: fixtureModels, categories: fixtureCategories });
    const { user, input } = setup({ store });
    await user.type(input(), 'whisper');
    await screen.findAllByRole('option');
    act(() => store.trigger.setFilters({ filters: { query: 'whisper', sort: 'num_runs', outputDomains: ['TEXT'] } }));
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect((input() as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(input());
    expect(store.getSnapshot().context.filters).toEqual({
      query: '',
      sort: 'relevance',
      inputDomains: [],
      outputDomains: [],
      providers: [],
    });
    expect(screen.queryByRole('button', { name: 'Clear search' })).toBeNull();
  });

  it('resets all filters once, on the first focus; later focus keeps them', async () => {
    const store = createSearchStore({
      models: fixtureModels,
      categories: fixtureCategories,
      filters: { sort: 'published_at', inputDomains: ['IMAGE'], providers: ['replicate'] },
    });
    const { user, input } = setup({ store });
    await user.click(input());
    expect(store.getSnapshot().context.filters.sort).toBe('relevance');
    expect(store.getSnapshot().context.filters.inputDomains).toEqual([]);
    act(() => store.trigger.setSort({ sort: 'num_runs' }));
    await user.tab();
    await user.click(input());
    expect(store.getSnapshot().context.filters.sort).toBe('num_runs');
  });

  it('typing stores the trimmed query in the search store after the debounce', async () => {
    const store = createSearchStore({ models: fixtureModels, categories: fixtureCategories });
    const { user, input } = setup({ store });
    await user.type(input(), '  kokoro  ');
    expect(store.getSnapshot().context.isSearching).toBe(true);
    await waitFor(() => expect(store.getSnapshot().context.filters.query).toBe('kokoro'));
    expect(store.getSnapshot().context.isSearching).toBe(false);
    expect(store.getSnapshot().context.filtered_models[0]!.id).toBe('kokoro');
  });
});

describe('ServiceSearch: keyboard shortcuts', () => {
  it("Ctrl+K and '/' focus the box from the page", async () => {
    const { user, input } = setup();
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Control>}k{/Control}');
    expect(document.activeElement).toBe(input());
    await user.tab();
    await user.tab();
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('/');
    expect(document.activeElement).toBe(input());
    expect((input() as HTMLInputElement).value).toBe('');
    await user.keyboard('{Meta>}k{/Meta}');
    expect(document.activeElement).toBe(input());
  });

  it('never steals focus while the user types in another field', async () => {
    const { user, input } = setup();
    const notes = screen.getByRole('textbox', { name: 'Notes' });
    await user.click(notes);
    await user.keyboard('a/b');
    await user.keyboard('{Control>}k{/Control}');
    expect(document.activeElement).toBe(notes);
    expect((notes as HTMLInputElement).value).toBe('a/b');
    expect(input().getAttribute('aria-keyshortcuts')).toBe('Control+K Meta+K /');
  });

  it("'/' typed in the box is text, and shortcuts can be turned off", async () => {
    const { user, input, unmount } = setup();
    await user.click(input());
    await user.keyboard('meta/');
    expect((input() as HTMLInputElement).value).toBe('meta/');
    unmount();
    const second = setup({ shortcuts: false });
    await second.user.keyboard('/');
    expect(document.activeElement).not.toBe(second.input());
    expect(second.input().hasAttribute('aria-keyshortcuts')).toBe(false);
  });
});

describe('ServiceSearch: loading its own data (product-rules §4, §8)', () => {
  it('fetches once on mount, shows skeletons while loading and results after', async () => {
    let release!: () => void;
    const load = vi.fn(
      () =>
        new Promise<{ models: ModelDescriptor[]; categories: typeof fixtureCategories }>((resolve) => {
          release = () => resolve({ models: fixtureModels, categories: fixtureCategories });
        }),
    );
    const catalogue = createCatalogue({ load, cache: createMemoryCache() });
    const user = userEvent.setup();
    const navigate = vi.fn();
    const view = render(
      <PlatformProvider navigate={navigate}>
        <CatalogueProvider catalogue={catalogue}>
          <ServiceSearch />
          <ServiceSearch />
        </CatalogueProvider>
      </PlatformProvider>,
    );
    const [first] = screen.getAllByRole('combobox');
    await user.type(first!, 'whisper');
    await new Promise((r) => setTimeout(r, 350));
    expect(skeletonRows()).toHaveLength(4);
    act(() => release());
    expect(await screen.findAllByRole('option')).not.toHaveLength(0);
    view.rerender(
      <PlatformProvider navigate={navigate}>
        <CatalogueProvider catalogue={catalogue}>
          <ServiceSearch />
        </CatalogueProvider>
      </PlatformProvider>,
    );
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("on a failed fetch logs 'Failed to initialize search data', ends loading and shows 'No results'", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const catalogue = createCatalogue({ load: () => Promise.reject(new Error('boom')), logger: { error: () => {} } });
    const user = userEvent.setup();
    render(
      <PlatformProvider navigate={() => {}}>
        <h1>Page</h1>
        <CatalogueProvider catalogue={catalogue}>
          <ServiceSearch />
        </CatalogueProvider>
      </PlatformProvider>,
    );
    await waitFor(() => expect(errors).toHaveBeenCalledWith('Failed to initialize search data', expect.any(Error)));
    await user.type(screen.getByRole('combobox'), 'whisper');
    await waitFor(() => expect(emptyState()).not.toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('loads from the platform API and reports an unreachable server the same way', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    render(
      <PlatformProvider navigate={() => {}} apiUrl="http://127.0.0.1:9">
        <ServiceSearch />
      </PlatformProvider>,
    );
    await waitFor(() => expect(errors).toHaveBeenCalledWith('Failed to initialize search data', expect.anything()), { timeout: 8000 });
    await user.type(screen.getByRole('combobox'), 'flux');
    await waitFor(() => expect(emptyState()).not.toBeNull());
  });
});

describe('ServiceSearch: embedding', () => {
  it('renders the list into portalContainer when given', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    try {
      const { user, input } = setup({ portalContainer: container });
      await user.type(input(), 'flux');
      await screen.findAllByRole('option');
      expect(within(container).getAllByRole('option').length).toBeGreaterThan(0);
      expect(within(container).getByRole('listbox').id).toBe(input().getAttribute('aria-controls'));
    } finally {
      container.remove();
    }
  });

  it('works inside a shadow root with a custom environment', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const mount = document.createElement('div');
    shadow.append(mount);
    const environment = {
      addEventListener: window.addEventListener.bind(window),
      removeEventListener: window.removeEventListener.bind(window),
      document: shadow as unknown as Document,
      Node: window.Node,
    };
    const navigate = vi.fn();
    const user = userEvent.setup({ document });
    const view = render(
      <PlatformProvider navigate={navigate}>
        <ServiceSearch models={fixtureModels} environment={environment} />
      </PlatformProvider>,
      { container: mount },
    );
    try {
      const box = within(mount).getByRole('combobox');
      await user.click(box);
      await user.keyboard('kokoro');
      const found = await within(mount).findAllByRole('option');
      await user.click(found[0]!);
      expect(navigate).toHaveBeenCalledWith('/APIs/service/Kokoro%20TTS');
    } finally {
      view.unmount();
      host.remove();
    }
  });
});

describe('ServiceSearch: fast typing', () => {
  // Real key presses from the browser driver (not simulated events): keys arrive as fast as
  // Chromium takes them, faster than React flushes effects, where downshift reports changes.
  it('keeps every keystroke when keys come faster than React effects run', async () => {
    const { input } = setup();
    input().focus();
    await browserUser.keyboard('text to speech');
    expect(input()).toHaveValue('text to speech');
    await browserUser.keyboard('{Control>}a{/Control}{Backspace}');
    await browserUser.keyboard('stable diffusion xl');
    expect(input()).toHaveValue('stable diffusion xl');
  });

  it('still empties the box after a search with Enter', async () => {
    const { input, navigate } = setup();
    input().focus();
    await browserUser.keyboard('voice{Enter}');
    expect(navigate).toHaveBeenCalledWith('/APIs/Overview?q=voice');
    await waitFor(() => expect(input()).toHaveValue(''));
  });
});
