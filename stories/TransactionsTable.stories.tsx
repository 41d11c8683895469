import type { Meta, StoryObj } from '@storybook/react-vite';
import { TransactionsTable } from '../src/components/TransactionsTable';
import { signedIn, signedOut } from './support/accountSession';

// Sortable transactions, pages of 10/25/50/100/All. Signed-in stories use the demo account on the local platform server (`npm start`).

const meta = {
  title: 'Account/TransactionsTable',
  component: TransactionsTable,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof TransactionsTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out: the sign-in prompt; its button opens the sign-in overlay. */
export const SignedOut: Story = { ...signedOut };

/** Signed in as the demo user. */
export const SignedIn: Story = { ...signedIn };

/** Signed in, with a level-3 title. */
export const HeadingLevel3: Story = { ...signedIn, args: { headingLevel: 3 } };

const MANY = Array.from({ length: 37 }, (_, i) => ({
  id: `t${i}`,
  amount: i % 4 === 0 ? 200 : -(i + 3),
  kind: (i % 4 === 0 ? 'purchase' : 'usage') as 'purchase' | 'usage',
  description: i % 4 === 0 ? 'Credits purchase' : `Run of service ${i}`,
  created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
}));

/** Many rows (given, not loaded): paging and sorting. */
export const ManyRows: Story = { ...signedIn, args: { transactions: MANY } };

/** All rows on one page. */
export const AllRows: Story = { ...signedIn, args: { transactions: MANY, defaultPageSize: 'all' } };
