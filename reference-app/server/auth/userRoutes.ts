import { Hono } from 'hono';
import { mergeMetadata } from './adminUsers';
import type { AuthDeps } from './deps';
import { prepareEmailToken } from './emailTokens';
import { AuthHttpError, notFound, unprocessable, validationFailed } from './errors';
import { hashPassword, verifyPassword } from './passwords';
import { DEFAULT_REDIRECT_PATHS, safeRedirect } from './redirects';
import { updateUserRow } from './queries';
import { limitMailTo, optionalCaller, rateLimit, readBody, requireCaller, stringField } from './request';
import { verifyReauthenticationNonce } from './reauthenticate';
import { deleteSessions } from './sessions';
import { assertMetadataFits, checkNewPassword, readEmail, readMetadata } from './signup';
import { findUserByEmail, findUserById, loadUserBundle, userResponse } from './userRecords';

// GET /user, PUT /user (password, metadata, email), POST /logout, and the identity-linking
// routes (GoTrue's HTTP contract).

/**
 * GoTrue's answer to linkIdentity/unlinkIdentity with manual linking off (its default, and the
 * only mode here): an OAuth sign-in links a provider to the account with the same verified
 * address instead (oauth.ts). Checked after the caller, as GoTrue's middleware order does.
 */
const manualLinkingDisabled = () => notFound('manual_linking_disabled', 'Manual linking is disabled');

const LOGOUT_SCOPES = ['global', 'local', 'others'] as const;

export function userRoutes(deps: AuthDeps) {
  const app = new Hono();

  app.get('/user', async (c) => {
    const { user } = await requireCaller(c, deps);
    return c.json(userResponse(await loadUserBundle(deps.db, user)));
  });

  app.put('/user', async (c) => {
    const caller = await requireCaller(c, deps);
    const body = await readBody(c);
    const data = body.data === undefined ? undefined : readMetadata(body);
    const password = stringField(body, 'password');
    const currentPassword = stringField(body, 'current_password');
    const nonce = stringField(body, 'nonce');
    const emailRaw = stringField(body, 'email');
    const newEmail = emailRaw !== undefined ? readEmail(body, 'email must not be empty') : undefined;
    if (password !== undefined) checkNewPassword(deps, password, 'Password update requires a valid password');

    const bundle = await loadUserBundle(deps.db, caller.user);
    const hasVerifiedFactor = bundle.factors.some((f) => f.status === 'verified');
    if ((password !== undefined || (newEmail && newEmail !== caller.user.email)) && hasVerifiedFactor && caller.session.aal !== 'aal2') {
      throw new AuthHttpError(401, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.');
    }
    let passwordHash: string | undefined;
    if (password !== undefined) {
      if (currentPassword !== undefined && !(await verifyPassword(caller.user.encrypted_password, currentPassword))) {
        throw unprocessable('current_password_mismatch', 'Current password is incorrect');
      }
      if (await verifyPassword(caller.user.encrypted_password, password)) {
        throw unprocessable('same_password', 'New password should be different from the old password.');
      }
      passwordHash = await hashPassword(password);
    }
    const redirectTo = safeRedirect(deps.config, c.req.query('redirect_to'), DEFAULT_REDIRECT_PATHS.email_change);
    if (newEmail && newEmail !== caller.user.email) {
      await rateLimit(c, deps, 'emailSent');
      await limitMailTo(c, deps, 'email_change', newEmail);
    }

    // A nonce, when sent, must be the code GET /reauthenticate mailed (used up even if the update then fails).
    if (nonce) await verifyReauthenticationNonce(deps.db, caller.user.id, nonce);

    const { user, mail } = await deps.db.transaction().execute(async (trx) => {
      const current = (await findUserById(trx, caller.user.id))!;
      const now = new Date();
      const patch: Record<string, unknown> = {};
      if (data) {
        const merged = mergeMetadata(current.raw_user_meta_data, data);
        assertMetadataFits(merged);
        patch.raw_user_meta_data = JSON.stringify(merged);
      }
      if (passwordHash) patch.encrypted_password = passwordHash;
      if (Object.keys(patch).length) {
        await updateUserRow(trx, current.id, { ...patch, updated_at: now });
      }
      // A new password ends every other session of the user (GoTrue: LogoutAllExceptMe).
      if (passwordHash) await deleteSessions(trx, current.id, 'others', caller.session.id);
      let pending;
      if (newEmail && newEmail !== current.email) {
        if (await findUserByEmail(trx, newEmail)) {
          throw unprocessable('email_exists', 'A user with this email address has already been registered');
        }
        pending = await prepareEmailToken(trx, deps, { user: current, type: 'email_change', to: newEmail, redirectTo });
      }
      return { user: (await findUserById(trx, current.id))!, mail: pending };
    });
    await mail?.send();
    return c.json(userResponse(await loadUserBundle(deps.db, user)));
  });

  app.get('/user/identities/authorize', async (c) => {
    await requireCaller(c, deps);
    throw manualLinkingDisabled();
  });

  app.delete('/user/identities/:id', async (c) => {
    await requireCaller(c, deps);
    throw manualLinkingDisabled();
  });

  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global';
    if (!(LOGOUT_SCOPES as readonly string[]).includes(scope)) {
      throw validationFailed(`Unsupported logout scope ${JSON.stringify(scope)}`);
    }
    const caller = await optionalCaller(c, deps);
    if (caller) await deleteSessions(deps.db, caller.user.id, scope as (typeof LOGOUT_SCOPES)[number], caller.session.id);
    return c.body(null, 204);
  });

  return app;
}
