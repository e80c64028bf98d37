import { INVOICE_CODE } from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import { isDigitalType } from '../../../channels/numbers.ts';
import { DEVICE_RULES, type IssueAsk } from './eligibility.ts';

/**
 * The device rule of eligibility.ts as SQL over the columns of DeviceFacts (unqualified names),
 * one predicate per rule code: the insert of a new invoice filters by it (issue/repo.ts), so a
 * refused invoice leaves no row. eligibility.test.ts proves each predicate agrees with its rule.
 */
export const RULE_SQL: Record<number, (ask: IssueAsk) => SQL> = {
  [INVOICE_CODE.DEVICE_NOT_FOUND]: () => sql`device_id is not null`,
  [INVOICE_CODE.DEVICE_NOT_BOUND]: () => sql`bound`,
  [INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED]: (a) => sql`coalesce(${a.invoiceType} = any(invoice_types), false)`,
  [INVOICE_CODE.DEVICE_DISABLED]: () => sql`device_status = 'active'`,
  [INVOICE_CODE.DEVICE_OFFLINE]: () => sql`online`,
  [INVOICE_CODE.DEVICE_LOCKED]: () => sql`not locked`,
  [INVOICE_CODE.OVER_INVOICE_LIMIT]: (a) => sql`per_invoice_limit >= ${a.amount}::numeric`,
  [INVOICE_CODE.QUOTA_EXCEEDED]: (a) =>
    sql`(monthly_quota is null or coalesce(quota_used, 0) + ${a.amount}::numeric <= monthly_quota)`,
  [INVOICE_CODE.STOCK_EXHAUSTED]: (a) => sql`(${isDigitalType(a.invoiceType)} or stock >= 1)`,
};

/** Every rule as one SQL condition (a rule without its predicate fails loudly, not open). */
export const eligibleSql = (ask: IssueAsk): SQL =>
  sql.join(
    DEVICE_RULES.map((r) => {
      const predicate = RULE_SQL[r.code];
      if (!predicate) throw new Error(`device rule ${r.code} has no SQL predicate (eligibility-sql.ts)`);
      return sql`(${predicate(ask)})`;
    }),
    sql` and `,
  );

/**
 * The rule's binding half in SQL: the store may issue through the device — bound to it, or granted
 * it while the device is hosted (trusteeship; grant rows exist only while hosted). The issuing
 * statements, the issue form's device kinds and the batch upload's device check all use it.
 * Scalar subqueries, not EXISTS: inside an OR, PostgreSQL may run an EXISTS as a hashed subplan,
 * reading every binding of every business once per statement — which the group-commit statement's
 * generic plan chose (it guesses 100 request rows); a scalar subquery probes the primary key per
 * row, whatever the plan.
 */
export const storeMayUseDeviceSql = (deviceId: SQL, storeId: SQL) => sql`
  ((select 1 from device_stores ds where ds.device_id = ${deviceId} and ds.store_id = ${storeId} limit 1) is not null
    -- or a store granted hosted issuing (trusteeship module; rows exist only while hosted)
    or (select 1 from trusteeship_grants tg where tg.device_id = ${deviceId} and tg.store_id = ${storeId} limit 1)
      is not null)`;
