import type { Meta, StoryObj } from '@storybook/react-vite';
import { ApiKeysPanel } from '../src/components/ApiKeysPanel';
import { signedIn, signedOut } from './support/accountSession';

// API keys: create (secret shown once), list, delete with confirmation. Signed-in stories use the demo account on the local platform server (`npm start`).

const meta = {
  title: 'Account/ApiKeysPanel',
  component: ApiKeysPanel,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof ApiKeysPanel>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out: the sign-in prompt; its button opens the sign-in overlay. */
export const SignedOut: Story = { ...signedOut };

/** Signed in as the demo user. */
export const SignedIn: Story = { ...signedIn };

/** Signed in, with a level-3 title. */
export const HeadingLevel3: Story = { ...signedIn, args: { headingLevel: 3 } };
