import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlatformProvider } from '@limelight/widgets/platform';
import { createGlobalEventsStore, globalEvents } from '../../../src/notifications/globalEvents';
import { PlanCards } from '@limelight/widgets/plan-cards';
import { expectNoAxeViolations } from '../../setup/axe';

afterEach(() => {
  globalEvents.trigger.setLoggedIn({ loggedIn: null });
});

const card = (title: string) => screen.getByRole('article', { name: title });

describe('PlanCards (product-rules §9 "Plans")', () => {
  it('product-rules §9: Free, Plus, Pro and Enterprise with their prices, struck-through price and badge', async () => {
    const { container } = render(<PlanCards />);
    const list = screen.getByRole('list', { name: 'Plans' });
    expect(
      within(list)
        .getAllByRole('article')
        .map((a) => a.getAttribute('data-plan')),
    ).toEqual(['free', 'plus', 'pro', 'enterprise']);

    expect(within(card('Free')).getByText(/^\$0$/)).toBeInTheDocument();
    expect(card('Plus')).toHaveTextContent('€4.99per month');
    expect(card('Pro')).toHaveTextContent('€19.99per month');
    expect(within(card('Pro')).getByText('$29,99').tagName).toBe('S');
    expect(card('Pro')).toHaveTextContent('Previously $29,99');
    expect(within(card('Pro')).getByText('Most Popular')).toBeInTheDocument();
    expect(screen.getAllByText('Most Popular')).toHaveLength(1);
    expect(card('Enterprise')).toHaveTextContent('from€39.99per person per month');

    expect(within(card('Plus')).getByText('Private hosting for up to 2 services')).toBeInTheDocument();
    expect(within(card('Pro')).getByText('Private hosting for up to 5 services')).toBeInTheDocument();
    expect(within(card('Enterprise')).getByText('Unlimited private hosting')).toBeInTheDocument();
    await expectNoAxeViolations(container);
  });

  it('product-rules §9: signed out, a plan button goes to sign-up (page_state 0)', async () => {
    const navigate = vi.fn();
    const user = userEvent.setup();
    render(
      <PlatformProvider navigate={navigate}>
        <PlanCards />
      </PlatformProvider>,
    );
    await user.click(within(card('Pro')).getByRole('button', { name: 'Choose Pro' }));
    expect(navigate).toHaveBeenCalledWith('/signinup?page_state=0');
  });

  it('product-rules §9: signed in (global events is_logged_in), it goes to the billing page, following the store live', async () => {
    const navigate = vi.fn();
    const user = userEvent.setup();
    render(
      <PlatformProvider navigate={navigate}>
        <PlanCards />
      </PlatformProvider>,
    );
    act(() => globalEvents.trigger.setLoggedIn({ loggedIn: true }));
    await user.click(within(card('Plus')).getByRole('button', { name: 'Choose Plus' }));
    expect(navigate).toHaveBeenLastCalledWith('/account/billing');

    act(() => globalEvents.trigger.setLoggedIn({ loggedIn: false }));
    await user.click(within(card('Plus')).getByRole('button', { name: 'Choose Plus' }));
    expect(navigate).toHaveBeenLastCalledWith('/signinup?page_state=0');
  });

  it('reads a given store, and works by keyboard', async () => {
    const navigate = vi.fn();
    const store = createGlobalEventsStore({ is_logged_in: true });
    const user = userEvent.setup();
    render(
      <PlatformProvider navigate={navigate}>
        <PlanCards store={store} />
      </PlatformProvider>,
    );
    await user.tab();
    expect(within(card('Free')).getByRole('button')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(navigate).toHaveBeenCalledWith('/account/billing');
  });

  it('onSelect can keep the visitor on the page', async () => {
    const navigate = vi.fn();
    const onSelect = vi.fn(() => false);
    const user = userEvent.setup();
    render(
      <PlatformProvider navigate={navigate}>
        <PlanCards isLoggedIn onSelect={onSelect} />
      </PlatformProvider>,
    );
    await user.click(within(card('Enterprise')).getByRole('button'));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ key: 'enterprise' }), '/account/billing');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('takes its words from the strings table', () => {
    render(
      <PlatformProvider strings={{ pricing: { plans: { mostPopular: 'Beliebt', pro: { buttonText: 'Pro wählen' } } } }}>
        <PlanCards />
      </PlatformProvider>,
    );
    expect(screen.getByText('Beliebt')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pro wählen' })).toBeInTheDocument();
  });
});
