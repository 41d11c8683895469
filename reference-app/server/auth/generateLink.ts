import { Hono, type Context } from 'hono';
import type { Db } from '../db/types';
import { adminEmail, assertEmailFree, DUPLICATE_EMAIL, insertAdminUser } from './adminUsers';
import type { AuthDeps } from './deps';
import { issueEmailToken, pendingMail, type EmailTokenInput } from './emailTokens';
import { notFound, unprocessable, validationFailed } from './errors';
import { inviteMail } from './mails';
import { hashPassword } from './passwords';
import { DEFAULT_REDIRECT_PATHS, safeRedirect } from './redirects';
import { updateUserRow } from './queries';
import { readBody, stringField, type Body } from './request';
import { checkNewPassword, readMetadata } from './signup';
import { findUserByEmail, findUserById, loadUserBundle, userResponse, type UserRow } from './userRecords';

// POST /admin/generate_link (the link and code a mail would carry, returned instead of sent) and
// POST /invite (a new user and the invitation mail), both for the service-role key.

const LINK_TYPES = ['signup', 'invite', 'magiclink', 'recovery', 'email_change_current', 'email_change_new'] as const;
type LinkType = (typeof LINK_TYPES)[number];

interface LinkPlan {
  user: UserRow;
  token: Omit<EmailTokenInput, 'user' | 'redirectTo'>;
  /** GoTrue's verification_type: the `type` to give POST /verify with the hashed token. */
  verificationType: string;
}

const redirectOf = (c: Context, deps: AuthDeps, body: Body, type: string) =>
  safeRedirect(
    deps.config,
    c.req.query('redirect_to') ?? stringField(body, 'redirect_to') ?? stringField(body, 'redirectTo'),
    type === 'recovery'
      ? DEFAULT_REDIRECT_PATHS.recovery
      : type === 'magiclink'
        ? DEFAULT_REDIRECT_PATHS.magiclink
        : DEFAULT_REDIRECT_PATHS.signup,
  );

/**
 * An unconfirmed user for a signup or invite link: a new one, or the existing unconfirmed one.
 * An invitation stamps invited_at, as GoTrue does (again when the user is invited again).
 */
async function unconfirmedUser(
  trx: Db,
  deps: AuthDeps,
  email: string,
  passwordHash: string | null,
  metadata: Record<string, unknown>,
  invited = false,
) {
  const existing = await findUserByEmail(trx, email);
  if (existing?.email_confirmed_at) throw unprocessable('email_exists', DUPLICATE_EMAIL);
  const user = existing ?? (await insertAdminUser(trx, deps, { email, passwordHash, metadata, confirmed: false }));
  const changes = {
    ...(existing && passwordHash ? { encrypted_password: passwordHash } : {}),
    ...(invited ? { invited_at: new Date() } : {}),
  };
  return Object.keys(changes).length ? updateUserRow(trx, user.id, { ...changes, updated_at: new Date() }) : user;
}

async function planLink(
  trx: Db,
  deps: AuthDeps,
  type: LinkType,
  email: string,
  body: Body,
  passwordHash: string | null,
): Promise<LinkPlan> {
  const metadata = readMetadata(body);
  if (type === 'signup' || type === 'invite') {
    const user = await unconfirmedUser(trx, deps, email, type === 'signup' ? passwordHash : null, metadata, type === 'invite');
    return { user, token: { type: 'signup', to: email, linkType: type === 'invite' ? 'invite' : undefined }, verificationType: type };
  }
  const user = await findUserByEmail(trx, email);
  if (type === 'magiclink') {
    // GoTrue turns a magic link for an unknown address into a sign-up link.
    if (!user) {
      const created = await unconfirmedUser(trx, deps, email, null, metadata);
      return { user: created, token: { type: 'signup', to: email }, verificationType: 'signup' };
    }
    return { user, token: { type: 'magiclink', to: email }, verificationType: 'magiclink' };
  }
  if (!user) throw notFound('user_not_found', 'User with this email not found');
  if (type === 'recovery') return { user, token: { type: 'recovery', to: email }, verificationType: 'recovery' };
  // This server confirms an email change at the new address only (GoTrue with secure email change off).
  if (type === 'email_change_current') throw validationFailed('Enable secure email change to generate link for current email');
  const rawNew = stringField(body, 'new_email');
  if (!rawNew) throw validationFailed('The new email address provided is invalid');
  const newEmail = adminEmail(rawNew);
  await assertEmailFree(trx, newEmail, user.id);
  return { user, token: { type: 'email_change', to: newEmail }, verificationType: 'email_change' };
}

export function generateLinkRoutes(deps: AuthDeps) {
  const app = new Hono();

  app.post('/admin/generate_link', async (c) => {
    const body = await readBody(c);
    const type = stringField(body, 'type') ?? '';
    if (!(LINK_TYPES as readonly string[]).includes(type)) throw validationFailed(`Invalid email action link type requested: ${type}`);
    const email = adminEmail(stringField(body, 'email') ?? '');
    const password =
      type === 'signup' ? checkNewPassword(deps, stringField(body, 'password'), 'Signup requires a valid password') : undefined;
    const passwordHash = password ? await hashPassword(password) : null;
    const redirectTo = redirectOf(c, deps, body, type);
    const { user, link, verificationType } = await deps.db.transaction().execute(async (trx) => {
      const plan = await planLink(trx, deps, type as LinkType, email, body, passwordHash);
      const issued = await issueEmailToken(trx, deps, { ...plan.token, user: plan.user, redirectTo });
      return { user: plan.user, link: issued, verificationType: plan.verificationType };
    });
    const fresh = await loadUserBundle(deps.db, (await findUserById(deps.db, user.id))!);
    return c.json({
      ...userResponse(fresh),
      action_link: link.url,
      email_otp: link.otp,
      hashed_token: link.token,
      verification_type: verificationType,
      redirect_to: redirectTo,
    });
  });

  app.post('/invite', async (c) => {
    const body = await readBody(c);
    const email = adminEmail(stringField(body, 'email') ?? '');
    const redirectTo = redirectOf(c, deps, body, 'invite');
    const { user, mail } = await deps.db.transaction().execute(async (trx) => {
      const invited = await unconfirmedUser(trx, deps, email, null, readMetadata(body), true);
      const issued = await issueEmailToken(trx, deps, { user: invited, type: 'signup', linkType: 'invite', to: email, redirectTo });
      return { user: invited, mail: pendingMail(deps, inviteMail(deps.config.brandName, email, issued.url, issued.otp), 'invite') };
    });
    await mail.send();
    return c.json(userResponse(await loadUserBundle(deps.db, (await findUserById(deps.db, user.id))!)));
  });

  return app;
}
