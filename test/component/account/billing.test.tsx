import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Transaction } from '@limelight/widgets/api';
import { CreditsPanel } from '@limelight/widgets/credits-panel';
import { SubscriptionPanel } from '@limelight/widgets/subscription-panel';
import { availableActions } from '../../../src/components/SubscriptionPanel/subscriptionActions';
import { TransactionsTable } from '@limelight/widgets/transactions-table';
import { paginate } from '../../../src/components/TransactionsTable/tableModel';
import { expectNoAxeViolations } from '../../setup/axe';
import { renderPanel, signedUpClient } from './harness';

const tx = (i: number, amount: number, description: string, day: number): Transaction => ({
  id: `t${i}`,
  amount,
  kind: amount > 0 ? 'purchase' : 'usage',
  description,
  created_at: new Date(Date.UTC(2026, 0, day, 12)).toISOString(),
});
const MANY = Array.from({ length: 27 }, (_, i) => tx(i, i % 3 === 0 ? 100 + i : -(i + 1), `Run ${String(i).padStart(2, '0')}`, i + 1));

describe('CreditsPanel', () => {
  it('shows the sign-up bonus balance, refuses a bad quantity, hands the checkout URL over', async () => {
    const { client } = await signedUpClient('credits');
    const onCheckout = vi.fn(() => false);
    const { container } = renderPanel(client, <CreditsPanel onCheckout={onCheckout} />);
    expect(await screen.findByText('500')).toHaveAttribute('data-testid', 'credit-balance');
    // The price with its currency before paying (issue 39, item 4): the server's 1 cent a credit.
    expect(screen.getByTestId('credit-price')).toHaveTextContent('1,000 credits cost €10.00, paid at checkout.');
    await userEvent.clear(screen.getByLabelText('Credits to buy'));
    await userEvent.type(screen.getByLabelText('Credits to buy'), '1.5');
    await userEvent.click(screen.getByRole('button', { name: 'Buy credits' }));
    expect(screen.getByText('Enter a whole number of credits, 1 or more.')).toBeInTheDocument();
    await expectNoAxeViolations(container);
    await userEvent.clear(screen.getByLabelText('Credits to buy'));
    await userEvent.type(screen.getByLabelText('Credits to buy'), '250');
    expect(screen.getByTestId('credit-price')).toHaveTextContent('250 credits cost €2.50, paid at checkout.');
    await userEvent.click(screen.getByRole('button', { name: 'Buy credits' }));
    await vi.waitFor(() => expect(onCheckout).toHaveBeenCalledWith({ url: expect.stringMatching(/^https?:\/\//), quantity: 250 }));
  });
});

describe('SubscriptionPanel', () => {
  it('which actions each status offers', () => {
    expect(availableActions(null)).toEqual({ actions: [], canSubscribe: true });
    expect(availableActions({ status: 'active', cancel_at_period_end: false })).toEqual({
      actions: ['cancelAtPeriodEnd', 'cancel'],
      canSubscribe: false,
    });
    expect(availableActions({ status: 'active', cancel_at_period_end: true })).toEqual({
      actions: ['cancel', 'reactivate'],
      canSubscribe: false,
    });
    expect(availableActions({ status: 'canceled', cancel_at_period_end: false })).toEqual({ actions: ['reactivate'], canSubscribe: true });
  });

  it('a new user has no subscription and may subscribe', async () => {
    const { client } = await signedUpClient('subscription');
    const { container } = renderPanel(client, <SubscriptionPanel />);
    const status = await screen.findByTestId('subscription-status');
    expect(status).toHaveAttribute('data-status', 'none');
    expect(within(status).getByText('No subscription')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel now' })).toBeNull();
    await expectNoAxeViolations(container);
  });
});

describe('TransactionsTable (spec tables: 10 per page; 10, 25, 50, 100, All)', () => {
  it('loads the user’s transactions: the sign-up bonus', async () => {
    const { client } = await signedUpClient('transactions');
    const { container } = renderPanel(client, <TransactionsTable />);
    const table = await screen.findByRole('table', { name: 'Transactions' });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).getByText('+500')).toBeInTheDocument();
    await expectNoAxeViolations(container);
  });

  it('pages of 10 by default, the other sizes, next and previous', async () => {
    const { client } = await signedUpClient('transactions-pages');
    const { container } = renderPanel(client, <TransactionsTable transactions={MANY} />);
    const rows = () => within(screen.getByRole('table')).getAllByRole('row').length - 1;
    await screen.findByRole('table');
    expect(rows()).toBe(10);
    expect(screen.getByText('Rows 1–10 of 27')).toBeInTheDocument();
    expect([...screen.getByRole('combobox', { name: 'Rows per page' }).querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      '10',
      '25',
      '50',
      '100',
      'All',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(rows()).toBe(7);
    expect(screen.getByText('Page 3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '25');
    expect(rows()).toBe(25);
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), 'all');
    expect(rows()).toBe(27);
    await expectNoAxeViolations(container);
  });

  it('sorts by a column from its header button, with aria-sort', async () => {
    const { client } = await signedUpClient('transactions-sort');
    renderPanel(client, <TransactionsTable transactions={MANY} defaultPageSize="all" />);
    await screen.findByRole('table');
    const firstCell = () => within(screen.getAllByRole('row')[1]!).getAllByRole('cell')[1]!.textContent;
    // Newest first by default.
    expect(screen.getByRole('columnheader', { name: /Date/ })).toHaveAttribute('aria-sort', 'descending');
    expect(firstCell()).toBe('Run 26');
    await userEvent.click(screen.getByRole('button', { name: /Credits/ }));
    expect(screen.getByRole('columnheader', { name: /Credits/ })).toHaveAttribute('aria-sort', 'descending');
    expect(within(screen.getAllByRole('row')[1]!).getAllByRole('cell')[2]!.textContent).toBe('+124');
    await userEvent.click(screen.getByRole('button', { name: /Credits/ }));
    expect(screen.getByRole('columnheader', { name: /Credits/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(within(screen.getAllByRole('row')[1]!).getAllByRole('cell')[2]!.textContent).toBe('-27');
    await userEvent.click(screen.getByRole('button', { name: /Description/ }));
    expect(firstCell()).toBe('Run 00');
    expect(screen.getByRole('columnheader', { name: /Date/ })).not.toHaveAttribute('aria-sort');
  });

  it('paginate clamps the page and counts rows', () => {
    expect(paginate([1, 2, 3], 10, 5)).toMatchObject({ rows: [1, 2, 3], page: 1, pages: 1, from: 1, to: 3, total: 3 });
    expect(paginate([], 'all', 1)).toMatchObject({ rows: [], page: 1, pages: 1, from: 0, to: 0, total: 0 });
  });
});
