import { INVOICE_CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DEMO } from '../../test/helper.ts';
import { clients, taxDevices } from '../db/schema/index.ts';
import { AppError } from '../lib/app-error.ts';
import {
  addNumberRange,
  allocateInvoiceNumbers,
  deviceStock,
  formatDigitalNumber,
  makeCheckCode,
  makeInvoiceCode,
  shanghaiParts,
} from './numbers.ts';

describe('invoice number allocation', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let digital: number;
  let ukey: number;
  let goldenMain: number;

  beforeAll(async () => {
    t = await buildTestApp();
    const [c] = await t.db.select().from(clients).where(eq(clients.taxCode, DEMO.software.taxCode));
    const devices = await t.db.select().from(taxDevices).where(eq(taxDevices.clientId, c!.id));
    digital = devices.find((d) => d.kind === 'digital')!.id;
    ukey = devices.find((d) => d.kind === 'ukey')!.id;
    goldenMain = devices.find((d) => d.kind === 'golden_disc' && d.extensionNo === 0)!.id;
  });

  it('formats 20-digit 数电 numbers: YY + area + channel digit + 15-digit sequence', () => {
    expect(formatDigitalNumber(2026, '33', 1)).toBe('26332000000000000001');
    expect(formatDigitalNumber(2024, '11', 135114086)).toBe('24112000000135114086');
    expect(formatDigitalNumber(2026, '33', 1)).toHaveLength(20);
  });

  it('uses the Beijing calendar for the year and month', () => {
    // 2025-12-31 16:30 UTC is 2026-01-01 00:30 in Beijing
    expect(shanghaiParts(new Date('2025-12-31T16:30:00Z'))).toEqual({
      year: 2026,
      month: '2026-01',
      ymd: '20260101',
    });
    expect(shanghaiParts(new Date('2025-12-31T15:59:59Z')).year).toBe(2025);
  });

  it('makes 12-digit codes for electronic / ordinary kinds and 10-digit codes for paper 专票', () => {
    expect(makeInvoiceCode('026', 2026, 1)).toBe('033002600111');
    expect(makeInvoiceCode('028', 2026, 2)).toBe('033002600213');
    expect(makeInvoiceCode('007', 2026, 1)).toHaveLength(12);
    expect(makeInvoiceCode('004', 2026, 1)).toMatch(/^\d{10}$/);
    expect(makeCheckCode('026', '033002600111', '00000001')).toMatch(/^\d{20}$/);
    expect(makeCheckCode('004', '3300261130', '00000001')).toBe('');
    expect(makeCheckCode('82', '', '26332000000000000001')).toBe('');
  });

  it('hands out 200 concurrent 数电 numbers distinct and contiguous', async () => {
    const issuedAt = new Date();
    const got = await Promise.all(
      Array.from({ length: 200 }, () =>
        t.db.transaction((tx) =>
          allocateInvoiceNumbers(tx, { deviceId: digital, invoiceType: '82', count: 1, issuedAt }),
        ),
      ),
    );
    const seqs = got.map((g) => Number(g[0]!.invoiceNo.slice(5))).sort((a, b) => a - b);
    expect(new Set(seqs).size).toBe(200);
    expect(seqs[199]! - seqs[0]!).toBe(199);
    const yy = String(shanghaiParts(issuedAt).year % 100).padStart(2, '0');
    for (const g of got) expect(g[0]!.invoiceNo).toMatch(new RegExp(`^${yy}332\\d{15}$`));
  });

  it('keeps one sequence per year, shared by 81 and 82', async () => {
    const lastYear = new Date(Date.now() - 366 * 24 * 3600_000);
    const [a] = await allocateInvoiceNumbers(t.db, {
      deviceId: digital,
      invoiceType: '81',
      count: 1,
      issuedAt: lastYear,
    });
    const [b] = await allocateInvoiceNumbers(t.db, {
      deviceId: digital,
      invoiceType: '82',
      count: 2,
      issuedAt: lastYear,
    });
    const yy = String(shanghaiParts(lastYear).year % 100).padStart(2, '0');
    expect(a!.invoiceNo).toBe(`${yy}332${'1'.padStart(15, '0')}`);
    expect(b!.invoiceNo).toBe(`${yy}332${'2'.padStart(15, '0')}`);
  });

  it('hands out 200 concurrent stock numbers distinct and contiguous', async () => {
    const before = (await deviceStock(t.db, ukey))['026']!;
    const got = await Promise.all(
      Array.from({ length: 200 }, () =>
        t.db.transaction((tx) =>
          allocateInvoiceNumbers(tx, { deviceId: ukey, invoiceType: '026', count: 1, issuedAt: new Date() }),
        ),
      ),
    );
    const nos = got.map((g) => Number(g[0]!.invoiceNo)).sort((a, b) => a - b);
    expect(new Set(nos).size).toBe(200);
    expect(nos[199]! - nos[0]!).toBe(199);
    expect(got[0]![0]!.invoiceCode).toMatch(/^\d{12}$/);
    expect(got[0]![0]!.invoiceNo).toMatch(/^\d{8}$/);
    expect((await deviceStock(t.db, ukey))['026']).toBe(before - 200);
  });

  it('continues into the next range and refuses (taking nothing) when stock runs out', async () => {
    // 025 on the main disc: use up the seeded range, add two small ones
    const stock = (await deviceStock(t.db, goldenMain))['025']!;
    await allocateInvoiceNumbers(t.db, {
      deviceId: goldenMain,
      invoiceType: '025',
      count: stock,
      issuedAt: new Date(),
    });
    const r1 = await addNumberRange(t.db, { deviceId: goldenMain, invoiceType: '025', count: 3, batch: 7 });
    const r2 = await addNumberRange(t.db, { deviceId: goldenMain, invoiceType: '025', count: 3, batch: 8 });
    const got = await allocateInvoiceNumbers(t.db, {
      deviceId: goldenMain,
      invoiceType: '025',
      count: 5,
      issuedAt: new Date(),
    });
    expect(got.map((g) => `${g.invoiceCode}-${g.invoiceNo}`)).toEqual([
      `${r1.invoiceCode}-00000001`,
      `${r1.invoiceCode}-00000002`,
      `${r1.invoiceCode}-00000003`,
      `${r2.invoiceCode}-00000001`,
      `${r2.invoiceCode}-00000002`,
    ]);
    const err = await t.db
      .transaction((tx) =>
        allocateInvoiceNumbers(tx, {
          deviceId: goldenMain,
          invoiceType: '025',
          count: 2,
          issuedAt: new Date(),
        }),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(INVOICE_CODE.STOCK_EXHAUSTED);
    // the transaction rolled back: the last number is still there
    expect((await deviceStock(t.db, goldenMain))['025']).toBe(1);
  });

  it('continues a code after the ranges other devices hold', async () => {
    const a = await addNumberRange(t.db, { deviceId: ukey, invoiceType: '007', count: 10, batch: 5 });
    const b = await addNumberRange(t.db, { deviceId: goldenMain, invoiceType: '007', count: 10, batch: 5 });
    expect(b.invoiceCode).toBe(a.invoiceCode);
    expect(b.startNo).toBe(a.endNo + 1);
  });
});
