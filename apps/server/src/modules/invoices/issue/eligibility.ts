import { dec, INVOICE_CODE, messageFor } from '@kaipiao/shared';
import { isDigitalType } from '../../../channels/numbers.ts';
import type { LeftJoined, RawRow } from '../../../db/rows.ts';
import type { taxDevices } from '../../../db/schema/index.ts';
import { AppError } from '../../../lib/app-error.ts';

/**
 * The device rule, written once (issue 19 item 2): may this store issue this invoice through this
 * device? Every issuing path (single, batch rows, scan requests, hosted devices — all through
 * `issueBlue`) and the batch upload's device check use these rules; the bureau (the channel)
 * enforces its own copy again, atomically, as a real bureau would.
 *
 * Each rule has its SQL predicate under the same code in eligibility-sql.ts: the insert of a new
 * invoice filters by the SQL (so a refused invoice leaves no row), and the TypeScript names the
 * refusal. eligibility.test.ts proves the two agree on generated device states.
 */

type DeviceRaw = RawRow<typeof taxDevices>;

/**
 * What the rules read about a device, as the issuing statement selects it (issue/repo.ts `ctx`): the
 * device's columns, left-joined (`d.id as device_id`, `d.status as device_status`; `quota_used` is
 * the month of the check's, 0 when the stored month is an earlier one).
 */
export type DeviceFacts = LeftJoined<
  { device_id: DeviceRaw['id']; device_status: DeviceRaw['status'] } & Pick<
    DeviceRaw,
    'invoice_types' | 'online' | 'locked' | 'per_invoice_limit' | 'monthly_quota' | 'quota_used'
  >
> & {
  /** the store is bound to the device, or granted it while it is hosted */
  bound: boolean;
  /** blank stock of the invoice's kind (older kinds) */
  stock: number | string;
};

export type IssueAsk = { invoiceType: string; amount: string };

type Rule = {
  code: number;
  /** `binding`: the device as such (a batch upload checks these); `issue`: this invoice on it */
  stage: 'binding' | 'issue';
  holds: (d: DeviceFacts, ask: IssueAsk) => boolean;
  message?: (d: DeviceFacts, ask: IssueAsk) => string;
};

const quotaLeft = (d: DeviceFacts) => dec(d.monthly_quota ?? '0').minus(d.quota_used ?? '0');

/** In the order a refusal is named. */
export const DEVICE_RULES: readonly Rule[] = [
  {
    code: INVOICE_CODE.DEVICE_NOT_FOUND,
    stage: 'binding',
    holds: (d) => d.device_id !== null,
  },
  { code: INVOICE_CODE.DEVICE_NOT_BOUND, stage: 'binding', holds: (d) => d.bound },
  {
    code: INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED,
    stage: 'issue',
    holds: (d, a) => d.invoice_types?.includes(a.invoiceType) === true,
  },
  {
    code: INVOICE_CODE.DEVICE_DISABLED,
    stage: 'binding',
    holds: (d) => d.device_status === 'active',
  },
  {
    code: INVOICE_CODE.DEVICE_OFFLINE,
    stage: 'issue',
    holds: (d) => d.online === true,
  },
  {
    code: INVOICE_CODE.DEVICE_LOCKED,
    stage: 'issue',
    holds: (d) => d.locked === false,
  },
  {
    code: INVOICE_CODE.OVER_INVOICE_LIMIT,
    stage: 'issue',
    holds: (d, a) => d.per_invoice_limit !== null && dec(a.amount).lessThanOrEqualTo(d.per_invoice_limit),
    message: (d) => `${messageFor(INVOICE_CODE.OVER_INVOICE_LIMIT)}（单张限额 ${d.per_invoice_limit} 元）`,
  },
  {
    code: INVOICE_CODE.QUOTA_EXCEEDED,
    stage: 'issue',
    holds: (d, a) => d.monthly_quota === null || dec(a.amount).lessThanOrEqualTo(quotaLeft(d)),
    message: (d) =>
      `${messageFor(INVOICE_CODE.QUOTA_EXCEEDED)}（本月剩余额度 ${quotaLeft(d).toFixed(2)} 元）`,
  },
  {
    code: INVOICE_CODE.STOCK_EXHAUSTED,
    stage: 'issue',
    holds: (d, a) => isDigitalType(a.invoiceType) || Number(d.stock) >= 1,
  },
];

/** The first rule the device breaks for this invoice (all stages), or null when it may issue. */
export function deviceRefusal(d: DeviceFacts, ask: IssueAsk, stage?: Rule['stage']): AppError | null {
  for (const rule of DEVICE_RULES) {
    if (stage && rule.stage !== stage) continue;
    if (!rule.holds(d, ask)) return new AppError(rule.code, rule.message?.(d, ask));
  }
  return null;
}

/** Throws the refusal of the first rule the device breaks for this invoice. */
export function assertDeviceCanIssue(d: DeviceFacts, ask: IssueAsk): void {
  const refusal = deviceRefusal(d, ask);
  if (refusal) throw refusal;
}

/** Throws when the device as such is unusable for the store (found, bound, active): a batch upload. */
export function assertDeviceUsable(d: DeviceFacts): void {
  const refusal = deviceRefusal(d, { invoiceType: '', amount: '0' }, 'binding');
  if (refusal) throw refusal;
}
