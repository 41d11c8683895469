import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { userEvent as browserUser } from 'vitest/browser';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ModelDescriptor } from '@limelight/widgets/api';
import { PlatformProvider } from '@limelight/widgets/platform';
import { ServiceCard } from '../../../reference-app/src/pages/catalogue/ServiceCard';
import { ServiceHeader } from '../../../reference-app/src/pages/catalogue/ServiceView';
import { parseOverviewParams, overviewParams, withoutDemos } from '../../../reference-app/src/pages/catalogue/overviewUrl';
import { expectNoAxeViolations } from '../../setup/axe';

// The Demo badge (issue 50, item 2): a service on the demo runtime says so on its card and its
// page header, with the reason (the catalogue's demo_reason) reachable by hover and by keyboard;
// the catalogue's filter can hide the demos.

const REASON = 'Runs on the local demo runtime: placeholder output, not the real model';
const demo: ModelDescriptor = {
  id: 'lime-diffusion-xl',
  display_name: 'Lime Diffusion XL',
  model_desc: 'Pictures from text.',
  provider: 'limelight',
  n_usages: 12,
  model_category: [],
  hardware: 'demo',
  demo: true,
  demo_reason: REASON,
};
const real: ModelDescriptor = {
  ...demo,
  id: 'lime-ocr',
  display_name: 'Lime OCR',
  hardware: 'cpu',
  demo: undefined,
  demo_reason: undefined,
};

const wrap = (children: React.ReactNode) =>
  render(
    <PlatformProvider apiUrl="http://localhost:3999" authKey="anon-test-key">
      <MemoryRouter>
        <main>{children}</main>
      </MemoryRouter>
    </PlatformProvider>,
  );

describe('the Demo badge on the service page header', () => {
  it('is a focusable button described by its reason, shown on focus and hidden by Escape', async () => {
    const user = userEvent.setup();
    wrap(<ServiceHeader model={demo} categories={[]} />);
    const badge = screen.getByRole('button', { name: 'Demo' });
    expect(badge).toHaveAccessibleDescription(REASON);
    const tip = screen.getByRole('tooltip', { hidden: true });
    expect(tip).not.toBeVisible();
    await user.tab();
    expect(badge).toHaveFocus();
    expect(tip).toBeVisible();
    expect(tip).toHaveTextContent(REASON);
    // axe on the badge and its visible tooltip (the page's picture is not this test's).
    await expectNoAxeViolations(badge.closest('p')!);
    await user.keyboard('{Escape}');
    expect(tip).not.toBeVisible();
  });

  it('shows the reason on hover', async () => {
    wrap(<ServiceHeader model={demo} categories={[]} />);
    // The real pointer (CSS :hover), not a synthetic event.
    await browserUser.hover(screen.getByRole('button', { name: 'Demo' }));
    expect(screen.getByRole('tooltip')).toBeVisible();
  });

  it('is not there for a service that runs its real model', () => {
    wrap(<ServiceHeader model={real} categories={[]} />);
    expect(screen.queryByRole('button', { name: 'Demo' })).toBeNull();
    expect(document.querySelector('[data-demo]')).toBeNull();
  });
});

describe('the Demo badge on a card', () => {
  it('describes the card link with the reason and shows it while the card has keyboard focus', async () => {
    const user = userEvent.setup();
    wrap(
      <ul>
        <li>
          <ServiceCard model={demo} categories={[]} brand="Limelight" />
        </li>
        <li>
          <ServiceCard model={real} categories={[]} brand="Limelight" />
        </li>
      </ul>,
    );
    const [demoCard, realCard] = screen.getAllByRole('link');
    expect(demoCard).toHaveAccessibleDescription(REASON);
    expect(realCard).not.toHaveAccessibleDescription();
    expect(demoCard!.querySelector('[data-demo]')).toHaveTextContent(/^Demo/);
    expect(realCard!.querySelector('[data-demo]')).toBeNull();
    const tip = screen.getByRole('tooltip', { hidden: true });
    expect(tip).not.toBeVisible();
    await user.tab();
    expect(demoCard).toHaveFocus();
    expect(tip).toBeVisible();
    await user.tab();
    expect(tip).not.toBeVisible();
    await browserUser.hover(demoCard!.querySelector('[data-demo]')!);
    expect(tip).toBeVisible();
    await expectNoAxeViolations(demoCard!.querySelector('[data-demo]')!);
  });
});

describe('the catalogue filter that hides demos', () => {
  it('lives in the URL as demos=hide and leaves the demos out', () => {
    const view = parseOverviewParams(new URLSearchParams('demos=hide&q=lime'));
    expect(view.hideDemos).toBe(true);
    expect(overviewParams(view).toString()).toBe('q=lime&demos=hide');
    expect(parseOverviewParams(new URLSearchParams('')).hideDemos).toBe(false);
    expect(withoutDemos([demo, real], view).map((m) => m.id)).toEqual(['lime-ocr']);
    expect(withoutDemos([demo, real], { hideDemos: false }).map((m) => m.id)).toEqual(['lime-diffusion-xl', 'lime-ocr']);
  });
});
