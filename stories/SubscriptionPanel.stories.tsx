import type { Meta, StoryObj } from '@storybook/react-vite';
import { SubscriptionPanel } from '../src/components/SubscriptionPanel';
import { signedIn, signedOut } from './support/accountSession';

// Plan and status; subscribe, cancel, reactivate. Signed-in stories use the demo account on the local platform server (`npm start`).

const meta = {
  title: 'Account/SubscriptionPanel',
  component: SubscriptionPanel,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof SubscriptionPanel>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out: the sign-in prompt; its button opens the sign-in overlay. */
export const SignedOut: Story = { ...signedOut };

/** Signed in as the demo user. */
export const SignedIn: Story = { ...signedIn };

/** Signed in, with a level-3 title. */
export const HeadingLevel3: Story = { ...signedIn, args: { headingLevel: 3 } };
