import { randomBytes } from 'node:crypto';
import { beijingDay } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { uscc } from './catalog.ts';

const token = () => randomBytes(18).toString('base64url');

type Item = {
  name: string;
  short_name: string;
  tax_class_code: string;
  tax_rate: string;
  amount_with_tax: string;
};
// the hotel is a small-scale taxpayer: 1%, as its goods catalogue
const catering = (amount: string): Item => ({
  name: '餐费',
  short_name: '餐饮服务',
  tax_class_code: '3070401000000000000',
  tax_rate: '0.01',
  amount_with_tax: amount,
});
const lodging = (amount: string): Item => ({
  name: '住宿费',
  short_name: '住宿服务',
  tax_class_code: '3070402000000000000',
  tax_rate: '0.01',
  amount_with_tax: amount,
});
const software = (amount: string): Item => ({
  name: '软件服务费',
  short_name: '信息技术服务',
  tax_class_code: '3040201010000000000',
  tax_rate: '0.06',
  amount_with_tax: amount,
});
const full = (it: Item) => ({
  goods_id: null,
  spec: '',
  unit: '',
  quantity: null,
  preferential_code: '',
  zero_rate_flag: '',
  ...it,
});

/** A stay `daysAgo` days back for `nights` nights, as yyyy-MM-dd in Asia/Shanghai. */
function stay(daysAgo: number, nights: number) {
  const day = (back: number) => beijingDay(Date.now() - back * 86_400_000);
  return { check_in: day(daysAgo + nights), check_out: day(daysAgo) };
}

async function storeIds(db: Db, taxCode: string) {
  const res = await db.execute<{ client_id: number; id: number; code: string }>(
    sql`select s.client_id, s.id, s.code from client_stores s join clients c on c.id = s.client_id
        where c.tax_code = ${taxCode} order by s.id`,
  );
  return res.rows;
}

async function addOrder(
  db: Db,
  s: { client_id: number; id: number },
  orderNo: string,
  items: Item[],
  hotelStay: Record<string, string> | null,
) {
  const amount = items.reduce((n, it) => n + Number(it.amount_with_tax), 0).toFixed(2);
  const res = await db.execute<{ id: number }>(sql`
    insert into scan_codes (client_id, store_id, kind, token, order_no, amount, items, hotel_stay, expires_at)
    values (${s.client_id}, ${s.id}, 'order', ${token()}, ${orderNo}, ${amount},
      ${JSON.stringify(items.map(full))}::jsonb, ${hotelStay ? JSON.stringify(hotelStay) : null}::jsonb,
      now() + interval '3 days')
    on conflict (client_id, order_no) where order_no is not null do nothing
    returning id`);
  return { id: res.rows[0]?.id, amount, items: items.map(full), hotelStay };
}

async function addRequest(
  db: Db,
  s: { client_id: number; id: number },
  codeId: number,
  kind: string,
  r: {
    orderNo?: string;
    titleType: 1 | 2;
    name: string;
    taxCode?: string;
    email?: string;
    mobile?: string;
    amount?: string | null;
    items?: unknown;
    hotelStay?: unknown;
    minutesAgo: number;
  },
) {
  await db.execute(sql`
    insert into scan_requests (client_id, store_id, code_id, code_kind, order_no, token, status, title_type,
      buyer_name, buyer_tax_code, email, mobile, amount, items, hotel_stay, created_at, updated_at)
    values (${s.client_id}, ${s.id}, ${codeId}, ${kind}, ${r.orderNo ?? null}, ${token()}, 'pending', ${r.titleType},
      ${r.name}, ${r.taxCode ?? ''}, ${r.email ?? ''}, ${r.mobile ?? ''}, ${r.amount ?? null},
      ${r.items ? JSON.stringify(r.items) : null}::jsonb, ${r.hotelStay ? JSON.stringify(r.hotelStay) : null}::jsonb,
      now() - make_interval(mins => ${r.minutesAgo}), now() - make_interval(mins => ${r.minutesAgo}))
    on conflict do nothing`);
}

/**
 * Scan-to-invoice demo data (idempotent): the static code of every demo store and a counter code at
 * HQ, per-store modes (HQ and the hotel's 北山街店 audit, the others immediate) and, with `requests`
 * (the history switch: off under NODE_ENV=test), a few requests waiting in each business's queue —
 * the hotel's with room, stay dates and guest.
 */
export async function seedDemoScan(
  db: Db,
  demo: { software: { taxCode: string }; hotel: { taxCode: string } },
  opts: { requests: boolean },
): Promise<void> {
  const sw = await storeIds(db, demo.software.taxCode);
  const ht = await storeIds(db, demo.hotel.taxCode);
  for (const s of [...sw, ...ht]) {
    await db.execute(sql`
      insert into scan_codes (client_id, store_id, kind, token) values (${s.client_id}, ${s.id}, 'store', ${token()})
      on conflict (client_id, store_id) where kind = 'store' do nothing`);
    const mode = s.code === 'HQ' || s.code === 'BS' ? 'audit' : 'immediate';
    await db.execute(sql`
      insert into scan_settings (client_id, store_id, mode) values (${s.client_id}, ${s.id}, ${mode})
      on conflict do nothing`);
  }
  const hq = sw.find((s) => s.code === 'HQ');
  const bs = ht.find((s) => s.code === 'BS');
  if (hq) {
    await db.execute(sql`
      insert into scan_codes (client_id, store_id, kind, name, token)
      select ${hq.client_id}, ${hq.id}, 'counter', '前台收银', ${token()}
      where not exists (select 1 from scan_codes where store_id = ${hq.id} and kind = 'counter')`);
  }
  if (!opts.requests || !hq || !bs) return;
  const existing = await db.execute<{ n: string }>(sql`select count(*) as n from scan_requests`);
  if (Number(existing.rows[0]?.n ?? 0) > 0) return;

  const storeCode = async (s: { id: number }) =>
    (
      await db.execute<{ id: number }>(
        sql`select id from scan_codes where store_id = ${s.id} and kind = 'store'`,
      )
    ).rows[0]!.id;
  const hqCode = await storeCode(hq);
  await addRequest(db, hq, hqCode, 'store', {
    titleType: 2,
    name: '杭州禾木信息技术有限公司',
    taxCode: uscc('91330108MA2GQ8K7X'),
    email: 'caiwu@hemu.example.com',
    amount: '1280.00',
    minutesAgo: 42,
  });
  await addRequest(db, hq, hqCode, 'store', {
    titleType: 1,
    name: '张伟',
    mobile: '13700001234',
    amount: '199.00',
    minutesAgo: 15,
  });
  const o = await addOrder(db, hq, 'SO-DEMO-0001', [software('3600.00')], null);
  if (o.id) {
    await addRequest(db, hq, o.id, 'order', {
      orderNo: 'SO-DEMO-0001',
      titleType: 2,
      name: '宁波港城物流有限公司',
      taxCode: uscc('91330206MA2AH3L5Q'),
      email: 'fin@gclogistics.example.com',
      amount: o.amount,
      items: o.items,
      minutesAgo: 8,
    });
  }
  const guests = [
    {
      orderNo: 'HT-DEMO-0801',
      room: '8208',
      guest: '李娜',
      nights: 2,
      amount: '1376.00',
      buyer: '杭州数澜科技有限公司',
      code: '91330106MA28XK3P1',
    },
    {
      orderNo: 'HT-DEMO-0802',
      room: '6612',
      guest: '王强',
      nights: 1,
      amount: '688.00',
      buyer: '上海曜石咨询有限公司',
      code: '91310115MA1K4B7C2',
    },
  ];
  for (const [i, g] of guests.entries()) {
    const hotelStay = { room_no: g.room, guest_name: g.guest, ...stay(i, g.nights) };
    const ho = await addOrder(
      db,
      bs,
      g.orderNo,
      [lodging(g.amount), ...(i === 0 ? [catering('168.00')] : [])],
      hotelStay,
    );
    if (!ho.id) continue;
    await addRequest(db, bs, ho.id, 'order', {
      orderNo: g.orderNo,
      titleType: 2,
      name: g.buyer,
      taxCode: uscc(g.code),
      email: `finance${i + 1}@example.com`,
      amount: ho.amount,
      items: ho.items,
      hotelStay,
      minutesAgo: 30 - i * 20,
    });
  }
}
