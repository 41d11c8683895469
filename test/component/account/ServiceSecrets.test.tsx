import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent as browserUser } from 'vitest/browser';
import { describe, expect, it } from 'vitest';
import { ServiceSecrets } from '../../../reference-app/src/pages/account/ServiceSecrets';
import { createServiceSecretsClient } from '../../../reference-app/src/pages/account/serviceSecrets';
import { expectNoAxeViolations } from '../../setup/axe';
import { platformUrl, signedUpClient } from './harness';

// Account → Hosting, a service opened → Secrets (docs/publishing.md, "Secrets"), on the real test
// platform: set by name through a labelled form with a password field, with the keyboard only;
// listed by name; a bad name refused on its field before anything is sent; removed behind a
// confirmation. The value never shows again, in the page or in the platform's answer.

async function ownService() {
  const { client: auth } = await signedUpClient('service-secrets');
  const token = (await auth.getSession()).data.session!.access_token;
  const created = await fetch(`${platformUrl()}/v1/model_management/services`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ display_name: `Secret reader ${Math.random().toString(36).slice(2, 8)}`, visibility: 'public' }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return { id, client: createServiceSecretsClient({ baseURL: platformUrl(), getAccessToken: () => token }) };
}

describe('ServiceSecrets', () => {
  it('sets a secret with the keyboard, lists it by name, refuses a bad name and removes one after a confirmation', async () => {
    const { id, client } = await ownService();
    const { container } = render(<ServiceSecrets client={client} serviceId={id} name="Reader" />);
    await screen.findByText('No secrets yet.');
    await expectNoAxeViolations(container);

    const nameField = screen.getByLabelText('Name');
    const valueField = screen.getByLabelText('Value');
    expect(valueField).toHaveAttribute('type', 'password');

    // A bad name: refused on its field, focused, nothing sent.
    nameField.focus();
    await browserUser.keyboard('openai key');
    await browserUser.tab();
    await browserUser.keyboard('sk-live-1234');
    await browserUser.keyboard('{Enter}');
    await waitFor(() => expect(nameField).toHaveAttribute('aria-invalid', 'true'));
    expect(nameField).toHaveFocus();
    expect(nameField).toHaveAccessibleDescription('Capital letters, digits and _, not starting with a digit (like OPENAI_API_KEY).');
    expect((await client.list(id)).ok && (await client.list(id))).toMatchObject({ data: { secrets: [] } });
    await expectNoAxeViolations(container);

    await browserUser.clear(nameField);
    await browserUser.keyboard('OPENAI_API_KEY');
    await browserUser.keyboard('{Enter}');
    const list = await screen.findByRole('list', { name: 'Secrets of Reader' });
    expect(within(list).getByText('OPENAI_API_KEY')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('OPENAI_API_KEY is saved; it takes effect on the next deploy.');
    // The value is gone from the form and from the page; the platform answers names only.
    expect(valueField).toHaveValue('');
    expect(document.body.textContent).not.toContain('sk-live-1234');
    const listed = await client.list(id);
    expect(JSON.stringify(listed)).not.toContain('sk-live-1234');
    expect(listed).toMatchObject({ ok: true, data: { secrets: [{ name: 'OPENAI_API_KEY' }] } });
    await expectNoAxeViolations(container);

    // Remove: the confirmation's safe answer first, then the removal.
    const remove = screen.getByRole('button', { name: 'Remove OPENAI_API_KEY' });
    remove.focus();
    await browserUser.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove OPENAI_API_KEY?' });
    expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus();
    await browserUser.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Remove OPENAI_API_KEY' })).toBeInTheDocument();

    screen.getByRole('button', { name: 'Remove OPENAI_API_KEY' }).focus();
    await browserUser.keyboard('{Enter}');
    within(await screen.findByRole('alertdialog'))
      .getByRole('button', { name: 'Remove the secret' })
      .click();
    await screen.findByText('No secrets yet.');
    expect(await client.list(id)).toMatchObject({ ok: true, data: { secrets: [] } });
  });

  it('a reserved name is refused on its field, as the platform refuses it', async () => {
    const { id, client } = await ownService();
    // The platform's own rule, as the form would send it without the check before (a direct call).
    expect(await client.set(id, 'LIMELIGHT_TOKEN', 'x')).toMatchObject({
      ok: false,
      status: 422,
      error: expect.stringContaining('LIMELIGHT_* are reserved'),
    });
    render(<ServiceSecrets client={client} serviceId={id} name="Reader" />);
    await screen.findByText('No secrets yet.');
    screen.getByLabelText('Name').focus();
    await browserUser.keyboard('PORT');
    await browserUser.tab();
    await browserUser.keyboard('8080{Enter}');
    await waitFor(() =>
      expect(screen.getByLabelText('Name')).toHaveAccessibleDescription(expect.stringContaining('PORT is set by the platform')),
    );
  });
});
