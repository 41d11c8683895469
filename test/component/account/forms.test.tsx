import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CreditsPanel } from '@limelight/widgets/credits-panel';
import { ProfileForm } from '@limelight/widgets/profile-form';
import { RegistryCredentialsPanel } from '@limelight/widgets/registry-credentials-panel';
import { SupportForm } from '@limelight/widgets/support-form';
import { expectNoAxeViolations } from '../../setup/axe';
import { renderPanel, signedUpClient } from './harness';

describe('ProfileForm', () => {
  it('a new user accepts the terms first (spec: 500 credits bonus), then saves details', async () => {
    const { client, email } = await signedUpClient('profile');
    const onSave = vi.fn();
    const { container } = renderPanel(
      client,
      <>
        <ProfileForm onSave={onSave} />
        <CreditsPanel showBuy={false} />
      </>,
    );
    const terms = await screen.findByRole('region', { name: 'Terms of service' });
    // The truth (issue 39): the bonus is booked at sign-up, before the terms are accepted.
    expect(terms).toHaveTextContent('Your sign-up bonus of 500 credits is already in your balance.');
    expect(terms).not.toHaveTextContent(/waiting|to start using/);
    // The balance loads on its own; a loaded machine can take seconds.
    await vi.waitFor(() => expect(screen.getByTestId('credit-balance')).toHaveTextContent('500'), { timeout: 10_000 });
    expect(screen.getByText(`Signed in as ${email}`)).toBeInTheDocument();
    await expectNoAxeViolations(container);
    await userEvent.click(within(terms).getByRole('button', { name: 'I agree to the terms of service' }));
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Terms of service' })).toBeNull());

    await userEvent.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
    await userEvent.type(screen.getByLabelText('City'), 'London');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    expect(onSave).toHaveBeenLastCalledWith(expect.objectContaining({ full_name: 'Ada Lovelace', city: 'London' }));
  });

  it('keeps what the user typed when the profile data changes under it (agreeing to the terms loads it anew)', async () => {
    // The loaded profile used to be copied into the form by an effect each time it changed, which
    // replaced text typed in the meantime (the e2e "a 422 shows on its field" flake, where the
    // first load landed after the typing). Agreeing to the terms replaces the data while typed.
    const { client } = await signedUpClient('profile-typed');
    renderPanel(client, <ProfileForm />);
    const terms = await screen.findByRole('region', { name: 'Terms of service' });
    const mobile = screen.getByLabelText('Mobile');
    await waitFor(() => expect(mobile).toBeEnabled());
    await userEvent.type(mobile, 'call me maybe');
    await userEvent.click(within(terms).getByRole('button', { name: 'I agree to the terms of service' }));
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Terms of service' })).toBeNull());
    expect(mobile).toHaveValue('call me maybe');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    await vi.waitFor(() => expect(mobile).toHaveAttribute('aria-invalid', 'true'));
    expect(mobile).toHaveAccessibleDescription('must be a phone number such as +49 30 1234567');
  });
});

describe('RegistryCredentialsPanel', () => {
  it('requires username and token; adds one (spec: success message for 3 s), lists it masked, deletes it', async () => {
    const { client } = await signedUpClient('registry');
    const { container } = renderPanel(client, <RegistryCredentialsPanel />);
    await screen.findByText('No Docker Hub tokens yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Add token' }));
    expect(screen.getByText('Docker Hub username is required.')).toBeInTheDocument();
    expect(screen.getByText('Access token is required.')).toBeInTheDocument();
    await expectNoAxeViolations(container);

    await userEvent.type(screen.getByLabelText('Docker Hub username'), 'ada');
    await userEvent.type(screen.getByLabelText('Alias'), 'work');
    await userEvent.type(screen.getByLabelText('Access token'), 'dckr_pat_secret_value_123');
    await userEvent.click(screen.getByRole('button', { name: 'Add token' }));
    const toast = await screen.findByText('Docker Hub access token added successfully');
    const item = await screen.findByRole('listitem');
    expect(item).toHaveTextContent('work');
    expect(item).not.toHaveTextContent('dckr_pat_secret_value_123');
    // Spec: the success message shows for 3 s, then goes.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(toast).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Docker Hub access token added successfully')).toBeNull(), { timeout: 3000 });
    await userEvent.click(screen.getByRole('button', { name: 'Delete token work' }));
    await screen.findByText('No Docker Hub tokens yet.');
  });
});

describe('SupportForm', () => {
  it('requires subject and message, refuses attachments over 2 MB, sends and shows the reference', async () => {
    const { client } = await signedUpClient('support');
    const onSend = vi.fn();
    const { container } = renderPanel(client, <SupportForm onSend={onSend} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Send' }));
    expect(screen.getByText('Please enter a subject.')).toBeInTheDocument();
    expect(screen.getByText('Please enter a message.')).toBeInTheDocument();
    await expectNoAxeViolations(container);

    await userEvent.type(screen.getByLabelText('Subject'), 'Invoice');
    await userEvent.type(screen.getByLabelText('Message'), 'Please send my invoice.');
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.bin');
    await userEvent.upload(screen.getByLabelText('Attachments (up to 2 MB each)'), big);
    expect(screen.getByText('big.bin is larger than 2 MB.')).toBeInTheDocument();
    await userEvent.upload(screen.getByLabelText('Attachments (up to 2 MB each)'), new File(['hello'], 'note.txt', { type: 'text/plain' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/We received your request \(reference .+\)/)).toBeInTheDocument();
    expect(onSend).toHaveBeenCalledWith(expect.any(String));
  });
});
