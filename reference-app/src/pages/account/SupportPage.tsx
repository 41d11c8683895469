import { useState, type FormEvent } from 'react';
import { usePlatformClients, type SupportAttachment } from '@limelight/widgets/api';
import { notify } from '@limelight/widgets/notifications';
import { useStrings } from '@limelight/widgets/platform';
import * as page from '../page.css';
import * as styles from './account.css';

const TOPICS = ['Billing', 'Hosting', 'API usage', 'Account', 'Other'];
/** Matches the server's attachment limits so the user hears about them before uploading. */
const MAX_ATTACHMENT_BYTES = 2 * 1024 * 1024;

async function toAttachment(file: File): Promise<SupportAttachment> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { filename: file.name, content_type: file.type || 'application/octet-stream', data_base64: btoa(binary) };
}

export default function SupportPage() {
  const { support } = usePlatformClients();
  const strings = useStrings();
  const [form, setForm] = useState({ topic: TOPICS[0]!, subject: '', message: '' });
  const [files, setFiles] = useState<File[]>([]);
  const [sent, setSent] = useState<string | null>(null);
  const tooLarge = files.find((f) => f.size > MAX_ATTACHMENT_BYTES);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.subject.trim() || !form.message.trim() || tooLarge) return;
    const attachments = await Promise.all(files.map(toAttachment));
    const result = await support.contactSupport({ ...form, attachments });
    if (result.ok) setSent(result.data.id);
    else notify.apiFailure(result, strings.notifications.status, { text: result.error });
  };

  if (sent) {
    return (
      <div className={styles.page}>
        <h1>Support</h1>
        <p role="status">Thank you. We received your request (reference {sent}) and will answer by e-mail.</p>
      </div>
    );
  }
  return (
    <div className={styles.page}>
      <h1>Support</h1>
      <form className={styles.panel} onSubmit={submit}>
        <label className={page.field}>
          Topic
          <select className={page.input} value={form.topic} onChange={(e) => setForm({ ...form, topic: e.target.value })}>
            {TOPICS.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label className={page.field}>
          Subject
          <input className={page.input} required value={form.subject} onChange={(e) => setForm({ ...form, subject: e.target.value })} />
        </label>
        <label className={page.field}>
          Message
          <textarea
            className={page.input}
            required
            rows={6}
            value={form.message}
            onChange={(e) => setForm({ ...form, message: e.target.value })}
          />
        </label>
        <label className={page.field}>
          Attachments (up to 2 MB each)
          <input className={page.input} type="file" multiple onChange={(e) => setFiles([...(e.target.files ?? [])])} />
        </label>
        {tooLarge && <p className={page.errorText}>{tooLarge.name} is larger than 2 MB.</p>}
        <button type="submit" className={page.button()}>
          Send
        </button>
      </form>
    </div>
  );
}
