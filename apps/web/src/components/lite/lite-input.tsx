import type { InputHTMLAttributes, ReactNode } from 'react';
import styles from './lite.module.css';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  /** shown under the control; also marks the input invalid */
  error?: string;
  /** the accessible name; the placeholder by default */
  label?: string;
  onValueChange: (value: string) => void;
  addon?: ReactNode;
};

/** A text input with its validation message, drawn like antd's. */
export function LiteInput({ error, label, onValueChange, addon, id, ...input }: Props) {
  const errorId = id ? `${id}-error` : undefined;
  return (
    <div className={styles.field}>
      <div className={styles.control}>
        <input
          {...input}
          id={id}
          className={styles.input}
          aria-label={label ?? input.placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onValueChange(e.target.value)}
        />
        {addon}
      </div>
      <div className={styles.error} id={errorId} role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}
