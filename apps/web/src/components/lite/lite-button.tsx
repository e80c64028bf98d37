import type { ButtonHTMLAttributes } from 'react';
import styles from './lite.module.css';

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  primary?: boolean;
  block?: boolean;
  loading?: boolean;
};

/** A button drawn like antd's. */
export function LiteButton({ primary, block, loading, children, disabled, type = 'button', ...rest }: Props) {
  return (
    <button
      {...rest}
      type={type}
      className={styles.button}
      data-primary={primary || undefined}
      data-block={block || undefined}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading && <span className={styles.buttonSpinner} aria-hidden />}
      {children}
    </button>
  );
}
