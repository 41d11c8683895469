import { jsonBytes, MAX_USER_METADATA_BYTES } from '../limits';
import { Hono } from 'hono';
import { isUniqueViolation } from '../db/errors';
import type { AuthDeps } from './deps';
import { prepareEmailToken, type PendingMail } from './emailTokens';
import { badRequest, unprocessable, validationFailed } from './errors';
import { hashPassword, weakPasswordReasons } from './passwords';
import { createFlowState, readPkce } from './pkce';
import { DEFAULT_REDIRECT_PATHS, safeRedirect } from './redirects';
import { selectUserByPendingEmail, updateUserRow } from './queries';
import { clientInfo, limitMailTo, objectField, rateLimit, readBody, stringField } from './request';
import { signIn, type SessionResponse } from './sessions';
import {
  clientMetadata,
  findUserByEmail,
  findUserById,
  insertUser,
  isValidEmail,
  loadUserBundle,
  normalizeEmail,
  obfuscatedUserResponse,
  userResponse,
  type UserResponse,
} from './userRecords';

// POST /signup, /resend and /otp (GoTrue's HTTP contract).

const MAX_PASSWORD_LENGTH = 1024;

export function readEmail(body: Record<string, unknown>, missingMessage: string): string {
  const raw = stringField(body, 'email');
  if (!raw?.trim()) throw validationFailed(missingMessage);
  const email = normalizeEmail(raw);
  if (!isValidEmail(email)) throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  return email;
}

export function checkNewPassword(deps: AuthDeps, password: string | undefined, missingMessage: string): string {
  if (!password) throw validationFailed(missingMessage);
  if (password.length > MAX_PASSWORD_LENGTH) throw validationFailed(`Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`);
  const reasons = weakPasswordReasons(password, deps.config.passwordMinLength);
  if (reasons.length) {
    const message = `Password should be at least ${deps.config.passwordMinLength} characters.`;
    throw unprocessable('weak_password', message, { weak_password: { message, reasons } });
  }
  return password;
}

/** user_metadata travels in every access token: refuse what would make tokens too large. */
export function assertMetadataFits(metadata: Record<string, unknown>): void {
  if (jsonBytes(metadata) > MAX_USER_METADATA_BYTES) {
    throw validationFailed(`data must be at most ${MAX_USER_METADATA_BYTES} bytes of JSON, together with the metadata already stored`);
  }
}

export function readMetadata(body: Record<string, unknown>): Record<string, unknown> {
  const data = objectField(body, 'data') ?? {};
  assertMetadataFits(data);
  return clientMetadata(data);
}

export function signupRoutes(deps: AuthDeps) {
  const app = new Hono();
  const { config } = deps;

  app.post('/signup', async (c) => {
    await rateLimit(c, deps, 'signUp');
    if (config.disableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
    const body = await readBody(c);
    if (body.phone !== undefined && body.email === undefined) throw unprocessable('phone_provider_disabled', 'Phone signups are disabled');
    const email = readEmail(body, 'To signup, please provide your email');
    const password = checkNewPassword(deps, stringField(body, 'password'), 'Signup requires a valid password');
    const metadata = readMetadata(body);
    const pkce = readPkce(body);
    const redirectTo = safeRedirect(config, c.req.query('redirect_to'), DEFAULT_REDIRECT_PATHS.signup);
    // Counted whether or not a mail goes out (a confirmed address gets none): the answer must
    // not tell a registered address from a new one.
    if (!config.mailerAutoconfirm) {
      await rateLimit(c, deps, 'emailSent');
      await limitMailTo(c, deps, 'signup', email);
    }
    const passwordHash = await hashPassword(password);

    const attempt = () =>
      deps.db.transaction().execute(async (trx): Promise<{ result: UserResponse | SessionResponse; mail?: PendingMail }> => {
        const existing = await findUserByEmail(trx, email);
        if (existing?.email_confirmed_at) {
          if (config.mailerAutoconfirm) throw unprocessable('user_already_exists', 'User already registered');
          return { result: obfuscatedUserResponse(email, metadata) };
        }
        if (existing) {
          // Registered but never confirmed: take the new password and send the link again.
          await updateUserRow(trx, existing.id, {
            encrypted_password: passwordHash,
            raw_user_meta_data: JSON.stringify({ ...existing.raw_user_meta_data, ...metadata }),
            updated_at: new Date(),
          });
          const flowStateId = pkce ? await createFlowState(trx, pkce, { userId: existing.id, authMethod: 'email/signup' }) : null;
          const mail = await prepareEmailToken(trx, deps, { user: existing, type: 'signup', to: email, redirectTo, flowStateId });
          return { result: userResponse(await loadUserBundle(trx, (await findUserById(trx, existing.id))!)), mail };
        }
        const user = await insertUser(trx, { email, passwordHash, metadata, confirmed: config.mailerAutoconfirm });
        await deps.onUserCreated(trx, user.id);
        if (config.mailerAutoconfirm) return { result: await signIn(trx, deps, user, 'password', clientInfo(c, deps)) };
        const flowStateId = pkce ? await createFlowState(trx, pkce, { userId: user.id, authMethod: 'email/signup' }) : null;
        const mail = await prepareEmailToken(trx, deps, { user, type: 'signup', to: email, redirectTo, flowStateId });
        return { result: userResponse(await loadUserBundle(trx, (await findUserById(trx, user.id))!)), mail };
      });

    let outcome;
    try {
      outcome = await attempt();
    } catch (error) {
      // Two sign-ups for one address at once: the loser sees the winner's user on retry.
      if (!isUniqueViolation(error)) throw error;
      outcome = await attempt();
    }
    await outcome.mail?.send();
    return c.json(outcome.result);
  });

  app.post('/resend', async (c) => {
    await rateLimit(c, deps, 'emailSent');
    const body = await readBody(c);
    const type = stringField(body, 'type');
    if (type === 'sms' || type === 'phone_change') throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
    if (type !== 'signup' && type !== 'email_change') {
      throw validationFailed('Missing one of these types: signup, email_change, sms, phone_change');
    }
    const email = readEmail(body, 'Resend requires an email');
    await limitMailTo(c, deps, type, email);
    const redirectTo = safeRedirect(config, c.req.query('redirect_to'), DEFAULT_REDIRECT_PATHS[type]);
    const mail = await deps.db.transaction().execute(async (trx) => {
      if (type === 'signup') {
        const user = await findUserByEmail(trx, email);
        // Unknown and already confirmed addresses get the same empty answer (no enumeration).
        if (!user || user.email_confirmed_at) return undefined;
        return prepareEmailToken(trx, deps, { user, type: 'signup', to: user.email, redirectTo });
      }
      const user = await selectUserByPendingEmail(trx, email);
      if (!user) return undefined;
      return prepareEmailToken(trx, deps, { user, type: 'email_change', to: email, redirectTo });
    });
    await mail?.send();
    return c.json({});
  });

  app.post('/otp', async (c) => {
    await rateLimit(c, deps, 'emailSent');
    const body = await readBody(c);
    if (body.phone !== undefined && body.email === undefined) throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
    const email = readEmail(body, 'An email address is required');
    await limitMailTo(c, deps, 'magiclink', email);
    const createUser = body.create_user === undefined ? true : body.create_user === true;
    const metadata = readMetadata(body);
    const pkce = readPkce(body);
    const redirectTo = safeRedirect(config, c.req.query('redirect_to'), DEFAULT_REDIRECT_PATHS.magiclink);
    const mail = await deps.db.transaction().execute(async (trx) => {
      let user = await findUserByEmail(trx, email);
      if (!user) {
        if (!createUser || config.disableSignup) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
        user = await insertUser(trx, { email, passwordHash: null, metadata, confirmed: false });
        await deps.onUserCreated(trx, user.id);
      }
      const flowStateId = pkce ? await createFlowState(trx, pkce, { userId: user.id, authMethod: 'magiclink' }) : null;
      return prepareEmailToken(trx, deps, { user, type: 'magiclink', to: user.email, redirectTo, flowStateId });
    });
    await mail.send();
    return c.json({});
  });

  return app;
}
