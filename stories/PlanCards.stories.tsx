import type { Meta, StoryObj } from '@storybook/react-vite';
import { PlanCards } from '../src/components/PlanCards';

// Plan cards of product-rules §9: signed out (buttons go to sign-up) and signed in (to billing); the
// preview's navigate() logs the target.

const meta = {
  title: 'Pricing/PlanCards',
  component: PlanCards,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof PlanCards>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out: a button goes to /signinup?page_state=0. */
export const SignedOut: Story = { args: { isLoggedIn: false } };

/** Signed in: a button goes to /account/billing. */
export const SignedIn: Story = { args: { isLoggedIn: true } };

/** Login state from the global events store (unknown counts as signed out). */
export const FromGlobalEvents: Story = {};

/** A subset, e.g. the paid plans only. */
export const PaidPlansOnly: Story = { args: { plans: ['plus', 'pro', 'enterprise'] } };
