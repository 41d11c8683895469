import type { Selectable } from 'kysely';
import { randomDigits, randomToken, safeEqual, sha256 } from '../crypto/tokens';
import type { OneTimeTokensTable, Db } from '../db/types';
import { MailError, type OutgoingMail } from '../mail/mailer';
import { confirmSignupMail, emailChangeMail, magicLinkMail, recoveryMail } from '../mail/templates';
import type { AuthDeps } from './deps';
import { AuthHttpError } from './errors';
import {
  countFailedCode,
  markOneTimeTokenUsed,
  replaceOneTimeToken,
  selectLiveOneTimeTokenByHash,
  selectLiveOneTimeTokensOfUser,
  updateUserRow,
} from './queries';
import type { UserRow } from './userRecords';

// One-time email tokens: the link token (hashed at rest) and a 6-digit code carried by every
// auth email, each valid once. A new token of a kind replaces the user's previous one. The link
// token has 256 random bits; the code has a million values, so wrong codes count against the
// token and MAX_CODE_ATTEMPTS of them void it (docs/security.md).

export type EmailTokenType = 'signup' | 'recovery' | 'magiclink' | 'email_change';
export type EmailTokenRow = Selectable<OneTimeTokensTable>;

const SENT_AT: Record<EmailTokenType, 'confirmation_sent_at' | 'recovery_sent_at' | 'email_change_sent_at'> = {
  signup: 'confirmation_sent_at',
  magiclink: 'confirmation_sent_at',
  recovery: 'recovery_sent_at',
  email_change: 'email_change_sent_at',
};

export interface PendingMail {
  send(): Promise<void>;
}

export interface EmailTokenInput {
  user: UserRow;
  type: EmailTokenType;
  to: string;
  redirectTo: string;
  flowStateId?: string | null;
  /** The `type` the link carries when it differs from the token's kind (an invite is a signup token). */
  linkType?: 'invite';
}

export interface IssuedEmailToken {
  /** The link token (also the `token_hash` POST /verify accepts). */
  token: string;
  /** The 6-digit code of the same mail. */
  otp: string;
  /** The /verify link. */
  url: string;
}

/** Stores a new token of the kind (replacing the user's previous one) inside the caller's transaction. */
export async function issueEmailToken(trx: Db, deps: AuthDeps, input: EmailTokenInput): Promise<IssuedEmailToken> {
  const token = randomToken(32);
  const otp = randomDigits(6);
  const ttl =
    input.type === 'recovery'
      ? deps.config.recoveryTtlSeconds
      : input.type === 'magiclink'
        ? deps.config.magicLinkTtlSeconds
        : deps.config.confirmationTtlSeconds;
  await replaceOneTimeToken(trx, {
    user_id: input.user.id,
    token_type: input.type,
    token_hash: sha256(token),
    otp_hash: sha256(`${input.user.id}:${otp}`),
    relates_to: input.to,
    flow_state_id: input.flowStateId ?? null,
    expires_at: new Date(Date.now() + ttl * 1000),
  });
  await updateUserRow(trx, input.user.id, {
    [SENT_AT[input.type]]: new Date(),
    ...(input.type === 'email_change' ? { email_change: input.to } : {}),
  });

  const link = new URL(`${deps.config.publicUrl}/auth/v1/verify`);
  link.searchParams.set('token', token);
  link.searchParams.set('type', input.linkType ?? input.type);
  link.searchParams.set('redirect_to', input.redirectTo);
  return { token, otp, url: link.toString() };
}

/**
 * Creates the token inside the caller's transaction and returns the mail to send once the
 * transaction has committed (a rolled-back token must never reach an inbox).
 */
export async function prepareEmailToken(trx: Db, deps: AuthDeps, input: EmailTokenInput): Promise<PendingMail> {
  const { url, otp } = await issueEmailToken(trx, deps, input);
  const brand = deps.config.brandName;
  const mail =
    input.type === 'signup'
      ? confirmSignupMail(brand, input.to, url, otp)
      : input.type === 'recovery'
        ? recoveryMail(brand, input.to, url, otp)
        : input.type === 'magiclink'
          ? magicLinkMail(brand, input.to, url, otp)
          : emailChangeMail(brand, input.to, url, otp);
  return pendingMail(deps, mail, input.type);
}

/** A mail sent after the commit, failing as GoTrue does when the mailer fails. */
export function pendingMail(deps: AuthDeps, mail: OutgoingMail, what: string): PendingMail {
  return {
    async send() {
      try {
        await deps.mailer.send(mail);
      } catch (error) {
        if (error instanceof MailError) {
          throw new AuthHttpError(500, 'unexpected_failure', `Error sending ${what} email`, {}, { cause: error });
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

/** Wrong 6-digit codes after which a token is void; the link in the same mail goes with it. */
export const MAX_CODE_ATTEMPTS = 5;

/**
 * Consumes a token of one of the kinds `type` accepts, by link token or by (user, code).
 * Returns undefined when it is unknown, used, expired or voided by wrong codes. A wrong code
 * counts against every live token of those kinds of that user (the rows are locked, so
 * concurrent guesses are counted one after another, never past the limit).
 */
export async function consumeEmailToken(
  trx: Db,
  type: string,
  lookup: { token: string } | { userId: string; otp: string },
): Promise<EmailTokenRow | undefined> {
  return consumeOneTimeToken(trx, ACCEPTS[type] ?? [], lookup);
}

/** consumeEmailToken by token kinds (the reauthentication code is a kind /verify never accepts). */
export async function consumeOneTimeToken(
  trx: Db,
  kinds: string[],
  lookup: { token: string } | { userId: string; otp: string },
): Promise<EmailTokenRow | undefined> {
  if (!kinds.length) return undefined;
  let row: EmailTokenRow | undefined;
  if ('token' in lookup) {
    row = await selectLiveOneTimeTokenByHash(trx, kinds, MAX_CODE_ATTEMPTS, sha256(lookup.token));
  } else {
    const candidates = await selectLiveOneTimeTokensOfUser(trx, kinds, MAX_CODE_ATTEMPTS, lookup.userId);
    const otpHash = sha256(`${lookup.userId}:${lookup.otp}`);
    row = candidates.find((candidate) => safeEqual(candidate.otp_hash, otpHash));
    if (!row && candidates.length)
      await countFailedCode(
        trx,
        candidates.map((candidate) => candidate.id),
      );
  }
  if (!row) return undefined;
  await markOneTimeTokenUsed(trx, row.id);
  return row;
}
