import type { Meta, StoryObj } from '@storybook/react-vite';
import { ProfileForm } from '../src/components/ProfileForm';
import { signedIn, signedOut } from './support/accountSession';

// Profile details; a new user accepts the terms first. Signed-in stories use the demo account on the local platform server (`npm start`).

const meta = {
  title: 'Account/ProfileForm',
  component: ProfileForm,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof ProfileForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out: the sign-in prompt; its button opens the sign-in overlay. */
export const SignedOut: Story = { ...signedOut };

/** Signed in as the demo user. */
export const SignedIn: Story = { ...signedIn };

/** Signed in, with a level-3 title. */
export const HeadingLevel3: Story = { ...signedIn, args: { headingLevel: 3 } };
