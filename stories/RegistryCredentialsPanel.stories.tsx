import type { Meta, StoryObj } from '@storybook/react-vite';
import { RegistryCredentialsPanel } from '../src/components/RegistryCredentialsPanel';
import { signedIn, signedOut } from './support/accountSession';

// Docker Hub tokens; success message for 3 s. Signed-in stories use the demo account on the local platform server (`npm start`).

const meta = {
  title: 'Account/RegistryCredentialsPanel',
  component: RegistryCredentialsPanel,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof RegistryCredentialsPanel>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out: the sign-in prompt; its button opens the sign-in overlay. */
export const SignedOut: Story = { ...signedOut };

/** Signed in as the demo user. */
export const SignedIn: Story = { ...signedIn };

/** Signed in, with a level-3 title. */
export const HeadingLevel3: Story = { ...signedIn, args: { headingLevel: 3 } };
