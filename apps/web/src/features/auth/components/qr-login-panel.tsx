import { useCallback, useEffect, useState } from 'react';
import { getLoginQrCode, getQrLoginStatus, type QrCode, type QrStatus } from '../api/login.ts';
import { useCompleteLogin } from '../hooks/use-complete-login.ts';
import styles from './login-page.module.css';

const POLL_MS = 2000;
const HINTS: Record<QrStatus['status'], string> = {
  waiting: '请使用手机扫描二维码登录',
  scanned: '扫码成功，请在手机上确认登录',
  confirmed: '登录成功，正在进入…',
  expired: '二维码已失效',
};

/** QR login: the code is polled every 2 s until confirmed or expired (click to refresh). */
export function QrLoginPanel() {
  const [qr, setQr] = useState<(QrCode & { expiresAt: number }) | null>(null);
  const [status, setStatus] = useState<QrStatus['status']>('waiting');
  const [loading, setLoading] = useState(false);
  const completeLogin = useCompleteLogin();

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const code = await getLoginQrCode();
      setQr({ ...code, expiresAt: Date.now() + code.expires_in * 1000 });
      setStatus('waiting');
    } catch {
      setQr(null);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (!qr || (status !== 'waiting' && status !== 'scanned')) return;
    const controller = new AbortController();
    const expiry = setTimeout(() => setStatus('expired'), Math.max(0, qr.expiresAt - Date.now()));
    const timer = setInterval(async () => {
      try {
        const answer = await getQrLoginStatus(qr.qr_id, controller.signal);
        if (controller.signal.aborted) return;
        setStatus(answer.status);
        if (answer.status === 'confirmed' && answer.token) {
          await completeLogin({ token: answer.token, user: answer.user });
        }
      } catch {
        // a missed poll is retried on the next tick
      }
    }, POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
      clearTimeout(expiry);
    };
  }, [qr, status, completeLogin]);

  const expired = status === 'expired' || (!qr && !loading);
  return (
    <div className={styles.qrPanel}>
      <div className={styles.qrBox} aria-busy={loading}>
        {qr && <img src={qr.qr_code} alt="登录二维码" width={180} height={180} />}
        {expired && (
          <button type="button" className={styles.qrOverlay} onClick={load}>
            <span className={styles.qrRefresh} aria-hidden>
              ↻
            </span>
            <span>{qr ? '二维码已失效，点击刷新' : '二维码加载失败，点击刷新'}</span>
          </button>
        )}
      </div>
      <p className={status === 'scanned' ? styles.qrHintOk : styles.qrHint} aria-live="polite">
        {HINTS[status]}
      </p>
    </div>
  );
}
