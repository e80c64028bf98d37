import { randomBytes } from 'node:crypto';
import {
  type BlueInvoiceRequest,
  beijingMonth,
  blueInvoiceRequestSchema,
  computeLine,
  computeTotals,
  usccCheckChar,
} from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { call, DEMO, login } from '../../../test/helper.ts';
import type { App } from '../../app.ts';
import { isDigitalType } from '../../channels/numbers.ts';
import { clientStores, clients, taxDevices } from '../../db/schema/index.ts';
import { type NewInvoice, requestHash } from './repo.ts';
import { validateBlue } from './validate.ts';

/** A buyer tax code with a correct USCC check character. */
export const BUYER_TAX_CODE = (() => {
  const first17 = '91330100MA2B3C4D5';
  return `${first17}${usccCheckChar(first17)}`;
})();

export const serial = () => `T${randomBytes(10).toString('hex')}`;

/** One item line computed the way the form computes it (tax-inclusive entry by default). */
export function line(
  amountWithTax: string,
  opts: Partial<BlueInvoiceRequest['goods_info'][number]> & { quantity?: string | null } = {},
) {
  const rate = opts.tax_rate ?? '0.06';
  const quantity = opts.quantity ?? null;
  const c = computeLine({
    priceIncludesTax: true,
    taxRate: rate,
    amount: amountWithTax,
    quantity,
    lineKind: opts.line_kind ?? 0,
  });
  return {
    line_kind: 0 as 0 | 1 | 2,
    goods_id: null,
    tax_class_code: '3040201010000000000',
    short_name: '信息技术服务',
    name: '软件开发服务',
    spec: '',
    unit: quantity ? '项' : '',
    quantity: c.quantity,
    price: c.unitPriceWithTax,
    amount: c.amount,
    tax_amount: c.taxAmount,
    amount_with_tax: c.amountWithTax,
    tax_rate: rate,
    preferential_code: '',
    zero_rate_flag: '' as const,
    ...opts,
  };
}

/** A valid blue-invoice payload: 82 on the given device, lines summed into the totals. */
export function payload(
  deviceId: number,
  opts: {
    invoiceType?: string;
    lines?: ReturnType<typeof line>[];
    extra?: Record<string, unknown>;
    info?: Record<string, unknown>;
    buyer?: Record<string, unknown>;
  } = {},
) {
  const lines = opts.lines ?? [line('1060.00', { quantity: '2' })];
  const t = computeTotals(lines.map((l) => ({ amount: l.amount, taxAmount: l.tax_amount })));
  return {
    serial_no: serial(),
    device_id: deviceId,
    invoice_type: opts.invoiceType ?? '82',
    buyer: {
      title_type: 2,
      name: '杭州西溪数据服务有限公司',
      tax_code: BUYER_TAX_CODE,
      email: 'finance@example.com',
      ...opts.buyer,
    },
    goods_info: lines,
    invoice_info: {
      price_includes_tax: true,
      total_amount: t.totalAmount,
      total_tax: t.totalTax,
      total_price_with_tax: t.totalWithTax,
      remark: '',
      ...opts.info,
    },
    send_email: false,
    ...opts.extra,
  };
}

export type Fixture = Awaited<ReturnType<typeof invoicingFixture>>;

/** Logins, demo ids, stores and devices by name. */
export async function invoicingFixture(app: App, db: App['db']) {
  const admin = await login(app, DEMO.admin.account);
  const clerk = await login(app, DEMO.clerk.account);
  const [software] = await db.select().from(clients).where(eq(clients.taxCode, DEMO.software.taxCode));
  const [hotel] = await db.select().from(clients).where(eq(clients.taxCode, DEMO.hotel.taxCode));
  const stores = await db.select().from(clientStores);
  const store = (code: string) => stores.find((s) => s.code === code)!.id;
  const devices = await db.select().from(taxDevices);
  const device = (clientId: number, pick: (d: (typeof devices)[number]) => boolean) =>
    devices.find((d) => d.clientId === clientId && pick(d))!.id;
  const ids = {
    software: software!.id,
    hotel: hotel!.id,
    hq: store('HQ'),
    bj: store('BJ'),
    sh: store('SH'),
    bs: store('BS'),
    lj: store('LJ'),
    digital: device(software!.id, (d) => d.kind === 'digital'),
    ukey: device(software!.id, (d) => d.kind === 'ukey'),
    goldenMain: device(software!.id, (d) => d.kind === 'golden_disc' && d.extensionNo === 0),
    goldenBranch: device(software!.id, (d) => d.kind === 'golden_disc' && d.extensionNo === 1),
    hotelDigital: device(hotel!.id, (d) => d.kind === 'digital'),
    hotelDisc: device(hotel!.id, (d) => d.kind === 'tax_disc'),
  };
  const scope = (clientId: number, sid: number) => `client_id=${clientId}&sid=${sid}`;
  const issue = (body: unknown, opts: { token?: string; clientId?: number; sid?: number } = {}) =>
    call(
      app,
      'POST',
      `/v3/online-invoicing/blue?${scope(opts.clientId ?? ids.software, opts.sid ?? ids.hq)}`,
      { token: opts.token ?? admin, body },
    );
  const dev = (path: string, body: unknown) => call(app, 'POST', `/v3/dev/channel/${path}`, { body });
  return { admin, clerk, ids, scope, issue, dev };
}

/**
 * The invoice the service hands the statements (NewInvoice) for a valid payload of the software
 * business at 总部, for tests that call at-once.ts or the repos directly.
 */
export function newInvoice(
  clientId: number,
  storeId: number,
  body: ReturnType<typeof payload>,
  opts: { asyncCommit?: boolean } = {},
): NewInvoice {
  const req = blueInvoiceRequestSchema.parse(body);
  const { issues, lines } = validateBlue(req, { taxCode: DEMO.software.taxCode, taxpayerType: 'general' });
  if (issues.length > 0) throw new Error(`newInvoice: ${issues[0]!.message}`);
  return {
    clientId,
    storeId,
    deviceId: req.device_id,
    serialNo: req.serial_no,
    requestHash: requestHash(req),
    userId: null,
    req,
    lines,
    specificBusiness: null,
    month: beijingMonth(),
    digital: isDigitalType(req.invoice_type),
    asyncCommit: opts.asyncCommit ?? true,
  };
}
