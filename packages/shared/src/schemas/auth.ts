import { z } from 'zod';
import { text } from '../validation/text.ts';
import { flag, mobileSchema, pictureCodeSchema, smsCodeSchema } from './common.ts';

export const pictureCodeResponseSchema = z.object({ picture: z.string(), unique_code: z.string() });
export const publicKeyResponseSchema = z.object({ key_id: z.string(), public_key: z.string() });

/** Password fields travel RSA-OAEP encrypted with the server's public key (architecture.md §7). */
export const passwordCipher = text().min(16).max(2048);

export const accountLoginBodySchema = z.object({
  account: text().trim().min(1).max(64),
  password: passwordCipher,
  picture_code: pictureCodeSchema,
  unique_code: text().min(1).max(64),
  secure_id: text().max(128).optional(),
});

export const userInfoSchema = z.object({
  user_id: z.number(),
  account: z.string(),
  nickname: z.string(),
  mobile: z.string(),
  plain_mobile: z.string(),
  need_contract: z.number(),
  tax_rate_change_tips: z.number(),
  is_weak_password: flag,
  password_expired: flag,
  source: z.string(),
  platform: z.string(),
  org_id: z.number().nullable(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const loginResponseSchema = z.object({
  token: z.string(),
  expires_in: z.number(),
  secure_id: z.string().optional(),
  user: userInfoSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const mfaCheckBodySchema = z.object({
  account: text().trim().min(1).max(64),
  secure_id: text().max(128).optional(),
});
export const mfaCheckResponseSchema = z.object({ need_verify: flag });

export const smsSendResponseSchema = z.object({ number: z.number() });
export const regSmsBodySchema = z.object({
  mobile: mobileSchema,
  picture_code: pictureCodeSchema,
  unique_code: text().min(1).max(64),
});
export const sendSmsBodySchema = z.object({
  mobile: mobileSchema.optional(),
  type: z.enum(['reset_password', 'login', 'bind_mobile']),
  picture_code: pictureCodeSchema,
  unique_code: text().min(1).max(64),
});

/**
 * The phone-verification dialog's code request (issue 24 item 2): the ticket of account-login's 11007
 * answer stands for the password and the picture code already given, so neither is asked again, and
 * the code goes to the account's bound mobile — never to a number typed in.
 */
export const mfaTicketSmsBodySchema = z.object({
  account: text().trim().min(1).max(64),
  mfa_ticket: text().min(1).max(256),
});
/** `mobile`: the bound mobile, masked (138****0001) */
export const mfaTicketSmsResponseSchema = z.object({ number: z.number(), mobile: z.string() });

export const mfaLoginBodySchema = z.object({
  account: text().trim().min(1).max(64),
  /** from account-login's 11007 answer: the password and picture code were accepted (no password here) */
  mfa_ticket: text().min(1).max(256),
  /** the bound mobile (spec §7); optional: the ticket names the account, whose own mobile is used */
  mobile: mobileSchema.optional(),
  sms_code: smsCodeSchema,
  secure_id: text().max(128).optional(),
});

export const checkSecureIdBodySchema = z
  .object({
    token: text().max(256).optional(),
    ticket: text().max(256).optional(),
    app_id: text().max(16).optional(),
    secure_id: text().max(128).optional(),
  })
  .refine((b) => Boolean(b.token) !== Boolean(b.ticket), { message: '缺少登录凭证' });
export const checkSecureIdResponseSchema = z.object({
  auth_status: z.union([z.literal(1), z.literal(2)]),
  token: z.string().optional(),
  mobile: z.string().optional(),
  source: z.string(),
  user: userInfoSchema.optional(),
});

export const verifySecureIdMobileBodySchema = z.object({
  sms_captcha: smsCodeSchema,
  mobile: mobileSchema,
  token: text().max(256).optional(),
  ticket: text().max(256).optional(),
  app_id: text().max(16).optional(),
});
export const verifySecureIdMobileResponseSchema = z.object({
  token: z.string(),
  secure_id: z.string(),
  source: z.string(),
  user: userInfoSchema,
});

export const qrCodeResponseSchema = z.object({
  qr_id: z.string(),
  qr_code: z.string(),
  expires_in: z.number(),
});
export const loginStatusQuerySchema = z.object({ qr_id: text().min(1).max(64) });
export const loginStatusResponseSchema = z.object({
  status: z.enum(['waiting', 'scanned', 'confirmed', 'expired']),
  token: z.string().optional(),
  user: userInfoSchema.optional(),
});

export const logoutResponseSchema = z.object({ redirect_url: z.string().nullable() });

export const resetPasswordBodySchema = z.object({
  mobile_code: smsCodeSchema,
  new_password: passwordCipher,
  password_confirm: passwordCipher,
});

export const wecomLoginBodySchema = z.object({
  code: text().min(1).max(128),
  appid: text().max(64).optional(),
});
export const wecomLoginResponseSchema = z.object({
  corp_id: z.string(),
  qw_user_id: z.string(),
  is_register: flag,
  role: z.number(),
  token: z.string().optional(),
  user: userInfoSchema.optional(),
});

/** Partner sign-on app ids and source 22 (spec §9), as the wire carries them. */
export const partnerAppIdSchema = z.enum(['1003', '1014', '22']);

// Sandbox controls (outside production only, architecture.md §1): the demo and the tests stand in
// for the phone that scans, the partner that issues tickets and the work app that issues codes.
export const devQrConfirmBodySchema = z.object({
  qr_id: text().min(1).max(64),
  account: text().trim().min(1).max(64),
  step: z.enum(['scan', 'confirm']).default('confirm'),
});
export const devQrConfirmResponseSchema = z.object({ status: z.enum(['scanned', 'confirmed']) });

/** the demo and the tests show the public notice to an account again (it has read it) */
export const devNoticeUnreadBodySchema = z.object({ account: text().trim().min(1).max(64) });

export const devSsoIssueBodySchema = z.object({
  account: text().trim().min(1).max(64),
  kind: z.enum(['ticket', 'token']).default('ticket'),
  app_id: partnerAppIdSchema,
});
export const devSsoIssueResponseSchema = z.object({ ticket: z.string() });

export const devWecomIssueCodeBodySchema = z.object({
  corp_id: text().trim().min(1).max(64),
  qw_user_id: text().trim().min(1).max(64),
  appid: text().max(64).default('sandbox'),
});
export const devWecomIssueCodeResponseSchema = z.object({ code: z.string() });
