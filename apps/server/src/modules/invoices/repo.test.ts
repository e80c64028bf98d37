import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture, newInvoice, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp } from '../../../test/helper.ts';
import { invoiceEvents, invoices } from '../../db/schema/index.ts';
import { insertIssuing, issuedQrSql } from './issue/repo.ts';
import { type InvoiceStatus, mayMove, transition } from './issue/transitions.ts';

/**
 * The statements of issuing called directly (repo.ts, issue-repo.ts): the two-step insert as a
 * remote channel needs it (its commit waits for the flush), the state transition that only moves
 * an invoice from the states asked for, and the 票面 QR rule of the at-once statement.
 */
describe('the issuing statements', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
  });

  const rowOf = async (id: number) => (await t.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
  const eventKinds = async (id: number) =>
    (
      await t.db
        .select()
        .from(invoiceEvents)
        .where(eq(invoiceEvents.invoiceId, id))
        .orderBy(asc(invoiceEvents.id))
    ).map((e) => e.kind);

  it('for a remote channel (a durable commit) the insert makes the issuing row and its created event', async () => {
    const n = newInvoice(f.ids.software, f.ids.hq, payload(f.ids.digital), { asyncCommit: false });
    const ctx = await insertIssuing(t.db, n);
    expect(ctx?.new_id).not.toBeNull();
    const row = await rowOf(Number(ctx!.new_id));
    expect(row).toMatchObject({ serialNo: n.serialNo, status: 'issuing', requestHash: n.requestHash });
    expect(await eventKinds(row.id)).toEqual(['created']);
    // reconciliation reads the e-mail wish from the created event
    const [created] = await t.db.select().from(invoiceEvents).where(eq(invoiceEvents.invoiceId, row.id));
    expect(created!.detail).toEqual({ status: 'issuing', serial_no: n.serialNo, send_email: false });
  });

  it('a transition moves an invoice only from the states asked for, with its event', async () => {
    const n = newInvoice(f.ids.software, f.ids.hq, payload(f.ids.digital));
    const id = Number((await insertIssuing(t.db, n))!.new_id);
    const fail = (from: ('issuing' | 'unknown')[]) =>
      transition(t.db, {
        id,
        from,
        to: 'failed',
        error: { code: 'e', message: 'x' },
        event: 'failed',
        userId: null,
        detail: { serial_no: n.serialNo },
      });
    // another request or reconciliation got there first: nothing moves, no event
    expect(await fail(['unknown'])).toBe(false);
    expect((await rowOf(id)).status).toBe('issuing');
    expect(await eventKinds(id)).toEqual(['created']);
    expect(await fail(['issuing'])).toBe(true);
    expect(await rowOf(id)).toMatchObject({ status: 'failed', errorMessage: 'x' });
    expect(await eventKinds(id)).toEqual(['created', 'failed']);
  });

  it('a move the status machine does not allow is refused before any SQL, whatever the caller casts', async () => {
    const n = newInvoice(f.ids.software, f.ids.hq, payload(f.ids.digital));
    const id = Number((await insertIssuing(t.db, n))!.new_id);
    const move = (from: InvoiceStatus[], to: InvoiceStatus) =>
      transition(t.db, { id, from, to: to as never, event: 'x', userId: null, detail: {} });
    await expect(move(['issuing'], 'voided')).rejects.toThrow('issuing → voided is not a transition');
    await expect(move(['issuing', 'failed'], 'issued')).rejects.toThrow('is not a transition');
    await expect(move([], 'issued')).rejects.toThrow('is not a transition');
    expect((await rowOf(id)).status).toBe('issuing');
    expect(await eventKinds(id)).toEqual(['created']);
    // the table itself: every status a retry, an outcome or reconciliation needs, nothing out of voided
    expect(mayMove('issuing', 'issued') && mayMove('unknown', 'failed') && mayMove('failed', 'issuing')).toBe(
      true,
    );
    expect(mayMove('voided', 'issued') || mayMove('issued', 'failed') || mayMove('failed', 'issued')).toBe(
      false,
    );
  });

  it('the at-once statement has a 票面 QR rule for the kinds it issues, and refuses the others', () => {
    const amounts = { totalAmount: sql`1`, totalWithTax: sql`1` };
    for (const kind of ['81', '82', '004', '026']) expect(() => issuedQrSql(kind, amounts)).not.toThrow();
    // 数电纸票: no channel allocates paper numbers through this statement
    expect(() => issuedQrSql('85', amounts)).toThrow('发票类型 85 没有票面二维码规则');
    expect(() => issuedQrSql('86', amounts)).toThrow('发票类型 86 没有票面二维码规则');
    expect(() => issuedQrSql('999', amounts)).toThrow('发票类型 999 没有票面二维码规则');
  });
});
