import { z } from 'zod';
import { DEVICE_KINDS, TERMS } from '../glossary/terms.ts';
import { text } from '../validation/text.ts';
import { PG_INT_MAX } from './common.ts';

/** Stores, devices, tax accounts, invoice stock and monthly filing (issue 5; domain.md §7). */

/** The glossary's device kinds and the channels' own. */
export const DEVICE_KIND_LABELS: Record<string, string> = {
  ...DEVICE_KINDS,
  virtual_ukey: '虚拟UKey',
  baiwang_server: '百旺服务器',
  leqi: '乐企',
};

/** 数电 identities of a natural person linked to the business (domain.md §7.2). */
export const TAX_IDENTITIES = {
  '01': '法定代表人',
  '02': '财务负责人',
  '03': '办税员',
  '05': '管理员',
  '09': '开票员',
} as const;

export const TAX_CHANNELS = {
  GP900000: '电子税务局（标准）',
  GP900003: '电子税务局（通道3）',
  GP900004: '电子税务局（通道4）',
  GP900005: '电子税务局（通道5）',
  GP900006: '电子税务局（通道6）',
} as const;

export const LOGIN_STATES = { online: '已登录', offline: '未登录' } as const;
export const REAL_NAME_STATES = {
  none: '未认证',
  pending: '待认证',
  verified: '已认证',
  expired: '认证已过期',
} as const;

const mobile = text('手机号')
  .trim()
  .regex(/^1\d{10}$/, '请输入正确的手机号');

// ---- stores ----------------------------------------------------------------------------------

export const storeBodySchema = z.object({
  client_store_id: z.number().int().positive().max(PG_INT_MAX).optional(),
  name: text({ label: `${TERMS.store}名称`, error: `请输入${TERMS.store}名称` })
    .trim()
    .min(1, `请输入${TERMS.store}名称`)
    .max(50, `${TERMS.store}名称最多50个字`),
  code: text({ label: `${TERMS.store}编号`, error: `请输入${TERMS.store}编号` })
    .trim()
    .regex(/^[0-9A-Za-z_-]{1,20}$/, `${TERMS.store}编号为1-20位字母、数字、-或_`),
  /** default invoice kinds of the store's clerks */
  default_invoice_types: z.array(text()).max(10).default([]),
  /** devices the store issues through */
  device_ids: z.array(z.number().int().positive()).max(100).default([]),
  remark: text({ multiline: true }).trim().max(200).default(''),
});
export type StoreBody = z.infer<typeof storeBodySchema>;

export const storeStatusBodySchema = z.object({
  client_store_id: z.number().int().positive().max(PG_INT_MAX),
  status: z.enum(['active', 'disabled']),
});

export const storeItemSchema = z.object({
  client_store_id: z.number(),
  name: z.string(),
  code: z.string(),
  status: z.string(),
  default_invoice_types: z.array(z.string()),
  remark: z.string(),
  devices: z.array(z.object({ device_id: z.number(), name: z.string(), kind: z.string() })),
});
export type StoreItem = z.infer<typeof storeItemSchema>;

// ---- devices ---------------------------------------------------------------------------------

export const deviceItemSchema = z.object({
  device_id: z.number(),
  name: z.string(),
  kind: z.string(),
  kind_name: z.string(),
  channel: z.string(),
  device_no: z.string(),
  extension_no: z.number(),
  parent_id: z.number().nullable(),
  is_main: z.boolean(),
  hosted: z.boolean(),
  online: z.boolean(),
  locked: z.boolean(),
  status: z.string(),
  invoice_types: z.array(z.string()),
  per_invoice_limit: z.string(),
  monthly_quota: z.string().nullable(),
  quota_used: z.string(),
  stock: z.record(z.string(), z.number()),
  stores: z.array(z.object({ client_store_id: z.number(), name: z.string() })),
});
export type DeviceItem = z.infer<typeof deviceItemSchema>;

export const deviceDetailSchema = deviceItemSchema.extend({
  ranges: z.array(
    z.object({
      invoice_type: z.string(),
      invoice_code: z.string(),
      start_no: z.number(),
      end_no: z.number(),
      next_no: z.number(),
      left: z.number(),
    }),
  ),
  branches: z.array(z.object({ device_id: z.number(), name: z.string(), extension_no: z.number() })),
  movements: z.array(z.lazy(() => stockMovementSchema)),
  filing: z.lazy(() => filingItemSchema).nullable(),
});
export type DeviceDetail = z.infer<typeof deviceDetailSchema>;

export const checkTaxItemSchema = z.object({
  device_id: z.number(),
  name: z.string(),
  online: z.boolean(),
  locked: z.boolean(),
  /** 数电: the bureau session is down or the bureau asks for an authorisation (real-name module) */
  need_auth: z.boolean(),
  message: z.string(),
});

/** GET /v3/equipment/check-tax: spec §4 the socket opens when `check_auth` is 1 */
export const checkTaxSchema = z.object({
  /** 1: a listed device needs real-name authorisation */
  check_auth: z.union([z.literal(0), z.literal(1)]),
  devices: z.array(checkTaxItemSchema),
});
export type CheckTax = z.infer<typeof checkTaxSchema>;

// ---- tax accounts ----------------------------------------------------------------------------

export const taxAccountBodySchema = z.object({
  id: z.number().int().positive().max(PG_INT_MAX).optional(),
  account: text().trim().min(1, `请输入${TERMS.taxBureauAccount}`).max(50),
  /** plain on create; empty on edit keeps the stored one. Never returned. */
  password: text().max(64).default(''),
  /** required on create; empty on edit keeps the stored one */
  phone: z.union([mobile, z.literal('')]).default(''),
  identity: z.enum(['01', '02', '03', '05', '09']),
  person_name: text().trim().min(1, '请输入姓名').max(20),
  channel: z.enum(['GP900000', 'GP900003', 'GP900004', 'GP900005', 'GP900006']),
  device_id: z.number().int().positive().max(PG_INT_MAX).nullable().default(null),
});
export type TaxAccountBody = z.input<typeof taxAccountBodySchema>;

export const taxAccountItemSchema = z.object({
  id: z.number(),
  account: z.string(),
  /** masked 176****2696 */
  phone: z.string(),
  identity: z.string(),
  person_name: z.string(),
  channel: z.string(),
  device_id: z.number().nullable(),
  device_name: z.string(),
  white_listed: z.boolean(),
  login_state: z.string(),
  real_name_state: z.string(),
  session_expires_at: z.string().nullable(),
  status: z.string(),
  has_password: z.boolean(),
});
export type TaxAccountItem = z.infer<typeof taxAccountItemSchema>;

export const healthRowSchema = z.object({
  tax_account_id: z.number(),
  account: z.string(),
  person_name: z.string(),
  device_id: z.number().nullable(),
  device_name: z.string(),
  clerk_id: z.number(),
  clerk_name: z.string(),
  login_state: z.string(),
  real_name_state: z.string(),
  session_expires_at: z.string().nullable(),
  /** seconds of session left; 0 when logged out */
  seconds_left: z.number(),
});
export type HealthRow = z.infer<typeof healthRowSchema>;

// ---- stock -----------------------------------------------------------------------------------

export const applyStockBodySchema = z.object({
  device_id: z.number().int().positive().max(PG_INT_MAX),
  invoice_type: text().min(1),
  count: z.number().int(),
});
export const moveStockBodySchema = z.object({
  /** distribute: the main disc; return: the branch disc */
  device_id: z.number().int().positive().max(PG_INT_MAX),
  target_device_id: z.number().int().positive().max(PG_INT_MAX),
  invoice_type: text().min(1),
  count: z.number().int().positive(`${TERMS.quantity}须大于0`).max(100000),
});
export type MoveStockBody = z.infer<typeof moveStockBodySchema>;

export const stockMovementSchema = z.object({
  id: z.number(),
  kind: z.string(),
  device_id: z.number(),
  device_name: z.string(),
  target_device_id: z.number().nullable(),
  target_device_name: z.string(),
  invoice_type: z.string(),
  count: z.number(),
  invoice_code: z.string(),
  start_no: z.number().nullable(),
  end_no: z.number().nullable(),
  created_at: z.string(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;
export const STOCK_KINDS = { apply: '领票', distribute: '分发', return: '退回' } as const;

// ---- filing ----------------------------------------------------------------------------------

export const filingItemSchema = z.object({
  device_id: z.number(),
  device_name: z.string(),
  kind: z.string(),
  period: z.string(),
  in_window: z.boolean(),
  window_end: z.string(),
  copied_at: z.string().nullable(),
  cleared_at: z.string().nullable(),
  /** 已到抄税期 */
  copy_due: z.boolean(),
  /** 已到锁死期: the window passed without 清卡 */
  lock_due: z.boolean(),
  locked: z.boolean(),
  invoice_count: z.number(),
  total_amount: z.string(),
  total_tax: z.string(),
  upload_no: z.string(),
});
export type FilingItem = z.infer<typeof filingItemSchema>;
export const filingBodySchema = z.object({ device_id: z.number().int().positive().max(PG_INT_MAX) });

/** A tax account's phone as lists show it: 176****2696 (the one rule, validation/patterns.ts). */
export { maskPhone } from '../validation/patterns.ts';
