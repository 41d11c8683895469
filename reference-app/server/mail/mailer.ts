import nodemailer from 'nodemailer';
import type { Db } from '../db/types';
import { insertMailMessage } from './queries';

// Outgoing mail. With SMTP_URL set, messages go out through nodemailer; otherwise the dev
// mailbox keeps every message in the database, readable at /dev/mailbox(.json).

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'mailbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

export class MailError extends Error {
  override name = 'MailError';
}

const decodeEntities = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** Every http(s) URL in a message, text and HTML, in order of appearance, without duplicates. */
export function extractLinks(mail: Pick<OutgoingMail, 'text' | 'html'>): string[] {
  const found: string[] = [];
  const add = (url: string) => {
    const clean = decodeEntities(url).replace(/[.,;:!?)\]]+$/, '');
    if (!found.includes(clean)) found.push(clean);
  };
  for (const match of mail.html.matchAll(/href\s*=\s*"([^"]+)"/gi)) if (/^https?:/i.test(match[1]!)) add(match[1]!);
  for (const match of `${mail.text}\n${mail.html}`.matchAll(/https?:\/\/[^\s"'<>]+/gi)) add(match[0]);
  return found;
}

export function createMailboxMailer(db: Db): Mailer {
  return {
    kind: 'mailbox',
    async send(mail) {
      await insertMailMessage(db, {
        to_address: mail.to.toLowerCase(),
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
        links: JSON.stringify(extractLinks(mail)),
      });
    },
    async close() {},
  };
}

export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      } catch (error) {
        throw new MailError(`Could not send mail to ${mail.to}: ${(error as Error).message}`, { cause: error });
      }
    },
    async close() {
      transport.close();
    },
  };
}
