import { within } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
// The bundler entry: registers every element (index.ts).
import '../../../src/web-components';
import { widgetDefinitions } from '../../../src/web-components/definitions';
import { widgetElements } from '../../../src/web-components/elements';
import { expectNoAxeViolations } from '../../setup/axe';

// The real widgets' wrappers, a few lines each over defineWidget (wrapper.test.tsx covers the
// layer itself). The service search and auth dialog run end to end in test/e2e/embeds.spec.ts.

const mounted: HTMLElement[] = [];
function mount(html: string): HTMLElement {
  const main = document.createElement('main');
  main.innerHTML = `<h1>Host page</h1>${html}`;
  document.body.append(main);
  mounted.push(main);
  return main.lastElementChild as HTMLElement;
}
afterEach(() => {
  for (const el of mounted.splice(0)) el.remove();
});
const ui = (el: HTMLElement) => within(el.shadowRoot as unknown as HTMLElement);

describe('index.ts (import "@limelight/widgets/web-components")', () => {
  it('registers every element under its lime- tag', () => {
    expect(widgetElements.map((e) => e.definition.tag)).toEqual([
      'lime-service-search',
      'lime-auth-dialog',
      'lime-code-viewer',
      'lime-pricing-calculator',
      'lime-service-runner',
      'lime-api-keys',
      'lime-profile-form',
      'lime-change-password',
      'lime-mfa',
      'lime-credits',
      'lime-subscription',
      'lime-transactions',
      'lime-usage-chart',
      'lime-registry-credentials',
      'lime-support-form',
    ]);
    for (const element of widgetElements) expect(customElements.get(element.definition.tag)).toBe(element);
  });

  it('lists the elements in the order of their definitions, each carrying its own', () => {
    // The element list and the definition list are each declared once; they must not drift.
    expect(widgetElements.map((e) => e.definition)).toEqual(widgetDefinitions);
    widgetElements.forEach((element, i) => expect(element.definition).toBe(widgetDefinitions[i]));
  });
});

describe('<lime-code-viewer>', () => {
  it('shows the code from its text content and follows changes to it', async () => {
    const el = mount('<lime-code-viewer language="text" code-theme="github-light">\nhello from the page\n</lime-code-viewer>');
    const region = await vi.waitFor(() => ui(el).getByRole('group', { name: 'Code sample (text)' }));
    await vi.waitFor(() => expect(region.textContent).toBe('hello from the page'));
    el.textContent = 'changed';
    await vi.waitFor(() => expect(ui(el).getByRole('group').textContent).toBe('changed'));
    expect(el.shadowRoot!.querySelector('[data-lime="code-viewer"]')?.getAttribute('data-theme')).toBe('github-light');
  });

  it('prefers the code attribute, follows the widget theme for the code theme, and hides the copy button on copyable="false"', async () => {
    const el = mount('<lime-code-viewer code="{&quot;a&quot;: 1}" theme="light" copyable="false">ignored</lime-code-viewer>');
    await vi.waitFor(() => expect(ui(el).getByRole('group').textContent).toBe('{"a": 1}'));
    expect(el.shadowRoot!.querySelector('[data-lime="code-viewer"]')?.getAttribute('data-theme')).toBe('light-plus');
    expect(ui(el).queryByRole('button')).toBeNull();
  });

  it('emits highlight-error for a language outside product-rules §5 and shows the raw code', async () => {
    const el = mount('<lime-code-viewer language="cobol">MOVE 1 TO X.</lime-code-viewer>');
    const seen = vi.fn();
    el.addEventListener('highlight-error', (e) => seen((e as CustomEvent).detail));
    await vi.waitFor(() => expect(seen).toHaveBeenCalled());
    expect(seen.mock.calls[0]![0].code).toBe('unsupported-language');
    expect(ui(el).getByText('Failed to highlight code')).toBeTruthy();
    expect(ui(el).getByRole('group').textContent).toBe('MOVE 1 TO X.');
  });

  it('is axe clean', async () => {
    const el = mount('<lime-code-viewer language="json">{"ok": true}</lime-code-viewer>');
    await vi.waitFor(() => expect(el.shadowRoot!.querySelector('[data-state="highlighted"]')).not.toBeNull(), { timeout: 5000 });
    await expectNoAxeViolations(document);
  });
});

describe('<lime-pricing-calculator>', () => {
  it('starts from its attributes and emits estimate on a valid change', async () => {
    const el = mount(
      '<lime-pricing-calculator live="false" requests-per-hour="10" execution-ms="1000" heading-level="2"></lime-pricing-calculator>',
    );
    const estimates: Array<{ requestsPerHour: number; monthlyCostUsd: number }> = [];
    el.addEventListener('estimate', (e) => estimates.push((e as CustomEvent).detail));
    const rph = await vi.waitFor(() => ui(el).getByRole('textbox', { name: 'Requests per hour' }) as HTMLInputElement);
    expect(rph.value).toBe('10');
    expect(ui(el).getByRole('heading', { level: 2, name: 'Serverless cost calculator' })).toBeTruthy();
    await userEvent.fill(rph, '20');
    await vi.waitFor(() => expect(estimates.at(-1)?.requestsPerHour).toBe(20));
    expect(estimates.at(-1)!.monthlyCostUsd).toBeGreaterThan(0);
    await expectNoAxeViolations(document);
  });
});

describe('<lime-service-search>', () => {
  it('takes its placeholder from the attribute (strings search.placeholder) and leaves the page keyboard alone', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {}); // no API here: the catalogue load fails
    const el = mount('<lime-service-search api-url="http://127.0.0.1:9" placeholder="Find a model"></lime-service-search>');
    const box = await vi.waitFor(() => ui(el).getByRole('combobox') as HTMLInputElement);
    expect(box.placeholder).toBe('Find a model');
    el.removeAttribute('placeholder');
    await vi.waitFor(() => expect(box.placeholder).toBe('Search services'));
    // shortcuts are off unless asked for: '/' on the page does not move focus into the widget.
    const outside = document.createElement('button');
    el.parentElement!.append(outside);
    outside.focus();
    await userEvent.keyboard('/');
    expect(el.shadowRoot!.activeElement).toBeNull();
    el.setAttribute('shortcuts', '');
    await vi.waitFor(async () => {
      outside.focus();
      await userEvent.keyboard('/');
      expect(el.shadowRoot!.activeElement).toBe(box);
    });
    error.mockRestore();
  });
});

describe('<lime-auth-dialog>', () => {
  const attrs = 'auth-url="http://127.0.0.1:9" auth-key="public-test-key" api-url="http://127.0.0.1:9"';

  it('show() and the open attribute open it; close() closes it and emits close once', async () => {
    const el = mount(`<lime-auth-dialog ${attrs}></lime-auth-dialog>`) as HTMLElement & { show(): void; close(): void; open: boolean };
    const closes = vi.fn();
    el.addEventListener('close', closes);
    expect(el.open).toBe(false);
    expect(ui(el).queryByRole('dialog')).toBeNull();
    el.show();
    expect(el.hasAttribute('open')).toBe(true);
    const dialog = await vi.waitFor(() => ui(el).getByRole('dialog'));
    expect(ui(el).getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    await expectNoAxeViolations(document);
    el.close();
    await vi.waitFor(() => expect(ui(el).queryByRole('dialog')).toBeNull());
    expect(dialog.isConnected).toBe(false);
    expect(closes).toHaveBeenCalledOnce();
    el.open = true;
    await vi.waitFor(() => ui(el).getByRole('dialog'));
  });

  it('the close button removes the open attribute and emits close (composed, from the element)', async () => {
    const el = mount(`<lime-auth-dialog ${attrs} open></lime-auth-dialog>`);
    const seen: Event[] = [];
    const onClose = (e: Event) => seen.push(e);
    document.addEventListener('close', onClose);
    try {
      await vi.waitFor(() => ui(el).getByRole('dialog'));
      await userEvent.click(ui(el).getByRole('button', { name: 'Close' }));
      await vi.waitFor(() => expect(el.hasAttribute('open')).toBe(false));
      await vi.waitFor(() => expect(seen).toHaveLength(1));
      expect(seen[0]!.target).toBe(el);
      expect(seen[0]!.composed).toBe(true);
    } finally {
      document.removeEventListener('close', onClose);
    }
  });

  it('page-state moves the overlay after it opens at state 1 (product-rules §4)', async () => {
    const el = mount(`<lime-auth-dialog ${attrs} page-state="0" open></lime-auth-dialog>`);
    await vi.waitFor(() => expect(ui(el).getByRole('heading', { name: 'Create your account' })).toBeTruthy());
  });
});

describe('a widget that cannot render', () => {
  it('logs one error naming the element, leaves the page alone, and recovers when the attribute is fixed', async () => {
    const errors: unknown[][] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
    const el = mount('<lime-auth-dialog auth-url="http://127.0.0.1:9" open></lime-auth-dialog>');
    await vi.waitFor(() => expect(errors.some((args) => String(args[0]).includes('<lime-auth-dialog> could not render'))).toBe(true));
    expect(String(errors.find((a) => String(a[0]).includes('could not render'))![1])).toContain('authKey is empty');
    expect(ui(el).queryByRole('dialog')).toBeNull();
    spy.mockRestore();
    el.setAttribute('auth-key', 'public-test-key');
    await vi.waitFor(() => ui(el).getByRole('dialog'));
  });
});
