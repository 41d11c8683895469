import { escapeHtml } from '../mail/templates';
import type { OutgoingMail } from '../mail/mailer';

// The two auth mails only the admin API and reauthentication send: an invitation and a
// reauthentication code. The other auth mails are in mail/templates.ts.

function simpleMail(brand: string, to: string, title: string, lines: string[], action?: { label: string; url: string }): OutgoingMail {
  const text = [title, '', ...lines, ...(action ? [`${action.label}: ${action.url}`] : []), '', `-- ${brand}`].join('\n');
  const button = action ? `<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>` : '';
  const body = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}${button}<p style="font-size:12px;color:#888">${escapeHtml(brand)}</p></body></html>`;
  return { to, subject: title, text, html };
}

export const inviteMail = (brand: string, to: string, url: string, otp: string) =>
  simpleMail(brand, to, `You have been invited to ${brand}`, [`Accept with the link below, or enter the code ${otp}.`], {
    label: 'Accept the invitation',
    url,
  });

export const reauthenticationMail = (brand: string, to: string, otp: string) =>
  simpleMail(brand, to, `Confirm it is you: ${otp}`, [
    `Enter the code ${otp} to confirm the change to your ${brand} account.`,
    'If you did not ask for it, someone may know your password: change it.',
  ]);
