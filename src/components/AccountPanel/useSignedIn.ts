import { useSession } from '../../auth/AuthProvider';

export type SignInState = 'checking' | 'signed-out' | 'signed-in';

/** Whether the panel may load: the session is read and the visitor is signed in. */
export function useSignInState(): SignInState {
  return useSession((state) => (!state.initialized ? 'checking' : state.isLoggedIn ? 'signed-in' : 'signed-out'));
}
