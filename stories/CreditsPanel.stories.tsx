import type { Meta, StoryObj } from '@storybook/react-vite';
import { CreditsPanel } from '../src/components/CreditsPanel';
import { signedIn, signedOut } from './support/accountSession';

// Balance and buying credits. Signed-in stories use the demo account on the local platform server (`npm start`).

const meta = {
  title: 'Account/CreditsPanel',
  component: CreditsPanel,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof CreditsPanel>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out: the sign-in prompt; its button opens the sign-in overlay. */
export const SignedOut: Story = { ...signedOut };

/** Signed in as the demo user. */
export const SignedIn: Story = { ...signedIn };

/** Signed in, with a level-3 title. */
export const HeadingLevel3: Story = { ...signedIn, args: { headingLevel: 3 } };
