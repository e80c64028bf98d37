import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { clients } from './tenancy.ts';

/**
 * A red-letter request of one blue invoice (domain.md §3): `kind` confirm = 数电 红字发票信息确认单
 * (`state` 01…10), info_sheet = 红字增值税专用发票信息表 of the older 专票 kinds, direct = an older 普票
 * reversed without a form (`state` applying | approved | rejected | revoked for both). Amounts are
 * negative; `lines` holds the red lines keyed by the blue line they reverse (`blue_line_no`). Forms
 * that are not void reserve their amount against the blue invoice's remainder.
 */
export const redForms = pgTable(
  'red_forms',
  {
    id: bigserial({ mode: 'number' }),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    storeId: integer().notNull(),
    deviceId: integer().notNull(),
    blueInvoiceId: bigint({ mode: 'number' }).notNull(),
    kind: text().notNull(),
    /** 确认单编号 (20 digits) / 信息表编号 (16 digits); '' for direct reversals */
    formNo: text().notNull().default(''),
    /** seller (销方录入) | buyer (购方录入) */
    initiator: text().notNull().default('seller'),
    /** 01 开票有误 | 02 销货退回 | 03 服务中止 | 04 销售折让 */
    reason: text().notNull(),
    full: boolean().notNull(),
    state: text().notNull(),
    totalAmount: numeric({ precision: 18, scale: 2 }).notNull(),
    totalTax: numeric({ precision: 18, scale: 2 }).notNull(),
    totalWithTax: numeric({ precision: 18, scale: 2 }).notNull(),
    lines: jsonb().notNull(),
    remark: text().notNull().default(''),
    redInvoiceId: bigint({ mode: 'number' }),
    /** pending confirmation (02 / 03) ends here: 72 hours, then 07 */
    expiresAt: timestamp({ withTimezone: true }),
    decidedAt: timestamp({ withTimezone: true }),
    createdBy: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'red_forms_pkey', columns: [t.id, t.clientId] }),
    index('red_forms_client_created_idx').on(t.clientId, t.createdAt.desc(), t.id.desc()),
    index('red_forms_blue_idx').on(t.blueInvoiceId),
    index('red_forms_pending_expiry_idx').on(t.expiresAt).where(sql`${t.state} in ('02', '03')`),
  ],
);

/**
 * The sandbox bureau's view of an issued invoice that the console cannot see for itself: whether the
 * buyer has used it (勾选 / 入账, which makes a red form need the buyer's confirmation) and voids the
 * channel was told of (作废).
 */
export const sandboxInvoiceStates = pgTable(
  'sandbox_invoice_states',
  {
    clientId: integer().notNull(),
    invoiceId: bigint({ mode: 'number' }).notNull(),
    buyerUsed: boolean().notNull().default(false),
    voidedAt: timestamp({ withTimezone: true }),
    voidReason: text().notNull().default(''),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.invoiceId] })],
);
