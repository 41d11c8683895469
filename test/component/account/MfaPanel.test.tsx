import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as OTPAuth from 'otpauth';
import { describe, expect, it, vi } from 'vitest';
import { MfaPanel } from '@limelight/widgets/mfa-panel';
import { expectNoAxeViolations } from '../../setup/axe';
import { renderPanel, signedUpClient } from './harness';

const codeFor = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();

describe('MfaPanel', () => {
  it('enrols a TOTP factor (QR code and secret, confirmed with a code: the session becomes aal2), lists it, removes it', async () => {
    const { client } = await signedUpClient('mfa');
    const onEnrol = vi.fn();
    const onRemove = vi.fn();
    const { container } = renderPanel(client, <MfaPanel onEnrol={onEnrol} onRemove={onRemove} />);
    await screen.findByText('No authenticator app is set up.');
    await expectNoAxeViolations(container);

    await userEvent.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.querySelector('path')!.getAttribute('d')!.length).toBeGreaterThan(100);
    const secret = screen.getByTestId('mfa-secret').textContent!;
    await expectNoAxeViolations(container);

    await userEvent.type(screen.getByLabelText('Code from the app'), '12ab');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('Enter the 6-digit code from your app.')).toBeInTheDocument();
    const wrong = codeFor(secret) === '000000' ? '111111' : '000000';
    await userEvent.clear(screen.getByLabelText('Code from the app'));
    await userEvent.type(screen.getByLabelText('Code from the app'), wrong);
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Invalid TOTP code entered')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Code from the app'));
    await userEvent.type(screen.getByLabelText('Code from the app'), codeFor(secret));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Authenticator app added');
    expect(onEnrol).toHaveBeenCalledTimes(1);
    const { data } = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(data?.currentLevel).toBe('aal2');
    const list = await screen.findByRole('list', { name: 'Two-factor authentication' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Remove Authenticator app' }));
    const confirm = screen.getByRole('group', { name: 'Remove Authenticator app' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('No authenticator app is set up.');
    expect(onRemove).toHaveBeenCalledWith(onEnrol.mock.calls[0]![0]);
  });

  it('cancelling an enrolment removes the unconfirmed factor', async () => {
    const { client } = await signedUpClient('mfa-cancel');
    renderPanel(client, <MfaPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    await screen.findByTestId('mfa-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByRole('button', { name: 'Set up an authenticator app' });
    await waitFor(async () => expect((await client.mfa.listFactors()).data?.all).toEqual([]));
  });
});
