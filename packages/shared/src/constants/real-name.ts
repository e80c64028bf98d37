import { TIMEOUTS } from './menu.ts';

// Real-name (实名/实人) authentication and the device-authorisation socket: spec §2, §3, §4, §7, §9.

/** spec §4: SMS mode only for these channels, and only when auth_way is "1". */
export const REAL_NAME_SMS_CHANNELS = ['GP900000', 'GP900003', 'GP900004', 'GP900005', 'GP900006'] as const;

/** spec §3 auth_way */
export const AUTH_WAY = { sms: '1', qr: '2' } as const;

/** spec §4 real-name auth_status (2 = authenticated, closes the socket prompt) */
export const AUTH_STATUS = { none: 0, valid: 1, done: 2, expired: 3, appRelogin: 4 } as const;
export type AuthStatus = (typeof AUTH_STATUS)[keyof typeof AUTH_STATUS];
/** spec §4: these statuses show the QR authorisation prompt */
export const PROMPT_AUTH_STATUSES: readonly number[] = [
  AUTH_STATUS.valid,
  AUTH_STATUS.expired,
  AUTH_STATUS.appRelogin,
];

/** spec §3 ele_tax_login_type: which pair of SMS calls the dialog uses */
export const ELE_TAX_LOGIN_TYPE = { taxStation: '1', autonomous: '2' } as const;

/** spec §9 */
export const REAL_NAME_DIALOG_WIDTH = 500;
export const REAL_NAME_QR = { size: 250, margin: 10, logoScale: 40 } as const;
export const REAL_NAME_QR_FILE = '实名认证二维码.png';
export const DEVICE_AUTH_HEARTBEAT_MS = 20_000;
export const DEVICE_AUTH_RECONNECT_MS = 2_000;

/** spec §7 equipment calls of the real-name dialog, with their time-outs (default 15 s where none is given). */
export const REAL_NAME_CALLS = {
  realPersonAuth: { path: '/v3/equipment/get-real-person-auth', timeout: TIMEOUTS.default },
  smsLoginTaxStation: { path: '/v3/equipment/sms-login-tax-station', timeout: TIMEOUTS.smsLogin },
  smsLoginAutonomous: { path: '/v3/equipment/sms-login-autonomous-tax-station', timeout: TIMEOUTS.long },
  qrCode: { path: '/v3/equipment/jc-get-qr-code', timeout: TIMEOUTS.long },
  smsTaxStation: { path: '/v3/equipment/get-sms-tax-station', timeout: TIMEOUTS.default },
  smsAutonomous: { path: '/v3/equipment/get-sms-autonomous-tax-station', timeout: TIMEOUTS.long },
} as const;

/** Sandbox bureau limits (domain.md §7.3, after 诺诺): one new QR a minute, 20 a day; SMS 20 a day. */
export const REAL_NAME_LIMITS = {
  qrPerMinute: 1,
  qrPerDay: 20,
  smsPerDay: 20,
  qrTtlSeconds: 180,
  smsTtlSeconds: 300,
  loginTtlHours: 3,
} as const;

/** spec §4: SMS mode applies to the listed channels with way "1". */
export function isRealNameSmsMode(channel: string, authWay: string): boolean {
  return authWay === AUTH_WAY.sms && (REAL_NAME_SMS_CHANNELS as readonly string[]).includes(channel);
}
