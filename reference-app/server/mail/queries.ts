import type { Db } from '../db/types';

// The SQL of the dev mailbox: `mail_messages`, written by the mailbox mailer, read by /dev/mailbox.

const LIMIT = 200;

export async function insertMailMessage(
  db: Db,
  values: { to_address: string; subject: string; text_body: string; html_body: string; links: string },
) {
  await db.insertInto('mail_messages').values(values).execute();
}

/** The newest LIMIT messages, to one address when `to` is given. */
export function selectMailMessages(db: Db, to: string | undefined) {
  let q = db.selectFrom('mail_messages').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(LIMIT);
  if (to) q = q.where('to_address', '=', to.trim().toLowerCase());
  return q.execute();
}
