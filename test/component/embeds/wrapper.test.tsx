import { within } from '@testing-library/dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { defineElement } from '../../../src/web-components/define';
import { darkValues, lightValues } from '../../../src/theme/tokens';
import { expectNoAxeViolations } from '../../setup/axe';
import { LimeProbeElement } from './Probe';

// The wrapper layer (src/web-components/defineWidget.tsx) exercised through a probe element.

const mounted: HTMLElement[] = [];
const pageSheets: CSSStyleSheet[] = [];

function mount(html: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  const el = holder.firstElementChild as HTMLElement;
  document.body.append(el);
  mounted.push(el);
  return el;
}

/** Host-page CSS, added the way a page would (a document-level sheet). */
function pageCss(css: string) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  pageSheets.push(sheet);
}

async function rendered(el: HTMLElement) {
  const root = el.shadowRoot!;
  await vi.waitFor(() => expect(root.querySelector('input')).not.toBeNull());
  return { root, ui: within(root as unknown as HTMLElement) };
}

beforeAll(() => {
  defineElement(LimeProbeElement);
});

afterEach(() => {
  for (const el of mounted.splice(0)) el.remove();
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => !pageSheets.includes(s));
  pageSheets.length = 0;
});

describe('defineWidget: shadow root and styles', () => {
  it('renders into an open shadow root with our CSS adopted and no <style> or style attribute inside', async () => {
    const el = mount('<lime-probe></lime-probe>');
    const { root, ui } = await rendered(el);
    expect(el.shadowRoot).toBe(root);
    expect(root.adoptedStyleSheets.length).toBeGreaterThan(0);
    expect(root.querySelectorAll('style, link')).toHaveLength(0);
    expect(root.querySelectorAll('[style]')).toHaveLength(0);
    const input = ui.getByRole('combobox', { name: 'Probe' });
    expect(getComputedStyle(input).borderTopWidth).toBe('2px');
    expect(getComputedStyle(input).width).toBe('240px');
  });

  it('applies the dark theme on :host by default and the light one with theme="light"', async () => {
    const dark = mount('<lime-probe></lime-probe>');
    const light = mount('<lime-probe theme="light"></lime-probe>');
    expect(getComputedStyle(dark).getPropertyValue('--lime-color-primary').trim()).toBe(darkValues.color.primary);
    expect(getComputedStyle(light).getPropertyValue('--lime-color-primary').trim()).toBe(lightValues.color.primary);
    const { ui } = await rendered(light);
    expect(getComputedStyle(ui.getByRole('combobox')).borderTopColor).toBe('rgb(63, 107, 0)'); // #3f6b00
    light.setAttribute('theme', 'dark');
    expect(getComputedStyle(ui.getByRole('combobox')).borderTopColor).toBe('rgb(198, 244, 50)'); // #c6f432
  });

  it('lets a page rule on the element override a token (outer rules beat :host)', async () => {
    pageCss('lime-probe.brand { --lime-color-primary: rgb(255, 0, 128); }');
    const el = mount('<lime-probe class="brand"></lime-probe>');
    const { ui } = await rendered(el);
    expect(getComputedStyle(ui.getByRole('combobox')).borderTopColor).toBe('rgb(255, 0, 128)');
  });

  it('with theme="inherit" takes the tokens from the page', async () => {
    pageCss(':root { --lime-color-primary: rgb(0, 0, 255); }');
    const themed = mount('<lime-probe></lime-probe>');
    const inherit = mount('<lime-probe theme="inherit"></lime-probe>');
    expect(getComputedStyle((await rendered(inherit)).ui.getByRole('combobox')).borderTopColor).toBe('rgb(0, 0, 255)');
    // An ancestor value is only inherited and loses to the theme set on :host.
    expect(getComputedStyle((await rendered(themed)).ui.getByRole('combobox')).borderTopColor).toBe('rgb(198, 244, 50)');
  });

  it('survives hostile page CSS (* { all: unset }, div { display: none }, inherited text styles)', async () => {
    pageCss(
      `* { all: unset; } div { display: none !important; } body { font: 40px/3 serif; color: red; text-transform: uppercase; letter-spacing: 9px; }`,
    );
    const el = mount('<lime-probe></lime-probe>');
    const { ui, root } = await rendered(el);
    const input = ui.getByRole('combobox');
    expect(getComputedStyle(input).width).toBe('240px');
    const box = input.getBoundingClientRect();
    expect(box.width).toBeGreaterThanOrEqual(240);
    expect(box.height).toBeGreaterThan(10);
    const wrapper = root.querySelector('[data-lime-widget]')!;
    const cs = getComputedStyle(wrapper);
    expect(cs.display).toBe('block');
    expect(cs.textTransform).toBe('none');
    expect(cs.letterSpacing).toBe('normal');
    expect(cs.color).toBe('rgb(244, 241, 250)'); // darkValues.color.text
    expect(cs.fontFamily).toContain('Inter');
    expect(cs.fontSize).toBe('16px');
  });
  // That our CSS does not leak to the page is checked in e2e on the built bundles: in development
  // vanilla-extract also injects it into the document.
});

describe('defineWidget: attributes and properties', () => {
  it('parses attributes by type and resets a prop when its attribute is removed', async () => {
    const el = mount('<lime-probe placeholder="Find" open page-state="3" strings=\'{"a":1}\' api-url="https://api.example"></lime-probe>');
    const { ui } = await rendered(el);
    const state = () => JSON.parse(ui.getByTestId('state').textContent!);
    expect(ui.getByRole('combobox')).toHaveProperty('placeholder', 'Find');
    expect(state()).toEqual({ open: true, pageState: 3, strings: { a: 1 }, apiUrl: 'https://api.example' });

    el.removeAttribute('placeholder');
    el.removeAttribute('open');
    el.setAttribute('page-state', 'x');
    await vi.waitFor(() => expect(ui.getByRole('combobox')).toHaveProperty('placeholder', 'Default placeholder'));
    await vi.waitFor(() => expect(state().open).toBeUndefined());
    expect(state().pageState).toBeUndefined();
    el.setAttribute('open', 'false');
    await vi.waitFor(() => expect(state().open).toBe(false));
  });

  it('reflects properties to attributes', async () => {
    const el = mount('<lime-probe></lime-probe>') as HTMLElement & Record<string, unknown>;
    const { ui } = await rendered(el);
    el.placeholder = 'Typed';
    expect(el.getAttribute('placeholder')).toBe('Typed');
    el.open = true;
    expect(el.getAttribute('open')).toBe('');
    expect(el.open).toBe(true);
    el.open = false;
    expect(el.hasAttribute('open')).toBe(false);
    expect(el.open).toBeUndefined();
    el.strings = { search: { x: 'y' } };
    expect(el.getAttribute('strings')).toBe('{"search":{"x":"y"}}');
    el.pageState = 5;
    expect(el.pageState).toBe(5);
    await vi.waitFor(() => expect(ui.getByRole('combobox')).toHaveProperty('placeholder', 'Typed'));
  });

  it('registers once: a second definition of the same name is ignored', () => {
    const other = class extends HTMLElement {};
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(defineElement(Object.assign(other, { definition: { tag: 'lime-probe' } }))).toBe(LimeProbeElement);
    expect(customElements.get('lime-probe')).toBe(LimeProbeElement);
    warn.mockRestore();
  });
});

describe('defineWidget: combobox, popup and events inside the shadow root', () => {
  it('selects with the keyboard and emits a bubbling, composed, cancelable event', async () => {
    const el = mount('<lime-probe></lime-probe>');
    const { ui } = await rendered(el);
    const events: CustomEvent[] = [];
    const onSelect = (e: Event) => events.push(e as CustomEvent);
    document.addEventListener('select', onSelect);
    try {
      await userEvent.click(ui.getByRole('combobox'));
      await userEvent.keyboard('{ArrowDown}');
      const listbox = ui.getByRole('listbox');
      // The popup is portalled inside the shadow root, into the wrapper's portal container.
      expect(listbox.closest('[data-lime-portal]')).not.toBeNull();
      expect(getComputedStyle(listbox).position).toBe('absolute');
      await userEvent.keyboard('{ArrowDown}{Enter}');
      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]!.detail).toBe('beta');
      expect(events[0]!.bubbles && events[0]!.composed && events[0]!.cancelable).toBe(true);
      expect(events[0]!.target).toBe(el);
      expect(ui.getByTestId('navigated').textContent).toBe('beta');
    } finally {
      document.removeEventListener('select', onSelect);
    }
  });

  it('preventDefault() on the event stops the default action', async () => {
    const el = mount('<lime-probe></lime-probe>');
    const { ui } = await rendered(el);
    el.addEventListener('select', (e) => e.preventDefault());
    await userEvent.click(ui.getByRole('combobox'));
    await userEvent.click(ui.getByRole('option', { name: 'gamma' }));
    await vi.waitFor(() => expect(ui.getByRole('combobox')).toHaveProperty('value', 'gamma'));
    expect(ui.getByTestId('navigated').textContent).toBe('');
  });

  it('selects with a click inside the shadow root and closes on a click outside', async () => {
    const outside = document.createElement('button');
    outside.textContent = 'Outside';
    document.body.append(outside);
    mounted.push(outside);
    const el = mount('<lime-probe></lime-probe>');
    const { ui } = await rendered(el);
    await userEvent.click(ui.getByRole('combobox'));
    expect(ui.getAllByRole('option')).toHaveLength(3);
    await userEvent.click(ui.getByRole('option', { name: 'alpha' }));
    await vi.waitFor(() => expect(ui.getByTestId('navigated').textContent).toBe('alpha'));
    await userEvent.click(ui.getByRole('combobox'));
    await vi.waitFor(() => expect(ui.queryAllByRole('option')).toHaveLength(3));
    await userEvent.click(outside);
    await vi.waitFor(() => expect(ui.queryAllByRole('option')).toHaveLength(0));
  });

  it('emits non-cancelable events as not cancelable', async () => {
    const el = mount('<lime-probe></lime-probe>');
    const { ui } = await rendered(el);
    const seen = vi.fn((e: Event) => expect(e.cancelable).toBe(false));
    el.addEventListener('ping', seen);
    await userEvent.click(ui.getByRole('button', { name: 'Ping' }));
    expect(seen).toHaveBeenCalledOnce();
  });

  it('is axe clean', async () => {
    const main = mount('<main><h1>Host page</h1><lime-probe></lime-probe></main>');
    const el = main.querySelector('lime-probe') as HTMLElement;
    const { ui } = await rendered(el);
    await userEvent.click(ui.getByRole('combobox'));
    await expectNoAxeViolations(document);
  });
});
