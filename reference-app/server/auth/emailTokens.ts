import type { Selectable } from 'kysely';
import { randomDigits, randomToken, sha256 } from '../crypto/tokens';
import type { OneTimeTokensTable, Tx } from '../db/types';
import { MailError } from '../mail/mailer';
import { confirmSignupMail, emailChangeMail, magicLinkMail, recoveryMail } from '../mail/templates';
import type { AuthDeps } from './deps';
import { AuthHttpError, tooManyRequests } from './errors';
import type { UserRow } from './users';

// One-time email tokens: the link token (hashed at rest) and a 6-digit code carried by every
// auth email, each valid once. A new token of a kind replaces the user's previous one.

export type EmailTokenType = 'signup' | 'recovery' | 'magiclink' | 'email_change';
export type EmailTokenRow = Selectable<OneTimeTokensTable>;

const SENT_AT: Record<EmailTokenType, 'confirmation_sent_at' | 'recovery_sent_at' | 'email_change_sent_at'> = {
  signup: 'confirmation_sent_at',
  magiclink: 'confirmation_sent_at',
  recovery: 'recovery_sent_at',
  email_change: 'email_change_sent_at',
};

/** GoTrue's per-address frequency check (EMAIL_MIN_INTERVAL; off by default). */
export function assertEmailFrequency(deps: AuthDeps, user: UserRow, type: EmailTokenType): void {
  const interval = deps.config.emailMinIntervalSeconds;
  const last = user[SENT_AT[type]];
  if (!interval || !last) return;
  const wait = Math.ceil((last.getTime() + interval * 1000 - Date.now()) / 1000);
  if (wait > 0) {
    throw tooManyRequests('over_email_send_rate_limit', `For security purposes, you can only request this after ${wait} seconds.`);
  }
}

export interface PendingMail {
  send(): Promise<void>;
}

/**
 * Creates the token inside the caller's transaction and returns the mail to send once the
 * transaction has committed (a rolled-back token must never reach an inbox).
 */
export async function prepareEmailToken(
  trx: Tx,
  deps: AuthDeps,
  input: { user: UserRow; type: EmailTokenType; to: string; redirectTo: string; flowStateId?: string | null },
): Promise<PendingMail> {
  const token = randomToken(32);
  const otp = randomDigits(6);
  const ttl = input.type === 'recovery' ? deps.config.recoveryTtlSeconds : deps.config.confirmationTtlSeconds;
  await trx.deleteFrom('one_time_tokens').where('user_id', '=', input.user.id).where('token_type', '=', input.type).execute();
  await trx
    .insertInto('one_time_tokens')
    .values({
      user_id: input.user.id,
      token_type: input.type,
      token_hash: sha256(token),
      otp_hash: sha256(`${input.user.id}:${otp}`),
      relates_to: input.to,
      flow_state_id: input.flowStateId ?? null,
      expires_at: new Date(Date.now() + ttl * 1000),
    })
    .execute();
  await trx
    .updateTable('users')
    .set({ [SENT_AT[input.type]]: new Date(), ...(input.type === 'email_change' ? { email_change: input.to } : {}) })
    .where('id', '=', input.user.id)
    .execute();

  const link = new URL(`${deps.config.publicUrl}/auth/v1/verify`);
  link.searchParams.set('token', token);
  link.searchParams.set('type', input.type);
  link.searchParams.set('redirect_to', input.redirectTo);
  const url = link.toString();
  const brand = deps.config.brandName;
  const mail =
    input.type === 'signup'
      ? confirmSignupMail(brand, input.to, url, otp)
      : input.type === 'recovery'
        ? recoveryMail(brand, input.to, url, otp)
        : input.type === 'magiclink'
          ? magicLinkMail(brand, input.to, url, otp)
          : emailChangeMail(brand, input.to, url, otp);
  return {
    async send() {
      try {
        await deps.mailer.send(mail);
      } catch (error) {
        if (error instanceof MailError) {
          throw new AuthHttpError(500, 'unexpected_failure', `Error sending ${input.type} email`, {}, { cause: error });
        }
        throw error;
      }
    },
  };
}

const ACCEPTS: Record<string, EmailTokenType[]> = {
  signup: ['signup'],
  invite: ['signup'],
  recovery: ['recovery'],
  magiclink: ['magiclink', 'signup'],
  email: ['signup', 'magiclink'],
  email_change: ['email_change'],
};

export const VERIFY_TYPES = Object.keys(ACCEPTS);

/**
 * Consumes a token of one of the kinds `type` accepts, by link token or by (user, code).
 * Returns undefined when it is unknown, used or expired.
 */
export async function consumeEmailToken(
  trx: Tx,
  type: string,
  lookup: { token: string } | { userId: string; otp: string },
): Promise<EmailTokenRow | undefined> {
  const kinds = ACCEPTS[type] ?? [];
  if (!kinds.length) return undefined;
  let query = trx.selectFrom('one_time_tokens').selectAll().where('token_type', 'in', kinds).where('used_at', 'is', null);
  query =
    'token' in lookup
      ? query.where('token_hash', '=', sha256(lookup.token))
      : query.where('user_id', '=', lookup.userId).where('otp_hash', '=', sha256(`${lookup.userId}:${lookup.otp}`));
  const row = await query.forUpdate().executeTakeFirst();
  if (!row || row.expires_at.getTime() < Date.now()) return undefined;
  await trx.updateTable('one_time_tokens').set({ used_at: new Date() }).where('id', '=', row.id).execute();
  return row;
}
