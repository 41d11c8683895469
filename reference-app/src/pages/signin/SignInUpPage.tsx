import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { AuthDialog } from '@limelight/widgets/auth-dialog';
import { pageStateOf, parsePageState, type AuthScreen } from '@limelight/widgets/auth';

/**
 * /signinup and /SignInUp: the sign-in page in page mode. Reads `page_state` (0-6, default 1:
 * sign in), `passwordreset=true` (back from a recovery link: 'setPassword' once the session is
 * checked) and `emailconfirmed=true` (back from the sign-up confirmation link). This page is the
 * one place the numbers live: the dialog speaks screen names, and each screen it moves to is
 * written back as its `page_state` (the MFA step has none and leaves the URL alone); the
 * one-shot link flags are dropped once it moves on.
 * Redirects after authentication (product-rules §2) happen inside the dialog through the platform's
 * navigate(): the sign-in page to /account, sign-up and its confirmation to /account/dashboard.
 */
export default function SignInUpPage() {
  const [params, setParams] = useSearchParams();
  const passwordReset = params.get('passwordreset') === 'true';
  const emailConfirmed = params.get('emailconfirmed') === 'true';
  const screen = passwordReset ? 'setPassword' : parsePageState(params.get('page_state'), 'signIn');

  const onValueChange = useCallback(
    (next: AuthScreen) => {
      const pageState = pageStateOf(next);
      if (pageState === null) return;
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          updated.set('page_state', String(pageState));
          updated.delete('passwordreset');
          updated.delete('emailconfirmed');
          return updated;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  return (
    <AuthDialog mode="page" value={screen} onValueChange={onValueChange} passwordReset={passwordReset} emailConfirmed={emailConfirmed} />
  );
}
