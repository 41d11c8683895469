import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useMemo } from 'react';
import { MessageOverlay } from '../src/components/MessageOverlay';
import { type GlobalEventsState } from '../src/notifications';
import { createGlobalEventsStore } from '../src/notifications/globalEvents';

// Each story gives the overlay its own store seeded with one state of product-rules §4.
function Demo({ state }: { state: Partial<GlobalEventsState> }) {
  const store = useMemo(() => createGlobalEventsStore(state), [state]);
  useEffect(() => () => store.send({ type: 'reset' }), [store]);
  return (
    <div>
      <p>Page content behind the overlay.</p>
      <MessageOverlay store={store} onReload={() => console.info('[reload]')} />
    </div>
  );
}

const meta = {
  title: 'Notifications/MessageOverlay',
  component: Demo,
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Demo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = { args: { state: {} } };
export const Warning: Story = { args: { state: { warning: "Couldn't reach server. Are you online?" } } };
export const Success: Story = { args: { state: { success: 'Profile updated successfully' } } };
export const SuccessDefaultText: Story = { args: { state: { success: '' } } };
export const Critical: Story = {
  args: {
    state: { critical: 'We had problems to sign you up. Please try again in a few minutes. If the problem persists, please contact us.' },
  },
};
export const CriticalDefaultText: Story = { args: { state: { critical: '' } } };
export const Loading: Story = { args: { state: { loading: true } } };
export const WarningAndSuccess: Story = { args: { state: { warning: 'Your session has ended.', success: 'Success!' } } };
