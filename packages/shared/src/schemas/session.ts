import { z } from 'zod';
import type { MenuEntry } from '../constants/menu.ts';
import { text } from '../validation/text.ts';
import { PG_INT_MAX } from './common.ts';

export const orgSchema = z.object({ org_id: z.number(), name: z.string(), is_current: z.boolean() });
export const setOrgBodySchema = z.object({ org_id: z.coerce.number().int().positive() });

export const clientListBodySchema = z.object({ keyword: text().max(64).optional() });
export const clientSchema = z.object({
  client_id: z.number(),
  org_id: z.number(),
  name: z.string(),
  tax_code: z.string(),
  industry: z.enum(['general', 'hotel']),
  taxpayer_type: z.enum(['general', 'small']),
});
export type ClientItem = z.infer<typeof clientSchema>;

export const storeListQuerySchema = z.object({ client_id: z.coerce.number().int().positive() });
export const storeSchema = z.object({
  client_store_id: z.number(),
  client_id: z.number(),
  name: z.string(),
  code: z.string(),
});
export type StoreItem = z.infer<typeof storeSchema>;

export const menuEntrySchema = z.object({
  url: z.string(),
  is_auth: z.union([z.literal(0), z.literal(1)]),
  is_gray: z.union([z.literal(0), z.literal(1)]),
  is_need_pay: z.union([z.literal(0), z.literal(1)]),
  is_new_client: z.union([z.literal(0), z.literal(1)]),
  is_gray_from_bookkeeping: z.union([z.literal(0), z.literal(1)]),
}) satisfies z.ZodType<MenuEntry>;
export const menuListResponseSchema = z.object({ list: z.array(menuEntrySchema) });

export const publicNoticeSchema = z
  .object({ id: z.number(), title: z.string(), content: z.string() })
  .nullable();
export const readNoticeBodySchema = z.object({ id: z.coerce.number().int().positive().max(PG_INT_MAX) });
