import { useId } from 'react';
import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import { AccountPanel, Field, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import { useSupportForm, type UseSupportFormOptions } from './useSupportForm';

/** Props of `SupportForm`. */
export interface SupportFormProps extends AccountPanelBaseProps, UseSupportFormOptions {}

/** A support request from the signed-in user: topic, subject, message and attachments; the reference once sent. */
export function SupportForm({ headingLevel, className, ...options }: SupportFormProps) {
  const strings = useStrings().account;
  const form = useSupportForm(options);
  const topicId = useId();
  const messageId = useId();
  const filesId = useId();
  return (
    <AccountPanel
      name="support-form"
      title={strings.supportTitle}
      headingLevel={headingLevel}
      className={className}
      feedback={form.sent ? { tone: 'success', message: formatString(strings.supportSent, { id: form.sent }) } : form.feedback.feedback}
      onDismissFeedback={form.feedback.clear}
      busy={form.pending}
    >
      {form.sent ? (
        <div className={styles.row}>
          <button type="button" className={styles.button({ tone: 'outline' })} onClick={form.startOver}>
            {strings.newRequest}
          </button>
        </div>
      ) : (
        <form className={styles.stack} onSubmit={(e) => void form.submit(e)} noValidate>
          <label className={styles.field} htmlFor={topicId}>
            {strings.topic}
            <select id={topicId} className={styles.input} value={form.form.topic} onChange={(e) => form.setField('topic', e.target.value)}>
              {form.topics.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <Field
            label={strings.subject}
            required
            value={form.form.subject}
            onValueChange={(v) => form.setField('subject', v)}
            error={form.errors.subject}
          />
          <div className={styles.field}>
            <label htmlFor={messageId}>{strings.message}</label>
            <textarea
              id={messageId}
              className={styles.input}
              required
              rows={6}
              value={form.form.message}
              onChange={(e) => form.setField('message', e.target.value)}
              aria-invalid={form.errors.message ? true : undefined}
              aria-describedby={form.errors.message ? `${messageId}-error` : undefined}
            />
            {form.errors.message && (
              <p id={`${messageId}-error`} className={styles.errorText}>
                {form.errors.message}
              </p>
            )}
          </div>
          <div className={styles.field}>
            <label htmlFor={filesId}>{formatString(strings.attachments, { size: form.sizeMb })}</label>
            <input
              id={filesId}
              className={styles.fileInput}
              type="file"
              multiple
              onChange={(e) => form.setFiles([...(e.target.files ?? [])])}
              aria-invalid={form.errors.attachments ? true : undefined}
              aria-describedby={form.errors.attachments ? `${filesId}-error` : undefined}
            />
            {form.errors.attachments && (
              <p id={`${filesId}-error`} className={styles.errorText}>
                {form.errors.attachments}
              </p>
            )}
          </div>
          <div className={styles.row}>
            <button type="submit" className={styles.button()} disabled={form.pending}>
              {strings.send}
            </button>
          </div>
        </form>
      )}
    </AccountPanel>
  );
}
