// The messages the platform sends. Each has a plain-text and an HTML part with the same links;
// every value placed into HTML is escaped.

import type { OutgoingMail } from './mailer';

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

function layout(brand: string, title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#b7f34a;color:#15081f;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p><p style="margin:0 0 16px;font-size:12px;color:#666">Or open this link: ${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1b1226;max-width:560px;margin:0 auto;padding:24px"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}${button}<p style="font-size:12px;color:#888">${escapeHtml(brand)}</p></body></html>`;
}

function mail(
  to: string,
  subject: string,
  brand: string,
  title: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): OutgoingMail {
  const text = [title, '', ...paragraphs, ...(action ? ['', `${action.label}: ${action.url}`] : []), '', `-- ${brand}`].join('\n');
  return { to, subject, text, html: layout(brand, title, paragraphs, action) };
}

export function confirmSignupMail(brand: string, to: string, url: string, otp: string): OutgoingMail {
  return mail(
    to,
    `Confirm your ${brand} account`,
    brand,
    'Confirm your signup',
    [
      `Welcome to ${brand}! Follow the link below to confirm your e-mail address and activate your account.`,
      `Or enter this code: ${otp}`,
      'If you did not sign up, you can ignore this message.',
    ],
    { label: 'Confirm your e-mail', url },
  );
}

export function recoveryMail(brand: string, to: string, url: string, otp: string): OutgoingMail {
  return mail(
    to,
    `Reset your ${brand} password`,
    brand,
    'Reset your password',
    [
      'Someone asked to reset the password of your account. Follow the link below to choose a new one.',
      `Or enter this code: ${otp}`,
      'If it was not you, ignore this message: your password stays as it is.',
    ],
    { label: 'Reset password', url },
  );
}

export function magicLinkMail(brand: string, to: string, url: string, otp: string): OutgoingMail {
  return mail(to, `Your ${brand} sign-in link`, brand, 'Sign in', ['Follow the link below to sign in.', `Or enter this code: ${otp}`], {
    label: 'Sign in',
    url,
  });
}

export function emailChangeMail(brand: string, to: string, url: string, otp: string): OutgoingMail {
  return mail(
    to,
    `Confirm your new ${brand} e-mail address`,
    brand,
    'Confirm e-mail change',
    [`Follow the link below to use ${to} for your account.`, `Or enter this code: ${otp}`],
    { label: 'Confirm new e-mail', url },
  );
}

export function supportAckMail(brand: string, to: string, ticketId: string, subject: string): OutgoingMail {
  return mail(to, `[${brand} support] ${subject}`, brand, 'We received your message', [
    `Thank you for contacting ${brand} support. Your request ${ticketId} is in our queue; we answer by e-mail.`,
    `Subject: ${subject}`,
  ]);
}

export function supportTeamMail(
  brand: string,
  to: string,
  from: string,
  ticket: { id: string; topic: string; subject: string; message: string; attachments: string[] },
): OutgoingMail {
  return mail(to, `[support ${ticket.topic}] ${ticket.subject}`, brand, `Support request ${ticket.id}`, [
    `From: ${from}`,
    `Topic: ${ticket.topic}`,
    ticket.message,
    ticket.attachments.length ? `Attachments: ${ticket.attachments.join(', ')}` : 'No attachments.',
  ]);
}

export function newsletterWelcomeMail(brand: string, to: string, topics: string[], unsubscribeUrl: string): OutgoingMail {
  return mail(
    to,
    `You're subscribed to ${brand} news`,
    brand,
    'Thanks for subscribing',
    [`You will receive: ${topics.join(', ')}.`, 'You can unsubscribe at any time.'],
    { label: 'Unsubscribe', url: unsubscribeUrl },
  );
}

export function newsletterConfirmMail(brand: string, to: string, topics: string[], confirmUrl: string): OutgoingMail {
  return mail(
    to,
    `Confirm your ${brand} newsletter subscription`,
    brand,
    'Confirm your subscription',
    [
      `Someone asked to send ${topics.join(', ')} to this address.`,
      'Nothing is sent until you confirm. If it was not you, ignore this message.',
    ],
    { label: 'Confirm subscription', url: confirmUrl },
  );
}
