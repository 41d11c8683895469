import { useId, useState, type DragEvent, type ReactNode } from 'react';
import type { FieldError, FileRef } from '../../api/types';
import { formatString, type Strings } from '../../config/strings';
import { MESSAGE_ROLES, type DraftValue, type FieldSpec, type MessageDraft } from './formModel';
import { formatBytes, mediaKind, mediaKindOfUrl, safeMediaUrl } from './outputModel';
import * as styles from './ServiceRunner.css';

type S = Strings['runner'];

export interface RunnerFieldProps {
  field: FieldSpec;
  value: DraftValue;
  error?: FieldError;
  onChange: (value: DraftValue) => void;
  /** Uploads a file for a file input (POST /v1/files). */
  upload: (file: File) => Promise<{ ok: true; data: FileRef } | { ok: false; error: string }>;
  apiUrl: string;
  strings: S;
  disabled?: boolean;
}

/** ids and ARIA wiring shared by every control: label, description, error. */
function useFieldIds(error?: FieldError) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return {
    id,
    hintId,
    errorId,
    describedBy: (hasHint: boolean) => [hasHint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined,
  };
}

function FieldFrame({
  field,
  ids,
  error,
  strings,
  children,
  as = 'div',
  labelFor,
}: {
  field: FieldSpec;
  ids: ReturnType<typeof useFieldIds>;
  error?: FieldError;
  strings: S;
  children: ReactNode;
  as?: 'div' | 'fieldset';
  labelFor?: string;
}) {
  const Tag = as;
  const labelContent = (
    <>
      {field.label}
      {field.required ? (
        <span className={styles.requiredMark} aria-hidden="true">
          {strings.requiredMark}
        </span>
      ) : null}
    </>
  );
  return (
    <Tag
      className={styles.field}
      data-field={field.name}
      data-invalid={error ? '' : undefined}
      {...(as === 'fieldset' ? { 'aria-describedby': ids.describedBy(Boolean(field.description)) } : {})}
    >
      {as === 'fieldset' ? (
        <legend className={styles.label} id={`${ids.id}-label`}>
          {labelContent}
        </legend>
      ) : (
        <label className={styles.label} htmlFor={labelFor ?? ids.id} id={`${ids.id}-label`}>
          {labelContent}
        </label>
      )}
      {children}
      {field.description ? (
        <p className={styles.hint} id={ids.hintId}>
          {field.description}
        </p>
      ) : null}
      {error ? (
        <p className={styles.fieldError} id={ids.errorId}>
          {error.message}
        </p>
      ) : null}
    </Tag>
  );
}

/** One form control per parameter, chosen by `field.kind`. */
export function RunnerField(props: RunnerFieldProps) {
  switch (props.field.kind) {
    case 'boolean':
      return <SwitchField {...props} />;
    case 'enum':
      return <EnumField {...props} />;
    case 'messages':
      return <MessagesField {...props} />;
    case 'list':
      return <ListField {...props} />;
    case 'file':
      return <FileField {...props} />;
    default:
      return <TextField {...props} />;
  }
}

function TextField({ field, value, error, onChange, strings, disabled }: RunnerFieldProps) {
  const ids = useFieldIds(error);
  const common = {
    id: ids.id,
    name: field.name,
    value: typeof value === 'string' ? value : '',
    required: field.required,
    disabled,
    'aria-required': field.required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': ids.describedBy(Boolean(field.description)),
  } as const;
  let control: ReactNode;
  if (field.kind === 'textarea') {
    control = <textarea {...common} className={styles.textarea} rows={3} onChange={(e) => onChange(e.target.value)} />;
  } else if (field.kind === 'json') {
    control = <textarea {...common} className={styles.jsonArea} spellCheck={false} rows={4} onChange={(e) => onChange(e.target.value)} />;
  } else if (field.kind === 'number' || field.kind === 'integer') {
    const number = (
      <input
        {...common}
        className={styles.input}
        type="number"
        inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
        min={field.min}
        max={field.max}
        step={field.step}
        placeholder={field.required ? undefined : strings.notSet}
        onChange={(e) => onChange(e.target.value)}
      />
    );
    // A number with both bounds gets a slider too (quick, coarse), the input stays for exact values.
    control =
      field.min !== undefined && field.max !== undefined ? (
        <span className={styles.rangeRow}>
          <input
            type="range"
            className={styles.range}
            min={field.min}
            max={field.max}
            step={field.step === 'any' ? sliderStep(field.max - field.min) : field.step}
            value={sliderValue(value, field)}
            disabled={disabled}
            aria-labelledby={`${ids.id}-label`}
            aria-describedby={ids.describedBy(Boolean(field.description))}
            onChange={(e) => onChange(e.target.value)}
          />
          {number}
        </span>
      ) : (
        number
      );
  } else {
    control = (
      <input
        {...common}
        className={styles.input}
        type="text"
        maxLength={field.schema.maxLength}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <FieldFrame field={field} ids={ids} error={error} strings={strings}>
      {control}
    </FieldFrame>
  );
}

/** A round step of about a hundredth of the range (0.01 for 0-1.5, 0.1 for 0-20). */
const sliderStep = (span: number) => (span > 0 ? 10 ** Math.floor(Math.log10(span / 100)) : 1);

/** Where the slider's thumb sits: the typed number, else the default, else the lower bound. */
function sliderValue(value: DraftValue, field: FieldSpec): number {
  const typed = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (Number.isFinite(typed)) return typed;
  const fallback = typeof field.schema.default === 'number' ? field.schema.default : field.min!;
  return fallback;
}

function SwitchField({ field, value, error, onChange, strings, disabled }: RunnerFieldProps) {
  const ids = useFieldIds(error);
  const on = value === true;
  return (
    <FieldFrame field={field} ids={ids} error={error} strings={strings}>
      <span className={styles.switchRow}>
        <button
          type="button"
          role="switch"
          id={ids.id}
          aria-checked={on}
          aria-invalid={error ? true : undefined}
          aria-describedby={ids.describedBy(Boolean(field.description))}
          className={styles.switchTrack({ on })}
          disabled={disabled}
          onClick={() => onChange(!on)}
        />
        <span aria-hidden="true">{on ? strings.on : strings.off}</span>
      </span>
    </FieldFrame>
  );
}

function EnumField({ field, value, error, onChange, strings, disabled }: RunnerFieldProps) {
  const ids = useFieldIds(error);
  return (
    <FieldFrame field={field} ids={ids} error={error} strings={strings}>
      <select
        id={ids.id}
        name={field.name}
        className={styles.select}
        value={typeof value === 'string' ? value : ''}
        required={field.required}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy(Boolean(field.description))}
        onChange={(e) => onChange(e.target.value)}
      >
        {/* With a default there is always a value: an empty choice would only mean the default again. */}
        {field.schema.default !== undefined ? null : <option value="">{strings.chooseOption}</option>}
        {(field.options ?? []).map((option, index) => (
          <option key={String(option)} value={String(index)}>
            {String(option)}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

function MessagesField({ field, value, error, onChange, strings, disabled }: RunnerFieldProps) {
  const ids = useFieldIds(error);
  const messages = (Array.isArray(value) ? value : []) as MessageDraft[];
  const update = (index: number, patch: Partial<MessageDraft>) => onChange(messages.map((m, i) => (i === index ? { ...m, ...patch } : m)));
  return (
    <FieldFrame field={field} ids={ids} error={error} strings={strings} as="fieldset">
      <ol className={styles.list}>
        {messages.map((message, index) => {
          const n = index + 1;
          return (
            <li key={index} className={styles.messageRow}>
              <select
                className={styles.select}
                aria-label={`${strings.array.role} ${n}`}
                value={message.role}
                disabled={disabled}
                onChange={(e) => update(index, { role: e.target.value })}
              >
                {MESSAGE_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {role}
                  </option>
                ))}
              </select>
              <textarea
                className={styles.textarea}
                rows={2}
                aria-label={formatString(strings.array.content, { count: n })}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? ids.errorId : undefined}
                value={message.content}
                disabled={disabled}
                onChange={(e) => update(index, { content: e.target.value })}
              />
              <button
                type="button"
                className={styles.button({ tone: 'small' })}
                aria-label={formatString(strings.array.removeMessage, { count: n })}
                disabled={disabled || messages.length <= 1}
                onClick={() => onChange(messages.filter((_, i) => i !== index))}
              >
                ×
              </button>
            </li>
          );
        })}
      </ol>
      <div>
        <button
          type="button"
          className={styles.button({ tone: 'small' })}
          disabled={disabled}
          onClick={() => {
            const last = messages[messages.length - 1];
            onChange([...messages, { role: last?.role === 'user' ? 'assistant' : 'user', content: '' }]);
          }}
        >
          {strings.array.addMessage}
        </button>
      </div>
    </FieldFrame>
  );
}

function ListField({ field, value, error, onChange, strings, disabled }: RunnerFieldProps) {
  const ids = useFieldIds(error);
  const items = (Array.isArray(value) ? value : []) as string[];
  return (
    <FieldFrame field={field} ids={ids} error={error} strings={strings} as="fieldset">
      {items.length === 0 ? <p className={styles.hint}>{strings.array.empty}</p> : null}
      <ul className={styles.list}>
        {items.map((item, index) => {
          const n = index + 1;
          return (
            <li key={index} className={styles.listRow}>
              <input
                className={styles.input}
                type="text"
                aria-label={`${field.label}: ${formatString(strings.array.item, { count: n })}`}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? ids.errorId : undefined}
                value={item}
                disabled={disabled}
                onChange={(e) => onChange(items.map((v, i) => (i === index ? e.target.value : v)))}
              />
              <button
                type="button"
                className={styles.button({ tone: 'small' })}
                aria-label={formatString(strings.array.remove, { count: n })}
                disabled={disabled}
                onClick={() => onChange(items.filter((_, i) => i !== index))}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
      <div>
        <button type="button" className={styles.button({ tone: 'small' })} disabled={disabled} onClick={() => onChange([...items, ''])}>
          {strings.array.add}
        </button>
      </div>
    </FieldFrame>
  );
}

type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; name: string }
  | { status: 'done'; name: string; ref: FileRef }
  | { status: 'error'; name: string; message: string };

function FileField({ field, value, error, onChange, upload, apiUrl, strings, disabled }: RunnerFieldProps) {
  const ids = useFieldIds(error);
  const [upload$, setUpload] = useState<UploadState>({ status: 'idle' });
  const [dragging, setDragging] = useState(false);
  const url = typeof value === 'string' && value ? safeMediaUrl(value, apiUrl) : null;
  const contentType =
    upload$.status === 'done' ? upload$.ref.content_type : (/^data:([^;,]+)/.exec(typeof value === 'string' ? value : '')?.[1] ?? '');
  const kind = contentType ? mediaKind(contentType) : typeof value === 'string' ? mediaKindOfUrl(value) : 'file';
  const name =
    upload$.status === 'done' || upload$.status === 'uploading' || upload$.status === 'error'
      ? upload$.name
      : typeof value === 'string'
        ? (value.split('/').pop() ?? '')
        : '';

  async function take(file: File | undefined) {
    if (!file) return;
    setUpload({ status: 'uploading', name: file.name });
    const result = await upload(file);
    if (result.ok) {
      setUpload({ status: 'done', name: file.name, ref: result.data });
      onChange(result.data.url);
    } else {
      setUpload({ status: 'error', name: file.name, message: result.error });
    }
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) void take(event.dataTransfer.files[0]);
  };

  return (
    <FieldFrame field={field} ids={ids} error={error} strings={strings} labelFor={ids.id}>
      <div
        className={styles.dropZone({ active: dragging, invalid: Boolean(error) })}
        data-dragging={dragging ? '' : undefined}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <span className={styles.hint}>{strings.file.drop}</span>
        <input
          id={ids.id}
          className={styles.fileInput}
          type="file"
          name={field.name}
          accept={field.accept}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={ids.describedBy(Boolean(field.description))}
          onChange={(e) => void take(e.target.files?.[0])}
        />
        <p role="status" className={styles.hint}>
          {upload$.status === 'uploading'
            ? formatString(strings.file.uploading, { name: upload$.name })
            : upload$.status === 'error'
              ? formatString(strings.file.uploadFailed, { name: upload$.name, message: upload$.message })
              : upload$.status === 'done'
                ? formatString(strings.file.uploaded, { name: upload$.name, size: formatBytes(upload$.ref.size) })
                : ''}
        </p>
        {url && kind === 'image' ? <img className={styles.preview} src={url} alt={formatString(strings.file.preview, { name })} /> : null}
        {url && kind === 'audio' ? (
          <audio className={styles.preview} src={url} controls aria-label={formatString(strings.file.preview, { name })} />
        ) : null}
        {url && kind === 'video' ? (
          <video className={styles.preview} src={url} controls aria-label={formatString(strings.file.preview, { name })} />
        ) : null}
        {value ? (
          <button
            type="button"
            className={styles.button({ tone: 'small' })}
            disabled={disabled}
            onClick={() => {
              setUpload({ status: 'idle' });
              onChange(null);
            }}
          >
            {strings.file.remove}
          </button>
        ) : null}
      </div>
    </FieldFrame>
  );
}
