import { AUTH_STATUS, MSG, REAL_NAME_QR, REAL_NAME_QR_FILE } from '@kaipiao/shared';
import { Button, QRCode, Space } from 'antd';
import { useRef } from 'react';
import { WhyDisabled } from '../../../components/why-disabled.tsx';
import styles from './real-name.module.css';

// the logo drawn in the middle of the QR (spec §9 logo scale 40)
const LOGO = `data:image/svg+xml;utf8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" rx="8" fill="#c8102e"/><text x="20" y="28" font-size="22" text-anchor="middle" fill="#fff" font-family="sans-serif">税</text></svg>',
)}`;

/** An "expired" picture drawn over the QR (spec §4 auth_status 3). */
function ExpiredImage() {
  return (
    <svg width="56" height="56" viewBox="0 0 56 56" aria-hidden>
      <circle cx="28" cy="28" r="26" fill="#f5f5f5" stroke="#bfbfbf" strokeWidth="2" />
      <path d="M28 14v15l9 6" stroke="#8c8c8c" strokeWidth="3" fill="none" strokeLinecap="round" />
      <path d="M12 44 44 12" stroke="#ff4d4f" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** Decodes the bureau's base64 QR text (spec §3: decoded before display). */
export function decodeQr(qrCode: string): string {
  if (!qrCode) return '';
  try {
    const bytes = Uint8Array.from(atob(qrCode), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return qrCode;
  }
}

type Props = {
  qrText: string;
  authStatus: number;
  loading: boolean;
  onRefresh: () => void;
};

/** The tax-app QR: 250 px, margin 10, logo 40 (spec §9); expired / app-relogin overlays; refresh and download. */
export function RealNameQr({ qrText, authStatus, loading, onRefresh }: Props) {
  const box = useRef<HTMLDivElement>(null);

  function download() {
    const qr = box.current?.querySelector('canvas');
    if (!qr) return;
    const size = REAL_NAME_QR.size + REAL_NAME_QR.margin * 2;
    const out = document.createElement('canvas');
    out.width = size;
    out.height = size;
    const ctx = out.getContext('2d');
    if (!ctx) return;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, size, size);
    ctx.drawImage(qr, REAL_NAME_QR.margin, REAL_NAME_QR.margin, REAL_NAME_QR.size, REAL_NAME_QR.size);
    const a = document.createElement('a');
    a.href = out.toDataURL('image/png');
    a.download = REAL_NAME_QR_FILE;
    a.click();
  }

  const expired = authStatus === AUTH_STATUS.expired;
  const relogin = authStatus === AUTH_STATUS.appRelogin;
  return (
    <div className={styles.qrArea}>
      <div
        ref={box}
        className={styles.qrBox}
        style={{ padding: REAL_NAME_QR.margin }}
        data-testid="real-name-qr"
      >
        <QRCode
          value={qrText || ' '}
          size={REAL_NAME_QR.size}
          icon={LOGO}
          iconSize={REAL_NAME_QR.logoScale}
          bordered={false}
          bgColor="#fff"
          status={loading ? 'loading' : 'active'}
        />
        {(expired || (!qrText && !loading)) && (
          <button type="button" className={styles.qrOverlay} onClick={onRefresh}>
            <ExpiredImage />
            <span>{MSG.REAL_NAME_QR_EXPIRED}</span>
          </button>
        )}
        {relogin && !expired && (
          <div className={styles.qrOverlay} role="alert">
            <span>{MSG.REAL_NAME_APP_RELOGIN}</span>
          </div>
        )}
      </div>
      <Space>
        <Button onClick={onRefresh} loading={loading}>
          刷新
        </Button>
        <WhyDisabled reason={!qrText ? '二维码生成中，请稍候' : expired && '二维码已过期，请点击刷新'}>
          <Button onClick={download}>下载二维码</Button>
        </WhyDisabled>
      </Space>
    </div>
  );
}
