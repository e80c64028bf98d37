import styles from './lite.module.css';

/** A full-page spinner that needs no UI library (guards, the login page). */
export function PageLoading({ tip }: { tip?: string }) {
  return (
    <div className={styles.pageLoading} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden />
      {tip && <span>{tip}</span>}
    </div>
  );
}
