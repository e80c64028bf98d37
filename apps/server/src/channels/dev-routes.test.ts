import { INVOICE_CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO } from '../../test/helper.ts';
import { clients, taxDevices } from '../db/schema/index.ts';
import { SandboxTaxChannel } from './sandbox.ts';

describe('sandbox channel controls (/v3/dev/channel/…)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let clientId: number;
  let digital: number;
  let ukey: number;

  beforeAll(async () => {
    t = await buildTestApp();
    const [c] = await t.db.select().from(clients).where(eq(clients.taxCode, DEMO.software.taxCode));
    clientId = c!.id;
    const devices = await t.db.select().from(taxDevices).where(eq(taxDevices.clientId, clientId));
    digital = devices.find((d) => d.kind === 'digital')!.id;
    ukey = devices.find((d) => d.kind === 'ukey')!.id;
  });

  const post = (path: string, body: unknown) => call(t.app, 'POST', `/v3/dev/channel/${path}`, { body });

  it('reads and sets latency and faults', async () => {
    const state = await call(t.app, 'GET', `/v3/dev/channel/state?device_id=${digital}`);
    expect(state.json.data).toMatchObject({
      online: true,
      locked: false,
      control: { fault: 'none', latency_ms: 0 },
    });
    const set = await post('control', {
      device_id: digital,
      latency_ms: 25,
      fault: 'error',
      fault_code: '10000',
      fault_message: '系统繁忙',
      fault_count: 2,
    });
    expect(set.json.data.control).toMatchObject({ latency_ms: 25, fault: 'error', fault_remaining: 2 });
    const reset = await post('reset', { device_id: digital });
    expect(reset.json.data.control).toMatchObject({ latency_ms: 0, fault: 'none' });
  });

  it('applies a counted fault that many times, then issues again', async () => {
    await post('control', { device_id: digital, fault: 'error', fault_count: 2, latency_ms: 20 });
    const channel = new SandboxTaxChannel(t.db);
    const req = (serialNo: string) => ({
      clientId,
      deviceId: digital,
      serialNo,
      invoiceType: '82',
      totalAmount: '100.00',
      totalWithTax: '106.00',
    });
    const started = Date.now();
    expect((await channel.issue(req('S-1'))).status).toBe('failed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(19);
    expect((await channel.issue(req('S-2'))).status).toBe('failed');
    const third = await channel.issue(req('S-3'));
    expect(third).toMatchObject({ status: 'issued', invoiceCode: '' });
    expect(await channel.querySerial({ clientId, serialNo: 'S-3' })).toMatchObject({ state: 'issued' });
    expect(await channel.querySerial({ clientId, serialNo: 'S-1' })).toEqual({ state: 'not_issued' });
    // the bureau answers a repeated serial with the invoice it already made
    const again = await channel.issue(req('S-3'));
    expect(again).toMatchObject({ status: 'issued', invoiceNo: (third as { invoiceNo: string }).invoiceNo });
    await post('reset', { device_id: digital });
  });

  it('a recording failure rolls the number back', async () => {
    const channel = new SandboxTaxChannel(t.db);
    const req = {
      clientId,
      deviceId: digital,
      serialNo: 'R-1',
      invoiceType: '82',
      totalAmount: '1.00',
      totalWithTax: '1.06',
    };
    const a = await channel.issueRecorded({ ...req, serialNo: 'R-0' }, { record: async () => undefined });
    await expect(
      channel.issueRecorded(req, {
        record: async () => {
          throw new Error('caller refused');
        },
      }),
    ).rejects.toThrow('caller refused');
    expect(await channel.querySerial({ clientId, serialNo: 'R-1' })).toEqual({ state: 'not_issued' });
    const b = await channel.issueRecorded({ ...req, serialNo: 'R-2' }, { record: async () => undefined });
    const seq = (o: typeof a) => BigInt((o as { invoiceNo: string }).invoiceNo);
    expect(seq(b) - seq(a)).toBe(1n);
  });

  it('sets device state and adds stock', async () => {
    const off = await post('device', {
      device_id: ukey,
      online: false,
      locked: true,
      per_invoice_limit: '500.00',
    });
    expect(off.json.data).toMatchObject({ online: false, locked: true, per_invoice_limit: '500.00' });
    const before = off.json.data.stock['026'];
    const stock = await post('stock', { device_id: ukey, invoice_type: '026', count: 50 });
    expect(stock.json.data.stock['026']).toBe(before + 50);
    expect((await post('stock', { device_id: digital, invoice_type: '82', count: 5 })).json.code).toBe(
      INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED,
    );
    expect((await post('device', { device_id: 999999, online: true })).json.code).toBe(
      INVOICE_CODE.DEVICE_NOT_FOUND,
    );
    await post('device', { device_id: ukey, online: true, locked: false, per_invoice_limit: '99999.99' });
  });
});

describe('sandbox channel controls in production', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        NODE_ENV: 'production',
        KAIPIAO_FIXED_CAPTCHA: '',
        // production refuses to start without real providers and the sandbox channel's opt-in
        KAIPIAO_SMS_URL: 'http://127.0.0.1:9/sms',
        KAIPIAO_SMTP_URL: 'smtp://127.0.0.1:9',
        KAIPIAO_CHANNEL: 'sandbox',
      },
    });
  });

  it.each([
    ['GET', '/v3/dev/channel/state?device_id=1'],
    ['POST', '/v3/dev/channel/control'],
    ['POST', '/v3/dev/channel/device'],
    ['POST', '/v3/dev/channel/stock'],
    ['POST', '/v3/dev/channel/reset'],
  ] as const)('answers HTTP 404 for %s %s', async (method, url) => {
    const res = await t.app.inject({
      method,
      url,
      payload: method === 'POST' ? { device_id: 1 } : undefined,
    });
    expect(res.statusCode).toBe(404);
  });
});
