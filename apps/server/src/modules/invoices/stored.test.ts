import { INVOICE_CODE } from '@kaipiao/shared';
import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture, line, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { invoices } from '../../db/schema/index.ts';

/**
 * What an issued invoice keeps of its request (invoices/service.ts issueBlue): the block of each
 * special business (04 货物运输, 06 不动产经营租赁, 09 旅客运输) and the 备注 bank flags only when
 * asked for — the PDF, XML and the red-letter flows read them back from `specific_business`.
 */
describe('special-business blocks and bank flags kept with the invoice', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
  });

  const issued = async (body: ReturnType<typeof payload>) => {
    const res = await f.issue(body);
    expect(res.json.code, res.json.message).toBe(0);
    await t.app.invoiceHooks.drain();
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, res.json.data.invoice_id));
    return inv!;
  };
  const freight = () =>
    line('1090.00', {
      tax_rate: '0.09',
      tax_class_code: '3010102020100000000',
      short_name: '运输服务',
      name: '国内道路货物运输服务',
    });

  it('04 货物运输服务 keeps its transport list', async () => {
    const goods_transport = [
      {
        vehicle_type: '公路运输',
        vehicle_no: '浙A12345',
        origin: '杭州',
        destination: '上海',
        goods_name: '服务器',
      },
    ];
    const inv = await issued(
      payload(f.ids.digital, {
        lines: [freight()],
        info: { specific_business_code: '04' },
        extra: { goods_transport },
      }),
    );
    expect(inv.specificBusinessCode).toBe('04');
    expect(inv.specificBusiness).toEqual({ goods_transport });
  });

  it('06 不动产经营租赁 keeps its property blocks', async () => {
    const real_static_rent = [
      {
        province: '浙江省',
        city: '杭州市',
        detail_address: '西湖区文三路90号',
        lease_period: '2026-01-01 2026-12-31',
        cross_city: 'N',
        certificate_no: '浙(2020)杭州市不动产权第0012345号',
        area_unit: '平方米',
      },
    ];
    const rent = line('10900.00', {
      tax_rate: '0.09',
      tax_class_code: '3040502020400000000',
      short_name: '经营租赁',
      name: '商铺租金',
      quantity: '120',
      unit: '平方米',
    });
    const inv = await issued(
      payload(f.ids.digital, {
        lines: [rent],
        info: { specific_business_code: '06' },
        extra: { real_static_rent },
      }),
    );
    expect(inv.specificBusiness).toMatchObject({
      real_static_rent: [expect.objectContaining(real_static_rent[0]!)],
    });
    expect(Object.keys(inv.specificBusiness as object)).toEqual(['real_static_rent']);
  });

  it('09 旅客运输服务 keeps its travellers', async () => {
    const trip = line('1090.00', {
      tax_rate: '0.09',
      tax_class_code: '3010101020100000000',
      short_name: '运输服务',
      name: '客运服务',
    });
    const traveller = {
      traveller: '张三',
      id_type: '227',
      id_no: 'E12345678',
      travel_date: '2026-03-01',
      origin: '杭州',
      destination: '舟山',
      vehicle_type: '3',
    };
    const inv = await issued(
      payload(f.ids.digital, {
        lines: [trip],
        info: { specific_business_code: '09' },
        extra: { passenger_transport: [traveller] },
      }),
    );
    expect(inv.specificBusiness).toMatchObject({ passenger_transport: [expect.objectContaining(traveller)] });
    expect(Object.keys(inv.specificBusiness as object)).toEqual(['passenger_transport']);
  });

  it('the bank details print in 备注 only when asked for, each side on its own', async () => {
    const plain = await issued(payload(f.ids.digital));
    expect(plain.specificBusiness).toBeNull();
    const buyer = await issued(payload(f.ids.digital, { extra: { show_buyer_bank: true } }));
    expect(buyer.specificBusiness).toEqual({ show_bank: { buyer: true, seller: false } });
    const seller = await issued(payload(f.ids.digital, { extra: { show_seller_bank: true } }));
    expect(seller.specificBusiness).toEqual({ show_bank: { buyer: false, seller: true } });
  });

  it('reconciliation settles only the invoices of the stores and serial asked about', async () => {
    const unknown = async (
      device: number,
      clientId: number,
      sid: number,
      body: ReturnType<typeof payload>,
    ) => {
      await f.dev('control', {
        device_id: device,
        fault: 'unknown',
        fault_count: 1,
        unknown_visible_after_s: 3600,
      });
      const res = await f.issue(body, { clientId, sid });
      expect(res.json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);
      return body.serial_no;
    };
    const hq = await unknown(f.ids.digital, f.ids.software, f.ids.hq, payload(f.ids.digital));
    const bj = await unknown(f.ids.digital, f.ids.software, f.ids.bj, payload(f.ids.digital));
    const bj2 = await unknown(f.ids.digital, f.ids.software, f.ids.bj, payload(f.ids.digital));
    const hotel = await unknown(
      f.ids.hotelDigital,
      f.ids.hotel,
      f.ids.bs,
      payload(f.ids.hotelDigital, { lines: [line('101.00', { tax_rate: '0.01' })] }),
    );
    // the bureau's hour passes for all of them
    await t.db.execute(sql`update channel_sandbox_issues set visible_at = now()`);
    const statusOf = async () =>
      Object.fromEntries(
        (
          await t.db
            .select()
            .from(invoices)
            .where(inArray(invoices.serialNo, [hq, bj, bj2, hotel]))
        ).map((i) => [i.serialNo, i.status]),
      );
    const reconcile = (token: string, sid: number, body: Record<string, unknown> = {}) =>
      call(t.app, 'POST', `/v3/online-invoicing/reconcile?${f.scope(f.ids.software, sid)}`, { token, body });

    // the clerk may use 文三路总部 only: its invoice alone
    const clerk = await reconcile(f.clerk, f.ids.hq);
    expect(clerk.json.data).toMatchObject({ checked: 1, issued: 1 });
    expect(await statusOf()).toEqual({
      [hq]: 'issued',
      [bj]: 'unknown',
      [bj2]: 'unknown',
      [hotel]: 'unknown',
    });
    // the administrator asks about one serial: that one alone
    const one = await reconcile(f.admin, f.ids.bj, { serial_no: bj });
    expect(one.json.data).toMatchObject({ checked: 1, issued: 1 });
    expect(await statusOf()).toEqual({
      [hq]: 'issued',
      [bj]: 'issued',
      [bj2]: 'unknown',
      [hotel]: 'unknown',
    });
    // and the rest of the business, never the hotel's
    const rest = await reconcile(f.admin, -1);
    expect(rest.json.data).toMatchObject({ checked: 1, issued: 1 });
    expect(await statusOf()).toEqual({ [hq]: 'issued', [bj]: 'issued', [bj2]: 'issued', [hotel]: 'unknown' });
    await t.app.invoiceHooks.drain();
  });
});
