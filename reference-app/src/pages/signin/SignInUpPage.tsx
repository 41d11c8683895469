import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { AuthDialog } from '@limelight/widgets/auth-dialog';
import { parsePageState, type PageState } from '@limelight/widgets/auth';

/**
 * /signinup and /SignInUp (spec §2): the sign-in page in page mode. Reads `page_state` (0-6,
 * default 1), `passwordreset=true` (back from a recovery link: state 5 once the session is
 * checked) and `emailconfirmed=true` (back from the sign-up confirmation link). The dialog's
 * state is written back to `page_state`; the one-shot link flags are dropped once it moves on.
 * Redirects after authentication (spec §2) happen inside the dialog through the platform's
 * navigate(): the sign-in page to /account, sign-up and its confirmation to /account/dashboard.
 */
export default function SignInUpPage() {
  const [params, setParams] = useSearchParams();
  const passwordReset = params.get('passwordreset') === 'true';
  const emailConfirmed = params.get('emailconfirmed') === 'true';
  const pageState = passwordReset ? 5 : parsePageState(params.get('page_state'), 1);

  const onValueChange = useCallback(
    (next: PageState) => {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          updated.set('page_state', String(next));
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
    <AuthDialog mode="page" value={pageState} onValueChange={onValueChange} passwordReset={passwordReset} emailConfirmed={emailConfirmed} />
  );
}
