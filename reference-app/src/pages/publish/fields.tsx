import { useId, type ReactNode } from 'react';
import * as styles from './publish.css';

// Labelled inputs for the service editor. Each takes the server's error for its field (docs/publishing.md:
// 422 names every bad field) and ties it, and an optional hint, to the input by aria-describedby.

interface FieldFrame {
  label: string;
  error?: string;
  hint?: ReactNode;
}

function describedBy(id: string, error?: string, hint?: ReactNode) {
  return [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
}

function Frame({ id, label, error, hint, children }: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}

export interface TextFieldProps extends FieldFrame {
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'url' | 'number' | 'password';
  multiline?: boolean;
  required?: boolean;
  placeholder?: string;
  inputMode?: 'numeric' | 'decimal';
  autoComplete?: string;
}

export function TextField({ label, error, hint, value, onChange, multiline, type = 'text', ...rest }: TextFieldProps) {
  const id = useId();
  const common = {
    id,
    className: styles.input,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, error, hint),
    ...rest,
  };
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      {multiline ? (
        <textarea {...common} rows={5} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={type} onChange={(e) => onChange(e.target.value)} />
      )}
    </Frame>
  );
}

export interface SelectFieldProps<T extends string> extends FieldFrame {
  value: T;
  onChange: (value: T) => void;
  options: ReadonlyArray<{ value: T; label: string }>;
}

export function SelectField<T extends string>({ label, error, hint, value, onChange, options }: SelectFieldProps<T>) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <select
        id={id}
        className={styles.input}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export interface RadioGroupProps<T extends string> {
  label: string;
  name: string;
  value: T;
  onChange: (value: T) => void;
  options: ReadonlyArray<{ value: T; label: ReactNode }>;
  /** `choices` lays the options out in a row; `field` stacks them. */
  layout?: 'choices' | 'field';
}

/** Native radios sharing a name (arrow keys move between them), labelled as one group. */
export function RadioGroup<T extends string>({ label, name, value, onChange, options, layout = 'choices' }: RadioGroupProps<T>) {
  return (
    <div className={styles[layout]} role="radiogroup" aria-label={label}>
      {options.map((o) => (
        <label key={o.value} className={styles.choice}>
          <input type="radio" className={styles.choiceInput} name={name} checked={value === o.value} onChange={() => onChange(o.value)} />
          {o.label}
        </label>
      ))}
    </div>
  );
}
