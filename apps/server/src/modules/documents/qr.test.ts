import { readFileSync } from 'node:fs';
import { invoiceQrText } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertInvoice } from '../../../test/fixtures/documents.ts';
import { buildTestApp, DEMO } from '../../../test/helper.ts';
import type { App } from '../../app.ts';
import { clientStores, clients, invoiceFiles, invoices } from '../../db/schema/index.ts';
import { loadInvoiceDoc } from './model.ts';
import { buildQrString } from './qr.ts';

type Db = App['db'];

/** The statements of migration 0017 (bureau QR check code), as drizzle runs them. */
const migration = readFileSync(new URL('../../../drizzle/0017_qr_bureau_crc.sql', import.meta.url), 'utf8')
  .split('--> statement-breakpoint')
  .map((s) => s.replace(/^\s*(--[^\n]*\n\s*)*/, '').trim());

describe('票面二维码 in the database (bureau spec §六)', () => {
  let db: Db;
  let clientId: number;
  let storeId: number;

  beforeAll(async () => {
    ({ db } = await buildTestApp());
    const [c] = await db.select().from(clients).where(eq(clients.taxCode, DEMO.software.taxCode));
    clientId = c!.id;
    const [s] = await db.select().from(clientStores).where(eq(clientStores.clientId, clientId)).limit(1);
    storeId = s!.id;
  });

  it('kp_qr_crc16 gives the real bureau codes (domain.md) and agrees with qrCrc16 via invoiceQrText', async () => {
    const crc = async (s: string) =>
      (await db.execute<{ c: string }>(sql`select kp_qr_crc16(${s}) as c`)).rows[0]!.c;
    expect(await crc('01,32,,20882408051806541460,0.01,20240805,,')).toBe('649C');
    expect(await crc('01,31,,26442000004359167806,1705400.00,20260421,,')).toBe('8EEF');
    expect(await crc('01,32,,26447000001243494438,285.92,20260619,,')).toBe('300A');
    expect(await crc('123456789')).toBe('FEE8');
    expect(await crc('')).toBe('0000');
  });

  it('kp_invoice_qr formats exactly as invoiceQrText for 数电 and old kinds (random amounts and moments)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -99_999_999_99, max: 99_999_999_99 }),
        fc.date({
          min: new Date('2020-01-01T00:00:00Z'),
          max: new Date('2030-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.boolean(),
        async (cents, at, digital) => {
          const amount = (cents / 100).toFixed(2);
          const facts = digital
            ? { invoiceType: '82', invoiceNo: '26332000000000012345', checkCode: '' }
            : {
                invoiceType: '026',
                invoiceCode: '033002300111',
                invoiceNo: '01234567',
                checkCode: '12345678901234567890',
              };
          const [row] = (
            await db.execute<{ qr: string }>(sql`select kp_invoice_qr(
              ${digital ? '32' : '10'}, ${facts.invoiceCode ?? ''}, ${facts.invoiceNo}, ${amount}::numeric,
              ${at.toISOString()}::timestamptz, ${facts.checkCode}, ${digital ? '' : ','}) as qr`)
          ).rows;
          expect(row!.qr).toBe(
            invoiceQrText({ ...facts, totalAmount: amount, totalWithTax: amount, issueDate: at }),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('migration 0017 recomputes stored texts (CRC over the seven fields and their comma; old kinds end with a comma) and drops cached files', async () => {
    const digital = await insertInvoice(db, { clientId, storeId, buyerName: '迁移前数电' });
    const old = await insertInvoice(db, { clientId, storeId, buyerName: '迁移前旧版' });
    const none = await insertInvoice(db, { clientId, storeId, buyerName: '未开具', issued: false });
    // as 0008/0015 stored them: CRC-16/X-25 over the seven fields without the comma
    await db
      .update(invoices)
      .set({
        invoiceNo: '26332000000000012345',
        qrString: '01,32,,26332000000000012345,212.00,20261122,,49A2',
      })
      .where(eq(invoices.id, digital.id));
    await db
      .update(invoices)
      .set({
        invoiceType: '026',
        invoiceCode: '033002300111',
        invoiceNo: '01234567',
        checkCode: '12345678901234567890',
        qrString: '01,10,033002300111,01234567,200.00,20261122,12345678901234567890,67C6',
      })
      .where(eq(invoices.id, old.id));
    await db.insert(invoiceFiles).values({
      invoiceId: digital.id,
      clientId,
      kind: 'pdf',
      fileName: 'a.pdf',
      content: Buffer.from('x'),
      size: 1,
    });

    const update = migration.find((s) => s.startsWith('UPDATE invoices'));
    const purge = migration.find((s) => s.startsWith('DELETE FROM invoice_files'));
    expect(update).toBeDefined();
    expect(purge).toBeDefined();
    await db.execute(sql.raw(update!));
    await db.execute(sql.raw(purge!));

    const qrOf = async (id: number) =>
      (await db.select({ qr: invoices.qrString }).from(invoices).where(eq(invoices.id, id)))[0]!.qr;
    expect(await qrOf(digital.id)).toBe('01,32,,26332000000000012345,212.00,20261122,,6308');
    expect(await qrOf(old.id)).toBe('01,10,033002300111,01234567,200.00,20261122,12345678901234567890,15AD,');
    expect(await qrOf(none.id)).toBe('');
    // the stored text is now what the shared rule builds from the row
    const doc = await loadInvoiceDoc(db, clientId, old.id);
    expect(doc!.qrString).toBe(buildQrString(doc!));
    expect(await db.select().from(invoiceFiles).where(eq(invoiceFiles.invoiceId, digital.id))).toEqual([]);
  });

  it('an invoice row without a stored text gets the shared rule; an unknown kind is an error, not a made-up QR', async () => {
    const inv = await insertInvoice(db, { clientId, storeId, buyerName: '无二维码' });
    const doc = await loadInvoiceDoc(db, clientId, inv.id);
    expect(doc!.qrString).toBe(
      invoiceQrText({
        invoiceType: '82',
        invoiceNo: inv.invoiceNo!,
        totalAmount: '200.00',
        totalWithTax: '212.00',
        issueDate: new Date('2026-11-22T02:30:00Z'),
      }),
    );
    expect(doc!.qrString).toMatch(new RegExp(`^01,32,,${inv.invoiceNo},212\\.00,20261122,,[0-9A-F]{4}$`));
    expect(() => buildQrString({ ...doc!, invoiceType: '999' })).toThrow('发票类型 999 没有票面二维码规则');
  });
});
