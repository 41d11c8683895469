import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SeriesChart, UsageChart } from '@limelight/widgets/usage-chart';
import { balanceByMonth, creditsSpentByMonth } from '../../../src/components/UsageChart/usageData';
import { chartGeometry } from '../../../src/components/UsageChart/chartModel';
import { expectNoAxeViolations } from '../../setup/axe';
import { renderPanel, signedUpClient } from './harness';

const HOME = [0, 10, 10, 15, 16, 20, 22, 28, 34, 50].map((value, i) => ({ label: `M${i + 1}`, value }));

describe('SeriesChart', () => {
  it('one tab stop; arrows, Home and End move between points, each showing its tooltip; Escape hides it', async () => {
    const { container } = render(<SeriesChart title="Growth" valueLabel="growth" categoryLabel="Month" data={HOME} kind="line" />);
    const points = screen.getAllByRole('img');
    expect(points).toHaveLength(10);
    expect(points.filter((p) => p.getAttribute('tabindex') === '0')).toHaveLength(1);
    await userEvent.tab();
    expect(points[0]).toHaveFocus();
    expect(screen.getByTestId('chart-tooltip')).toHaveTextContent('M1: 0');
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(points[2]).toHaveFocus();
    expect(points[2]).toHaveAccessibleName('M3: 10 growth');
    expect(screen.getByTestId('chart-tooltip')).toHaveTextContent('M3: 10');
    await userEvent.keyboard('{End}');
    expect(screen.getByTestId('chart-tooltip')).toHaveTextContent('M10: 50');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('chart-tooltip')).toBeNull();
    // Tabbing away and back lands on the last focused point.
    await userEvent.tab();
    await userEvent.tab({ shift: true });
    expect(points[9]).toHaveFocus();
    await expectNoAxeViolations(container);
  });

  it('has the same data as a table', async () => {
    render(<SeriesChart title="Growth" valueLabel="growth" categoryLabel="Month" data={HOME} />);
    await userEvent.click(screen.getByText('Show as table'));
    const table = screen.getByRole('table', { name: 'Growth' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(HOME.map((d) => `${d.label}${d.value}`));
  });

  it('geometry: bars grow with the value, from a nice zero-based axis', () => {
    const g = chartGeometry(HOME, 'bar');
    expect(g.ticks[0]!.value).toBe(0);
    expect(g.ticks.at(-1)!.value).toBe(50);
    expect(g.points[9]!.barHeight).toBeGreaterThan(g.points[1]!.barHeight);
    expect(g.points[0]!.barHeight).toBe(0);
  });
});

describe('usage data', () => {
  const t = (amount: number, kind: 'usage' | 'purchase' | 'sign_up_bonus', iso: string) => ({
    id: iso + amount,
    amount,
    kind,
    description: '',
    created_at: iso,
  });
  it('credits spent per month count usage only; the balance is the running sum at each month end', () => {
    const rows = [
      t(500, 'sign_up_bonus', '2026-01-02T00:00:00Z'),
      t(-20, 'usage', '2026-01-05T00:00:00Z'),
      t(-5, 'usage', '2026-02-05T00:00:00Z'),
      t(100, 'purchase', '2026-02-07T00:00:00Z'),
      t(-7, 'usage', '2026-02-09T00:00:00Z'),
    ];
    expect(creditsSpentByMonth(rows)).toEqual([
      { month: '2026-01', credits: 20 },
      { month: '2026-02', credits: 12 },
    ]);
    expect(balanceByMonth(rows)).toEqual([
      { month: '2026-01', balance: 480 },
      { month: '2026-02', balance: 568 },
    ]);
  });
});

describe('UsageChart', () => {
  it('a new user: the balance over time from the sign-up bonus', async () => {
    const { client } = await signedUpClient('usage');
    const { container } = renderPanel(client, <UsageChart series={['balance']} title="Credits over time" />);
    const point = await screen.findByRole('img', { name: /: 500 Balance$/ });
    expect(point).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Credits over time' })).toBeInTheDocument();
    await expectNoAxeViolations(container);
  });

  it('a new user without calls or spending: says so', async () => {
    const { client } = await signedUpClient('usage-empty');
    renderPanel(client, <UsageChart />);
    expect(await screen.findByText('No usage yet.')).toBeInTheDocument();
  });
});
