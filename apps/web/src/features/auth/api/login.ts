import type { LoginResponse, UserInfo } from '@kaipiao/shared';
import { api } from '../../../lib/api.ts';
import type { SecureIdAnswer, WecomAnswer } from '../utils/login-routing.ts';

// spec §7 login calls; request/response shapes follow packages/shared/src/schemas/auth.ts.
export type PictureCode = { picture: string; unique_code: string };
type SmsWait = { number: number };

export const getPictureCode = () => api.get<PictureCode>('/v3/user/picture-code', { showError: false });

export const accountLogin = (body: {
  account: string;
  password: string;
  picture_code: string;
  unique_code: string;
  secure_id?: string;
}) => api.post<LoginResponse>('/v3/user/account-login', body, { showError: false });

export const sendLoginSms = (body: { mobile: string; picture_code: string; unique_code: string }) =>
  api.post<SmsWait>('/v3/multi-factor/reg-sms', body);

/**
 * The two-factor code, to the bound mobile of the account the ticket names: no picture code again, no
 * number typed (issue 24 item 2). `mobile` in the answer: that mobile, masked.
 */
export const sendTicketSms = (body: { account: string; mfa_ticket: string }) =>
  api.post<SmsWait & { mobile: string }>('/v3/multi-factor/ticket-sms', body);

/** `mfa_ticket`: what account-login answered with 11007 after the password and picture code */
export const multiFactorLogin = (body: {
  account: string;
  mfa_ticket: string;
  mobile?: string;
  sms_code: string;
  secure_id?: string;
}) => api.post<LoginResponse>('/v3/multi-factor/login', body);

export const checkSecureId = (body: {
  token?: string;
  ticket?: string;
  app_id?: string;
  secure_id?: string;
}) => api.post<SecureIdAnswer & { user?: UserInfo }>('/v3/multi-factor/check-secure-id', body);

export const verifySecureIdMobile = (body: {
  sms_captcha: string;
  mobile: string;
  token?: string;
  ticket?: string;
  app_id?: string;
}) =>
  api.post<{ token: string; secure_id: string; source: string; user: UserInfo }>(
    '/v3/multi-factor/verify-secure-id-mobile',
    body,
  );

export const wecomLogin = (body: { code: string; appid?: string }) =>
  api.post<WecomAnswer & { user?: UserInfo }>('/v3/enterprise-we-chat/get-qwuserid-and-corpid', body, {
    showError: false,
  });

export type QrCode = { qr_id: string; qr_code: string; expires_in: number };
export type QrStatus = {
  status: 'waiting' | 'scanned' | 'confirmed' | 'expired';
  token?: string;
  user?: UserInfo;
};

export const getLoginQrCode = () => api.get<QrCode>('/v3/user/qr-code');

export const getQrLoginStatus = (qr_id: string, signal?: AbortSignal) =>
  api.get<QrStatus>('/v3/user/get-login-status', { params: { qr_id }, showError: false, signal });
