import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ModelDescriptor } from '../../../src/api/types';
import { ServiceSearch } from '../../../src/components/ServiceSearch';
import { PlatformProvider } from '../../../src/config';
import { fixtureCategories, fixtureModels } from '../../fixtures/catalogue';
import { expectNoAxeViolations } from '../../setup/axe';

// Search results of services on the demo runtime carry the Demo badge (issue 50, item 2); its
// reason (the catalogue's demo_reason) describes the option and shows while it is highlighted,
// so it is reached with the arrow keys as with the pointer.

const REASON = 'Runs on the local demo runtime: placeholder output, not the real model';
const models: ModelDescriptor[] = fixtureModels.map((m) =>
  m.id === 'sdxl' ? { ...m, hardware: 'demo', demo: true, demo_reason: REASON } : m,
);

describe('ServiceSearch: demo results', () => {
  it('badges a demo result, describes it by its reason and shows the reason when highlighted', async () => {
    const user = userEvent.setup();
    render(
      <PlatformProvider apiUrl="http://127.0.0.1:9">
        <header>
          <h1>Limelight</h1>
          <ServiceSearch models={models} categories={fixtureCategories} />
        </header>
        <main>
          <p>Page content</p>
        </main>
      </PlatformProvider>,
    );
    const input = screen.getByRole('combobox', { name: 'Search services' });
    await user.type(input, 'sdxl');
    const options = await screen.findAllByRole('option');
    const demo = options.find((o) => o.textContent?.includes('stability-ai/sdxl'))!;
    expect(demo.querySelector('[data-demo]')).toHaveTextContent('Demo');
    expect(demo).toHaveAccessibleDescription(REASON);
    const reason = demo.querySelector(`#${CSS.escape(demo.getAttribute('aria-describedby')!)}`)!;
    expect(reason).not.toBeVisible();
    for (const other of options.filter((o) => o !== demo)) expect(other.querySelector('[data-demo]')).toBeNull();

    // Arrow down to it: the active descendant shows its reason.
    for (let i = 0; i < options.length && input.getAttribute('aria-activedescendant') !== demo.id; i++) await user.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-activedescendant')).toBe(demo.id);
    expect(reason).toBeVisible();
    await expectNoAxeViolations();
  });
});
