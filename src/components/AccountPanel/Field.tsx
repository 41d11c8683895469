import { useId, type InputHTMLAttributes } from 'react';
import * as styles from './AccountPanel.css';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'className'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Message shown under the field; marks it invalid. */
  error?: string;
}

/** A labelled input with its error message tied to it by `aria-describedby`. */
export function Field({ label, value, onValueChange, error, id: givenId, ...input }: FieldProps) {
  const fallbackId = useId();
  const id = givenId ?? fallbackId;
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        className={styles.input}
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error && (
        <p id={errorId} className={styles.errorText}>
          {error}
        </p>
      )}
    </div>
  );
}
