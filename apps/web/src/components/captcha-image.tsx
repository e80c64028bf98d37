import styles from './captcha-image.module.css';

type Props = { picture?: string; loading?: boolean; onRefresh: () => void; compact?: boolean };

/** The picture captcha (spec §9: 4 characters, refreshed on click). */
export function CaptchaImage({ picture, loading, onRefresh, compact }: Props) {
  return (
    <button
      type="button"
      className={compact ? `${styles.captcha} ${styles.compact}` : styles.captcha}
      title="看不清？点击刷新"
      aria-label="刷新图形验证码"
      onClick={onRefresh}
      disabled={loading}
    >
      {picture ? <img src={picture} alt="图形验证码" /> : <span>{loading ? '加载中…' : '点击刷新'}</span>}
    </button>
  );
}
