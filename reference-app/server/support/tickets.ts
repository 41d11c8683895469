import { createHash } from 'node:crypto';
import { notFound } from '../errors';
import type { CoreConfig } from '../config/core';
import type { Db } from '../db/types';
import { supportAckMail, supportTeamMail } from '../mail/templates';
import type { MediaStore, StoredMedia } from '../media/store';
import type { DecodedAttachment } from './attachments';
import type { MailOutbox } from './mailOutbox';
import { insertAttachments, insertTicket, lockRequestHash, selectRecentTicket, selectUserEmail } from './queries';

// Support tickets. Attachments go to the media store (files, not database rows); the ticket,
// its attachment rows and both mails are saved in one transaction, and the mails leave through
// the outbox after the response, so a failing mail server neither fails the request nor loses
// the mail. The same request sent again within DUPLICATE_WINDOW_MS (a client retrying after a
// timeout) returns the first ticket instead of opening a second.

export const DUPLICATE_WINDOW_MS = 10 * 60_000;

export interface TicketInput {
  topic: string;
  subject: string;
  message: string;
}

export interface TicketDeps {
  db: Db;
  config: CoreConfig;
  media: MediaStore;
  outbox: MailOutbox;
}

function requestHash(userId: string, input: TicketInput, files: DecodedAttachment[]): string {
  const hash = createHash('sha256');
  for (const part of [userId, input.topic, input.subject, input.message]) hash.update(part).update('\0');
  for (const f of files) hash.update(f.filename).update('\0').update(f.content_type).update('\0').update(f.data).update('\0');
  return hash.digest('base64url');
}

function recentTicket(db: Db, userId: string, hash: string) {
  return selectRecentTicket(db, userId, hash, new Date(Date.now() - DUPLICATE_WINDOW_MS));
}

export async function openTicket(
  deps: TicketDeps,
  userId: string,
  input: TicketInput,
  files: DecodedAttachment[],
): Promise<{ id: string }> {
  const { db, config, media, outbox } = deps;
  const user = await selectUserEmail(db, userId);
  if (!user) throw notFound('No user for this token: the account was deleted');
  const hash = requestHash(userId, input, files);
  const earlier = await recentTicket(db, userId, hash);
  if (earlier) return { id: earlier.id };

  const stored: StoredMedia[] = await Promise.all(files.map((f) => media.put(f.data, f.content_type)));
  const forget = () => Promise.all(stored.map((s) => media.delete(s.key)));
  try {
    const saved = await db.transaction().execute(async (trx) => {
      // Two identical requests at once: the second waits here, then finds the first.
      await lockRequestHash(trx, hash);
      const concurrent = await recentTicket(trx, userId, hash);
      if (concurrent) return { id: concurrent.id, duplicate: true };
      const ticket = await insertTicket(trx, {
        user_id: userId,
        topic: input.topic,
        subject: input.subject,
        message: input.message,
        request_hash: hash,
      });
      await insertAttachments(
        trx,
        files.map((f, i) => ({
          ticket_id: ticket.id,
          filename: f.filename,
          content_type: f.content_type,
          size_bytes: f.data.length,
          media_key: stored[i]!.key,
        })),
      );
      const attachments = files.map((f, i) => `${f.filename} (${f.data.length} bytes): ${stored[i]!.url}`);
      await outbox.enqueue(
        trx,
        supportTeamMail(config.brandName, config.supportEmail, user.email, { ...input, id: ticket.id, attachments }),
      );
      await outbox.enqueue(trx, supportAckMail(config.brandName, user.email, ticket.id, input.subject));
      return { id: ticket.id, duplicate: false };
    });
    if (saved.duplicate) await forget();
    else outbox.kick();
    return { id: saved.id };
  } catch (error) {
    await forget();
    throw error;
  }
}
