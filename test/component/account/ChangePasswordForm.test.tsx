import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChangePasswordForm } from '@limelight/widgets/change-password-form';
import { changePassword } from '../../../src/components/ChangePasswordForm/changePassword';
import { expectNoAxeViolations } from '../../setup/axe';
import { newClient, renderPanel, signedUpClient } from './harness';

describe('ChangePasswordForm (product-rules §5 password change)', () => {
  it('validates first: the current password is required, the new one needs 6 characters', async () => {
    const { client } = await signedUpClient('pw-validate');
    const { container } = renderPanel(client, <ChangePasswordForm />);
    await userEvent.click(await screen.findByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a new password.')).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(screen.getByLabelText('New password'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Password must be at least 6 characters long.')).toBeInTheDocument();
    await expectNoAxeViolations(container);
  });

  it("product-rules §5: 'Current password is incorrect', then 'Password changed successfully'; the new password signs in", async () => {
    const { client, email, password } = await signedUpClient('pw-change');
    const onChange = vi.fn();
    const { container } = renderPanel(client, <ChangePasswordForm onChange={onChange} />);
    await userEvent.type(await screen.findByLabelText('Current password'), 'wrong-password');
    await userEvent.type(screen.getByLabelText('New password'), 'brand-new-pw');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('Current password'));
    await userEvent.type(screen.getByLabelText('Current password'), password);
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    await expectNoAxeViolations(container);

    const other = newClient();
    expect((await other.signInWithPassword({ email, password })).error).not.toBeNull();
    expect((await other.signInWithPassword({ email, password: 'brand-new-pw' })).error).toBeNull();
  });

  it("product-rules §5: the provider's message when it refuses the new password, 'Failed to change password' without one, 'An unexpected error occurred' when it throws", async () => {
    const ok = { data: {}, error: null };
    const refused = (message: string) =>
      changePassword(
        {
          signInWithPassword: vi.fn().mockResolvedValue(ok),
          updateUser: vi.fn().mockResolvedValue({ data: {}, error: { message } }),
        } as never,
        'a@b.c',
        'x',
        'y',
      );
    expect(await refused('New password should be different from the old password.')).toEqual({
      kind: 'failed',
      message: 'New password should be different from the old password.',
    });
    expect(await refused('')).toEqual({ kind: 'failed', message: null });
    const thrown = await changePassword(
      { signInWithPassword: vi.fn().mockRejectedValue(new Error('network')), updateUser: vi.fn() } as never,
      'a@b.c',
      'x',
      'y',
    );
    expect(thrown).toEqual({ kind: 'unexpected' });
  });
});
