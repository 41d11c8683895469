import { ApiHttpError } from '../api/errors';
import type { ServerConfig } from '../config';
import type { Db } from '../db/types';
import type { Mailer } from '../mail/mailer';
import { supportAckMail, supportTeamMail } from '../mail/templates';
import type { DecodedAttachment } from './attachments';
import { selectUserEmail } from './queries';

// Support tickets: stored with their attachments, then mailed to the team and acknowledged to
// the user.

export interface TicketInput {
  topic: string;
  subject: string;
  message: string;
}

export async function openTicket(
  deps: { db: Db; config: ServerConfig; mailer: Mailer },
  userId: string,
  input: TicketInput,
  files: DecodedAttachment[],
): Promise<{ id: string }> {
  const { db, config, mailer } = deps;
  const user = await selectUserEmail(db, userId);
  if (!user) throw new ApiHttpError(404, 'No user for this token: the account was deleted');
  const ticket = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('support_tickets')
      .values({ user_id: userId, topic: input.topic, subject: input.subject, message: input.message })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (files.length) {
      await trx
        .insertInto('support_attachments')
        .values(
          files.map((f) => ({
            ticket_id: row.id,
            filename: f.filename,
            content_type: f.content_type,
            size_bytes: f.data.length,
            data: f.data,
          })),
        )
        .execute();
    }
    return row;
  });
  await mailer.send(
    supportTeamMail(config.brandName, config.supportEmail, user.email, {
      ...input,
      id: ticket.id,
      attachments: files.map((f) => `${f.filename} (${f.data.length} bytes)`),
    }),
  );
  await mailer.send(supportAckMail(config.brandName, user.email, ticket.id, input.subject));
  return { id: ticket.id };
}
