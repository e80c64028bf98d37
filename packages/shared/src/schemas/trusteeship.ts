import { z } from 'zod';
import { text } from '../validation/text.ts';
import { PG_INT_MAX } from './common.ts';

/** Trusteeship (托管, domain.md §8.4): hosting a device or 数电 account for issuing from the browser. */

export const TRUSTEESHIP_MODES = {
  device: '设备托管',
  account: '账号托管',
} as const;
export type TrusteeshipMode = keyof typeof TRUSTEESHIP_MODES;

export const TRUSTEESHIP_STATUS = {
  none: '未托管',
  hosted: '托管中',
  revoked: '已撤销',
} as const;
export type TrusteeshipStatus = keyof typeof TRUSTEESHIP_STATUS;

const storeIds = z
  .array(z.number().int().positive())
  .max(500)
  .transform((ids) => [...new Set(ids)]);

export const handOverBodySchema = z.object({
  device_id: z.number().int().positive().max(PG_INT_MAX),
  /** stores that may issue through the hosted device */
  store_ids: storeIds,
  /** 办税小号 / contact phone for the hosting centre's SMS codes (optional) */
  contact_mobile: text()
    .trim()
    .regex(/^(1\d{10})?$/, '请输入正确的手机号')
    .default(''),
  /** 《设备托管服务协议》 accepted */
  agree: z.boolean(),
});
export type HandOverBody = z.infer<typeof handOverBodySchema>;

export const grantStoresBodySchema = z.object({
  device_id: z.number().int().positive().max(PG_INT_MAX),
  store_ids: storeIds,
});
export type GrantStoresBody = z.infer<typeof grantStoresBodySchema>;

export const revokeBodySchema = z.object({
  device_id: z.number().int().positive().max(PG_INT_MAX),
  reason: text({ label: '撤销原因', multiline: true }).trim().max(200).default(''),
});
export type RevokeBody = z.infer<typeof revokeBodySchema>;

const storeRefSchema = z.object({ id: z.number(), name: z.string() });

export const trusteeshipItemSchema = z.object({
  device_id: z.number(),
  name: z.string(),
  kind: z.string(),
  kind_name: z.string(),
  device_no: z.string(),
  extension_no: z.number(),
  is_main: z.boolean(),
  mode: z.enum(['device', 'account']),
  status: z.enum(['none', 'hosted', 'revoked']),
  status_name: z.string(),
  /** cabinet slot / session host while hosted */
  location: z.string(),
  contact_mobile: z.string(),
  handed_over_at: z.string().nullable(),
  handed_over_by: z.string(),
  revoked_at: z.string().nullable(),
  revoke_reason: z.string(),
  /** reported by the channel (the hosting centre for a hosted device) */
  online: z.boolean(),
  locked: z.boolean(),
  invoice_types: z.array(z.string()),
  per_invoice_limit: z.string(),
  monthly_quota: z.string().nullable(),
  quota_used: z.string(),
  /** remaining blank stock per invoice type (discs) */
  stock: z.record(z.string(), z.number()),
  /** stores the device is bound to locally (device_stores) */
  bound_stores: z.array(storeRefSchema),
  /** stores granted hosted issuing */
  granted_stores: z.array(storeRefSchema),
});
export type TrusteeshipItem = z.infer<typeof trusteeshipItemSchema>;

export const trusteeshipListSchema = z.object({
  list: z.array(trusteeshipItemSchema),
  /** the business's stores, for the grant picker */
  stores: z.array(storeRefSchema),
});
export type TrusteeshipList = z.infer<typeof trusteeshipListSchema>;
