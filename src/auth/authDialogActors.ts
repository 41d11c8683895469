import { fromPromise } from 'xstate';
import type { Session } from '@supabase/auth-js';
import type { LimeAuthClient } from './client';
import { LimeAuthError, toLimeAuthError } from './errors';
import type { AssuranceCheck, SignUpResult } from './authDialogMachine';
import { noteOAuthProvider } from './oauthReturn';
import { scopesFor, type SocialProvider } from './socialProviders';
import type { AuthRedirectUrls } from './types';

export interface AuthDialogActorOptions {
  /** Where e-mail links and OAuth send the browser back to. */
  redirectUrls: AuthRedirectUrls;
  /**
   * Tells the platform about a sign-in (product-rules §7 POST profile/sign_in_sign_up) and reports its
   * own failure (product-rules §8 452/453). Called with the new session's token, or null to read it.
   * @default nothing to tell
   */
  registerSignIn?: (accessToken: string | null) => Promise<void>;
}

/** auth-js returns `{ data, error }`; the machine wants a value or a thrown `LimeAuthError`. */
function orThrow<R extends { data: unknown; error: unknown }>(result: R): Extract<R, { error: null }>['data'] {
  if (result.error) throw toLimeAuthError(result.error);
  return result.data as Extract<R, { error: null }>['data'];
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toLimeAuthError(error);
  }
}

/**
 * The auth dialog's network actors on a real auth client (product-rules §7 "Auth provider calls"). Pass
 * them to `authDialogMachine.provide({ actors })`.
 */
export function createAuthDialogActors(client: LimeAuthClient, options: AuthDialogActorOptions) {
  const { redirectUrls } = options;
  return {
    signIn: fromPromise<Session, { email: string; password: string }>(({ input }) =>
      guarded(async () => {
        const data = orThrow(await client.signInWithPassword({ email: input.email, password: input.password }));
        if (!data.session) throw new LimeAuthError('Sign-in answered without a session.', { kind: 'unexpected' });
        return data.session;
      }),
    ),
    signUp: fromPromise<SignUpResult, { email: string; password: string }>(({ input }) =>
      guarded(async () => {
        const data = orThrow(
          await client.signUp({
            email: input.email,
            password: input.password,
            // product-rules §4: the confirmation link carries emailconfirmed=true.
            options: { emailRedirectTo: redirectUrls.emailConfirmed },
          }),
        );
        return { user: data.user, session: data.session };
      }),
    ),
    resendVerification: fromPromise<void, { email: string }>(({ input }) =>
      guarded(async () => {
        orThrow(await client.resend({ type: 'signup', email: input.email, options: { emailRedirectTo: redirectUrls.emailConfirmed } }));
      }),
    ),
    requestRecovery: fromPromise<void, { email: string }>(({ input }) =>
      guarded(async () => {
        // product-rules §2: after password reset to /signinup?passwordreset=true.
        orThrow(await client.resetPasswordForEmail(input.email, { redirectTo: redirectUrls.passwordReset }));
      }),
    ),
    getRecoverySession: fromPromise<Session | null, void>(() =>
      guarded(async () => {
        // getSession waits until the client has read the session out of the recovery link.
        const data = orThrow(await client.getSession());
        const session = data.session;
        return session && typeof session.expires_at === 'number' && session.expires_at * 1000 > Date.now() ? session : null;
      }),
    ),
    updatePassword: fromPromise<void, { password: string }>(({ input }) =>
      guarded(async () => {
        orThrow(await client.updateUser({ password: input.password }));
      }),
    ),
    signOut: fromPromise<void, void>(() =>
      guarded(async () => {
        const { error } = await client.signOut();
        if (error) throw toLimeAuthError(error);
      }),
    ),
    // In a browser auth-js leaves the page for the provider; the URL it went to is the output.
    socialSignIn: fromPromise<string | null, { provider: SocialProvider }>(({ input }) =>
      guarded(async () => {
        // An error comes back in the URL without the provider's name: note it for the message.
        noteOAuthProvider(input.provider);
        const data = orThrow(
          await client.signInWithOAuth({
            provider: input.provider,
            options: { redirectTo: redirectUrls.social, scopes: scopesFor(input.provider) },
          }),
        );
        return data.url ?? null;
      }),
    ),
    // aal1 with a verified TOTP factor: the sign-in needs its code. Factors other than TOTP
    // (phone) cannot be enrolled on the platform, so only TOTP is challenged.
    checkAssurance: fromPromise<AssuranceCheck, void>(() =>
      guarded(async () => {
        const level = orThrow(await client.mfa.getAuthenticatorAssuranceLevel());
        if (level.nextLevel !== 'aal2' || level.currentLevel === 'aal2') return { factorId: null };
        const factors = orThrow(await client.mfa.listFactors());
        return { factorId: factors.totp.find((factor) => factor.status === 'verified')?.id ?? null };
      }),
    ),
    verifyMfa: fromPromise<Session, { factorId: string; code: string }>(({ input }) =>
      guarded(async () => {
        const challenge = orThrow(await client.mfa.challenge({ factorId: input.factorId }));
        orThrow(await client.mfa.verify({ factorId: input.factorId, challengeId: challenge.id, code: input.code }));
        // The verified session replaces the aal1 one in the client; read it back and make sure
        // it is what the step promises before the sign-in counts.
        const level = orThrow(await client.mfa.getAuthenticatorAssuranceLevel());
        const { session } = orThrow(await client.getSession());
        if (level.currentLevel !== 'aal2' || !session) {
          throw new LimeAuthError('The code was accepted but the session is not aal2.', { kind: 'unexpected' });
        }
        return session;
      }),
    ),
    // The confirmation e-mail's 6-digit code (type 'email' accepts a sign-up's token, as GoTrue does).
    verifyEmailCode: fromPromise<Session, { email: string; code: string }>(({ input }) =>
      guarded(async () => {
        const data = orThrow(await client.verifyOtp({ email: input.email, token: input.code, type: 'email' }));
        if (!data.session) throw new LimeAuthError('The code was accepted without a session.', { kind: 'unexpected' });
        return data.session;
      }),
    ),
    registerSignIn: fromPromise<void, { accessToken: string | null }>(async ({ input }) => {
      await options.registerSignIn?.(input.accessToken);
    }),
  };
}

/** The calls the auth dialog machine makes (sign in, sign up, recovery, MFA), as `createAuthDialogActors` builds them. */
export type AuthDialogActors = ReturnType<typeof createAuthDialogActors>;
