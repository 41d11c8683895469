import { within } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
// The bundler entry: registers every element (index.ts).
import { widgetElements } from '../../../src/web-components';
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
    ]);
    for (const element of widgetElements) expect(customElements.get(element.definition.tag)).toBe(element);
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

  it('emits highlight-error for a language outside spec §5 and shows the raw code', async () => {
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
    const el = mount('<lime-pricing-calculator live="false" requests-per-hour="10" execution-ms="1000" heading-level="2"></lime-pricing-calculator>');
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
