import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiKeysPanel } from '@limelight/widgets/api-keys-panel';
import { expectNoAxeViolations } from '../../setup/axe';
import { darkValues } from '../../../src/theme/tokens';
import { newClient, renderPanel, signedUpClient } from './harness';

/** '#4a1020' as computed styles write it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

const region = () => screen.getByRole('region', { name: 'API keys' });

describe('ApiKeysPanel', () => {
  it('signed out: a sign-in prompt whose button opens the sign-in overlay', async () => {
    const { container } = renderPanel(newClient(), <ApiKeysPanel />);
    await screen.findByText('Sign in to see this.');
    expect(region()).toHaveAttribute('data-state', 'signed-out');
    expect(screen.queryByRole('button', { name: 'Create API key' })).toBeNull();
    await expectNoAxeViolations(container);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    expect(within(dialog).getByLabelText('E-mail')).toBeInTheDocument();
  });

  it('spec: creates a key valid 183 days by default, shows its secret once, lists it; deletes it after a confirmation', async () => {
    const { client } = await signedUpClient('keys');
    const onCreate = vi.fn();
    const onDelete = vi.fn();
    const { container } = renderPanel(client, <ApiKeysPanel onCreate={onCreate} onDelete={onDelete} />);
    await screen.findByText('You have no API keys yet.');
    expect(screen.getByRole('combobox', { name: 'Valid for' })).toHaveValue('183');
    await expectNoAxeViolations(container);

    await userEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    const secret = await screen.findByTestId('new-api-key');
    expect(secret.textContent!.length).toBeGreaterThan(20);
    expect(screen.getByText('Copy your new key now. It is shown only once.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    const created = onCreate.mock.calls[0]![0] as { id: string; expiration_date: string; created_at: string; display_value: string };
    const days = (new Date(created.expiration_date).getTime() - new Date(created.created_at).getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(183);
    expect(secret.textContent).not.toBe(created.display_value);
    await expectNoAxeViolations(container);

    const deleteButton = screen.getByRole('button', { name: `Delete key ${created.display_value}` });
    await userEvent.click(deleteButton);
    const confirm = screen.getByRole('group', { name: `Delete key ${created.display_value}` });
    // Focus moves into the confirmation; Cancel leaves the key and returns focus.
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: `Delete key ${created.display_value}` })).toHaveFocus();
    expect(onDelete).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: `Delete key ${created.display_value}` }));
    await userEvent.click(
      within(screen.getByRole('group', { name: `Delete key ${created.display_value}` })).getByRole('button', { name: 'Delete' }),
    );
    await screen.findByText('You have no API keys yet.');
    expect(onDelete).toHaveBeenCalledWith(created.id);
    expect(screen.queryByTestId('new-api-key')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('API key deleted');
  });

  it('creates with the lifetime chosen', async () => {
    const { client } = await signedUpClient('keys-30');
    const onCreate = vi.fn();
    renderPanel(client, <ApiKeysPanel onCreate={onCreate} headingLevel={3} />);
    await screen.findByText('You have no API keys yet.');
    expect(screen.getByRole('heading', { level: 3, name: 'API keys' })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Valid for' }), '30');
    await userEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    await waitFor(() => expect(onCreate).toHaveBeenCalled());
    const created = onCreate.mock.calls[0]![0] as { expiration_date: string; created_at: string };
    expect(Math.round((new Date(created.expiration_date).getTime() - new Date(created.created_at).getTime()) / 86_400_000)).toBe(30);
  });

  it('issue 39, item 4: a key has the name given, says what it can do, when it was created and last used; Delete looks destructive', async () => {
    const { client } = await signedUpClient('keys-named');
    const { container } = renderPanel(client, <ApiKeysPanel />);
    await screen.findByText('You have no API keys yet.');
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'CI deploys');
    await userEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    const row = await screen.findByRole('row', { name: /CI deploys/ });
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('');
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toEqual(['Name', 'Key', 'Can', 'Created', 'Last used', 'Expires', 'Actions']);
    const cells = within(row)
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(cells[0]).toMatch(/^lime_…/);
    expect(cells[1]).toBe('Run services, Publish your services');
    expect(cells[2]).toBe(new Date().toLocaleDateString(undefined, { dateStyle: 'medium' }));
    expect(cells[3]).toBe('Never');
    expect(screen.getByText(/none can open your account/)).toBeInTheDocument();
    // Destructive: the theme's danger colours (the harness's dark theme), not the outline of before.
    const del = getComputedStyle(within(row).getByRole('button', { name: /^Delete key / }));
    expect([del.backgroundColor, del.color, del.borderTopColor]).toEqual([
      rgb(darkValues.color.dangerSurface),
      rgb(darkValues.color.onDanger),
      rgb(darkValues.color.onDanger),
    ]);
    await expectNoAxeViolations(container);
  });
});
