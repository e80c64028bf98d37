import { sql } from 'drizzle-orm';
import { type buildTestApp, call } from '../../../test/helper.ts';
import { BUYER_TAX_CODE, type Fixture } from '../invoices/test-fixtures.ts';

/** The scan tests' shared parts: an order item, a buyer's submission and the two kinds of caller. */

/** An order item (catering at 6%, the amount tax-inclusive) with overrides. */
export const item = (amount: string, extra: Record<string, unknown> = {}) => ({
  name: '餐饮服务',
  short_name: '餐饮服务',
  tax_class_code: '3070401000000000000',
  tax_rate: '0.06',
  amount_with_tax: amount,
  ...extra,
});

/** What a company buyer submits on the scan page for a code or request `token`, with overrides. */
export const buyer = (token: string, extra: Record<string, unknown> = {}) => ({
  token,
  title_type: 2,
  name: '杭州西溪数据服务有限公司',
  tax_code: BUYER_TAX_CODE,
  email: 'buyer@example.com',
  mobile: '13900000001',
  ...extra,
});

type App = Awaited<ReturnType<typeof buildTestApp>>;
export type ConsoleOpts = { body?: unknown; token?: string; clientId?: number; sid?: number; query?: string };

/**
 * The callers of a scan test: `console_` signs in as the admin (or `token`) in the software
 * company's 文三路总部 unless another business or store is given; `pub` is the buyer's phone, with
 * no session at all.
 */
export function scanCallers(t: () => App, f: () => Fixture) {
  const console_ = (method: 'GET' | 'POST', path: string, o: ConsoleOpts = {}) =>
    call(
      t().app,
      method,
      `${path}?${f().scope(o.clientId ?? f().ids.software, o.sid ?? f().ids.hq)}${o.query ? `&${o.query}` : ''}`,
      { token: o.token ?? f().admin, body: o.body },
    );
  const pub = (method: 'GET' | 'POST', path: string, body?: unknown) => call(t().app, method, path, { body });
  return { console_, pub };
}

/** Every inject call comes from one IP: the public per-IP limits start afresh per test. */
export const resetScanLimits = (t: App) =>
  t.db.execute(sql`delete from rate_counters where key like 'scan:%'`);
