import { useState, type FormEvent } from 'react';
import type { SupportAttachment } from '../../api/types';
import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import { useAccountClients, useFeedback } from '../AccountPanel';

/** Matches the server's attachment limit, so the user hears about it before uploading. */
export const MAX_ATTACHMENT_BYTES = 2 * 1024 * 1024;

/** A file as the support API takes it: name, type and base64 content. */
export async function toAttachment(file: File): Promise<SupportAttachment> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  // Chunks keep String.fromCharCode's argument count under the engine's limit.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { filename: file.name, content_type: file.type || 'application/octet-stream', data_base64: btoa(binary) };
}

export interface UseSupportFormOptions {
  /** Called with the request's reference after it was sent. */
  onSend?: (reference: string) => void;
}

/** Headless support form: topic, subject, message, attachments (2 MB each); validation; sending. */
export function useSupportForm({ onSend }: UseSupportFormOptions = {}) {
  const { support } = useAccountClients();
  const strings = useStrings().account;
  const feedback = useFeedback();
  const topics = strings.topics.split('|');
  const [form, setForm] = useState({ topic: topics[0] ?? '', subject: '', message: '' });
  const [files, setFiles] = useState<File[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const size = MAX_ATTACHMENT_BYTES / 1024 / 1024;
  const tooLarge = files.find((f) => f.size > MAX_ATTACHMENT_BYTES);

  const errors = {
    subject: form.subject.trim() ? undefined : strings.subjectRequired,
    message: form.message.trim() ? undefined : strings.messageRequired,
    attachments: tooLarge ? formatString(strings.attachmentTooLarge, { name: tooLarge.name, size }) : undefined,
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    if (errors.subject || errors.message || errors.attachments || pending) return;
    setPending(true);
    try {
      const attachments = await Promise.all(files.map(toAttachment));
      const result = await support.contactSupport({ ...form, attachments });
      if (!result.ok) return feedback.show('warning', result.error || strings.supportProblem);
      setSent(result.data.id);
      onSend?.(result.data.id);
    } catch {
      feedback.show('warning', strings.supportProblem);
    } finally {
      setPending(false);
    }
  };

  return {
    topics,
    form,
    setField: (name: keyof typeof form, value: string) => setForm((f) => ({ ...f, [name]: value })),
    files,
    setFiles,
    sizeMb: size,
    errors: { ...(submitted ? errors : {}), attachments: errors.attachments } as Partial<typeof errors>,
    submit,
    sent,
    startOver: () => {
      setSent(null);
      setForm({ topic: topics[0] ?? '', subject: '', message: '' });
      setFiles([]);
      setSubmitted(false);
    },
    pending,
    feedback,
  };
}
