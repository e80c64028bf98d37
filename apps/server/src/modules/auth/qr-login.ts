import { AUTH_CODE } from '@kaipiao/shared';
import QRCode from 'qrcode';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { randomToken } from '../../lib/crypto.ts';
import {
  consumeConfirmedQr,
  deleteStaleQrLogins,
  findQrLogin,
  findUserById,
  insertQrLogin,
  moveQrLogin,
} from './repo.ts';
import { issueSession } from './session-issue.ts';

export const QR_TTL_SECONDS = 120;
type Status = 'waiting' | 'scanned' | 'confirmed' | 'expired';

/** The page a phone opens when it scans (the sandbox stands in for the mobile app). */
export const qrScanUrl = (origin: string, qrId: string) =>
  `${origin}/sandbox/qr-login?qr_id=${encodeURIComponent(qrId)}`;

/** spec §7 GET /v3/user/qr-code: a fresh login QR, good for 120 s. */
export async function createQrLogin(db: Db, origin: string) {
  const id = randomToken(18);
  await insertQrLogin(db, id, new Date(Date.now() + QR_TTL_SECONDS * 1000));
  if (Math.random() < 0.05) {
    await deleteStaleQrLogins(db);
  }
  const qrCode = await QRCode.toDataURL(qrScanUrl(origin, id), { margin: 1, width: 240 });
  return { qr_id: id, qr_code: qrCode, expires_in: QR_TTL_SECONDS };
}

/**
 * spec §7 GET /v3/user/get-login-status. A confirmed QR hands out its session exactly once: the
 * poll that flips it to consumed gets the token, any later poll sees it expired.
 */
export async function qrLoginStatus(db: Db, id: string) {
  const row = await findQrLogin(db, id);
  if (!row || row.status === 'consumed' || row.expiresAt.getTime() <= Date.now()) {
    return { status: 'expired' as Status };
  }
  if (row.status !== 'confirmed') return { status: row.status as Status };
  const claimed = await consumeConfirmedQr(db, id);
  const user = claimed?.userId ? await findUserById(db, claimed.userId) : null;
  if (user?.status !== 'active') return { status: 'expired' as Status };
  const session = await issueSession(db, user);
  return { status: 'confirmed' as Status, token: session.token, user: session.user };
}

/**
 * The phone's side: scanning binds the QR to the user, confirming lets the browser in. A QR
 * scanned by one user cannot be confirmed by another.
 */
export async function advanceQrLogin(db: Db, id: string, userId: number, step: 'scan' | 'confirm') {
  const next = step === 'scan' ? 'scanned' : 'confirmed';
  if (!(await moveQrLogin(db, id, userId, step, next))) throw new AppError(AUTH_CODE.QR_EXPIRED);
  return { status: next as 'scanned' | 'confirmed' };
}
