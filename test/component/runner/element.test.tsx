import { waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '@limelight/widgets/web-components';
import { expectNoAxeViolations } from '../../setup/axe';

// <lime-service-runner> as a page uses it: attributes in, shadow DOM out. Runs against the real
// server are in test/e2e/run.spec.ts; here the API is unreachable on purpose.

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const el of mounted.splice(0)) el.remove();
});

function mount(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = html;
  const el = host.firstElementChild as HTMLElement;
  document.body.append(el);
  mounted.push(el);
  return el;
}

const ui = (el: HTMLElement) => within(el.shadowRoot as unknown as HTMLElement);

describe('<lime-service-runner>', () => {
  it('without service-id renders nothing and says why (development)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = mount('<lime-service-runner auth-key="anon"></lime-service-runner>');
    await waitFor(() => expect(warn).toHaveBeenCalledWith('[limelight] <lime-service-runner> needs a service-id attribute.'));
    expect(el.shadowRoot!.querySelector('[data-lime="service-runner"]')).toBeNull();
    warn.mockRestore();
  });

  it('an unreachable API is reported as a load failure, not as a missing service', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const el = mount(
      '<lime-service-runner service-id="lime-diffusion-xl" api-url="http://127.0.0.1:9" auth-key="anon" theme="light"></lime-service-runner>',
    );
    await waitFor(
      () => expect(ui(el).getByRole('status')).toHaveTextContent('Could not load this service. Check your connection and try again.'),
      {
        timeout: 10_000,
      },
    );
    expect(el.shadowRoot!.querySelector('[data-lime="service-runner"]')).toHaveAttribute('data-state', 'error');
    await expectNoAxeViolations(el.shadowRoot as unknown as Element);
    error.mockRestore();
  });

  it('properties reflect to attributes', () => {
    const el = mount('<lime-service-runner service-id="a"></lime-service-runner>') as HTMLElement & { serviceId: string; input: unknown };
    el.serviceId = 'b';
    expect(el.getAttribute('service-id')).toBe('b');
    el.input = { prompt: 'a lime' };
    expect(el.getAttribute('input')).toBe('{"prompt":"a lime"}');
  });
});
