import { z } from 'zod';
import { MSG } from '../validation/messages.ts';
import { text } from '../validation/text.ts';
import { flag, PG_INT_MAX } from './common.ts';

// Real-name dialog calls (spec §3 real-name dialog data, §7 equipment calls). The device is named
// by device_id (ours); channel / tax_code / terminal_no are the spec's fields and are accepted too.

const deviceRef = {
  device_id: z.coerce.number().int().positive().max(PG_INT_MAX),
  channel: text().max(20).optional(),
  tax_code: text().max(20).optional(),
  terminal_no: text().max(40).optional(),
};

/** GET v3/equipment/get-real-person-auth; judge_invoice_status 1 = the non-initiative QR refresh */
export const realPersonAuthQuerySchema = z.object({
  ...deviceRef,
  judge_invoice_status: z.coerce.number().int().min(0).max(1).optional(),
});
export type RealPersonAuthQuery = z.infer<typeof realPersonAuthQuerySchema>;

/** spec §3 real-name dialog data */
export const realNameInfoSchema = z.object({
  device_id: z.number(),
  channel: z.string(),
  tax_code: z.string(),
  terminal_code: z.string(),
  tax_account: z.string(),
  tax_mobile: z.string(),
  name: z.string(),
  /** 0 税务APP, otherwise 个人所得税APP */
  auth_type: z.number(),
  /** 0 none, 1 QR valid, 2 authenticated, 3 QR expired, 4 log in to the app again */
  auth_status: z.number(),
  /** "1" SMS, "2" QR */
  auth_way: z.string(),
  ele_tax_login_type: z.string(),
  /** the tax-bureau session is up */
  logged_in: flag,
  login_expires_at: z.string().nullable(),
  /** base64 of the text to encode; '' when no valid QR */
  qrCode: z.string(),
  authStatus: z.number(),
});
export type RealNameInfo = z.infer<typeof realNameInfoSchema>;

/** POST /v3/equipment/jc-get-qr-code (initiative QR request) */
export const jcQrCodeBodySchema = z.object(deviceRef);
export const jcQrCodeResponseSchema = z.object({
  qrCode: z.string(),
  authStatus: z.number(),
  authType: z.number(),
});
export type JcQrCodeResponse = z.infer<typeof jcQrCodeResponseSchema>;

/** POST /v3/equipment/get-sms-tax-station | get-sms-autonomous-tax-station */
export const realNameSmsBodySchema = z.object(deviceRef);
export const realNameSmsResponseSchema = z.object({
  /** 1: the session is already up, no code was sent */
  logged_in: flag,
  /** seconds before another code may be asked for */
  wait_seconds: z.number(),
});
export type RealNameSmsResponse = z.infer<typeof realNameSmsResponseSchema>;

/** POST /v3/equipment/sms-login-tax-station | sms-login-autonomous-tax-station */
export const realNameSmsLoginBodySchema = z.object({
  ...deviceRef,
  phone: text().max(20).optional(),
  sms_code: text({ error: MSG.REAL_NAME_SMS_REQUIRED }).trim().min(1, MSG.REAL_NAME_SMS_REQUIRED).max(10),
});
export const realNameSmsLoginResponseSchema = z.object({ logged_in: flag, login_expires_at: z.string() });

/** spec §3 socket message, plus the device it concerns */
export const deviceAuthMessageSchema = z.object({
  type: z.literal('auth'),
  device_id: z.number(),
  qr_code: z.string(),
  auth_type: z.number(),
  auth_status: z.number(),
});
export type DeviceAuthMessage = z.infer<typeof deviceAuthMessageSchema>;

/** Sandbox bureau controls (POST /v3/dev/real-name/*), outside production only. */
export const devRealNameBodySchema = z.object({
  device_id: z.number().int().positive().max(PG_INT_MAX),
  auth_type: z.number().int().min(0).max(1).optional(),
  auth_way: z.enum(['1', '2']).optional(),
  ele_tax_login_type: z.enum(['1', '2']).optional(),
  tax_mobile: text()
    .regex(/^1\d{10}$/)
    .optional(),
  /** the next SMS send answers with code 10000 (it still sends) */
  sms_answer_10000: z.boolean().optional(),
});
export type DevRealNameBody = z.infer<typeof devRealNameBodySchema>;
