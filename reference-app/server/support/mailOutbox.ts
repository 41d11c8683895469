import { sql } from 'kysely';
import type { Db } from '../db/types';
import { log } from '../log';
import type { Mailer, OutgoingMail } from '../mail/mailer';

// Mail that must not be lost: written to mail_outbox in the transaction that saves what it
// reports (a support ticket), sent right after the response, and retried with backoff while
// the mail server fails. Rows are claimed with SKIP LOCKED and a lease, so several server
// processes sharing a database never send one message twice at once.

export const OUTBOX_INTERVAL_MS = 15_000;
export const OUTBOX_MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 3_600_000;
/** How long a claimed message is left alone by other senders. */
const LEASE_MS = 120_000;
const BATCH = 20;

/** Delay before attempt n+1 after n failed attempts: 30 s, 1 min, 2 min, … at most 1 h. */
export const retryDelayMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);

export class MailOutbox {
  #timer: ReturnType<typeof setInterval> | undefined;
  #flushing: Promise<number> | undefined;

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
  ) {}

  /** Queues a message; pass the transaction that stores what the message is about. */
  async enqueue(q: Db, mail: OutgoingMail): Promise<void> {
    await q
      .insertInto('mail_outbox')
      .values({ to_address: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html })
      .execute();
  }

  /** Sends what is due soon, without making the caller wait. */
  kick(): void {
    void this.flush().catch((error: unknown) => log.error({ err: error }, 'mail outbox: flush failed'));
  }

  /** Sends every due message once; returns how many were sent. Concurrent calls share one run. */
  flush(): Promise<number> {
    this.#flushing ??= this.#send().finally(() => (this.#flushing = undefined));
    return this.#flushing;
  }

  async #send(): Promise<number> {
    let sent = 0;
    for (;;) {
      const claimed = await sql<{
        id: string;
        to_address: string;
        subject: string;
        text_body: string;
        html_body: string;
        attempts: number;
      }>`
        update mail_outbox set attempts = attempts + 1, next_attempt_at = now() + ${`${LEASE_MS} milliseconds`}::interval
         where id in (select id from mail_outbox where sent_at is null and next_attempt_at <= now()
                       order by next_attempt_at limit ${BATCH} for update skip locked)
         returning id, to_address, subject, text_body, html_body, attempts`.execute(this.db);
      for (const row of claimed.rows) {
        try {
          await this.mailer.send({ to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body });
          await this.db.updateTable('mail_outbox').set({ sent_at: new Date(), last_error: null }).where('id', '=', row.id).execute();
          sent++;
        } catch (error) {
          const gaveUp = row.attempts >= OUTBOX_MAX_ATTEMPTS;
          // After the last attempt the row stays, unsent, for an operator to look at.
          const next = gaveUp ? new Date('9999-12-31T00:00:00Z') : new Date(Date.now() + retryDelayMs(row.attempts));
          await this.db
            .updateTable('mail_outbox')
            .set({ last_error: String((error as Error).message ?? error).slice(0, 1000), next_attempt_at: next })
            .where('id', '=', row.id)
            .execute();
          if (gaveUp)
            log.error({ mail: row.id, attempts: row.attempts }, `mail outbox: gave up on ${row.id} after ${row.attempts} attempts`);
        }
      }
      if (claimed.rows.length < BATCH) return sent;
    }
  }

  /** Retries due messages every OUTBOX_INTERVAL_MS until stop(). */
  start(intervalMs = OUTBOX_INTERVAL_MS): void {
    this.#timer ??= setInterval(() => this.kick(), intervalMs);
    this.#timer.unref?.();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#flushing?.catch(() => {});
  }
}
