import type { Meta, StoryObj } from '@storybook/react-vite';
import { UsageChart, SeriesChart } from '../src/components/UsageChart';
import { signedIn, signedOut } from './support/accountSession';

// Monthly API calls and credits spent; the balance over time. Signed-in stories use the demo account on the local platform server (`npm start`).

const meta = {
  title: 'Account/UsageChart',
  component: UsageChart,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof UsageChart>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out: the sign-in prompt; its button opens the sign-in overlay. */
export const SignedOut: Story = { ...signedOut };

/** Signed in as the demo user. */
export const SignedIn: Story = { ...signedIn };

/** Signed in, with a level-3 title. */
export const HeadingLevel3: Story = { ...signedIn, args: { headingLevel: 3 } };

/** The balance over time, as on the billing page. */
export const BalanceOverTime: Story = { ...signedIn, args: { series: ['balance'], title: 'Credits over time' } };

const HOME = [0, 10, 10, 15, 16, 20, 22, 28, 34, 50].map((value, i) => ({ label: `M${i + 1}`, value }));

/** The chart alone (no session needed): a line, as the home page's growth chart. Tab in, then arrows. */
export const SeriesLine: StoryObj<typeof SeriesChart> = {
  render: () => <SeriesChart title="Growth" valueLabel="growth" categoryLabel="Month" data={HOME} kind="line" />,
};

/** The chart alone: bars. */
export const SeriesBars: StoryObj<typeof SeriesChart> = {
  render: () => (
    <SeriesChart
      title="API calls"
      valueLabel="API calls"
      categoryLabel="Month"
      data={HOME.map((d, i) => ({ label: `2026-${String(i + 1).padStart(2, '0')}`, value: d.value * 37 }))}
    />
  ),
};
