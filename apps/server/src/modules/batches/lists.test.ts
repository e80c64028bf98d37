import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchFiles } from '../../../test/fixtures/batch-uploads.ts';
import { bigBatchFile } from '../../../test/fixtures/batches.ts';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { invoices } from '../../db/schema/index.ts';

type Progress = {
  batch_id: number;
  status: string;
  store_id: number;
  total: number;
  pending: number;
  issued: number;
  failed: number;
  skipped: number;
  percent: number;
  issued_with_tax: string;
  total_with_tax: string;
};

/**
 * The batch history and a batch's rows (batches/repo.ts): newest first, page by page with the total,
 * only the stores the user may see; counts per state, the share settled and the amount issued; rows
 * in file order with the invoice of each issued row.
 */
describe('batch lists, counts and rows', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  const files = batchFiles(
    () => t,
    () => f,
    'L',
  );

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
  });

  /** Uploads a file of `n` invoices (one line of 1,060.00 each) at a store: the batch's id. */
  const uploadBatch = async (n: number, sid = f.ids.hq, content?: Buffer) => {
    const res = await files.send(content ?? (await files.file(n)), { sid });
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data.batch_id as number;
  };
  const list = async (query: string, token = f.admin, sid = f.ids.hq) => {
    const res = await call(t.app, 'GET', `/v3/batch-invoice/list?${f.scope(f.ids.software, sid)}&${query}`, {
      token,
    });
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data as { total: number; list: Progress[] };
  };
  const progress = async (id: number) =>
    (
      await call(
        t.app,
        'GET',
        `/v3/batch-invoice/progress?${f.scope(f.ids.software, f.ids.hq)}&batch_id=${id}`,
        {
          token: f.admin,
        },
      )
    ).json.data as Progress;
  const rows = async (id: number, query = '') => {
    const res = await call(
      t.app,
      'GET',
      `/v3/batch-invoice/rows?${f.scope(f.ids.software, f.ids.hq)}&batch_id=${id}&${query}`,
      { token: f.admin },
    );
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data as {
      total: number;
      list: {
        seq: number;
        status: string;
        serial_no: string;
        invoice_id: number | null;
        invoice_no: string | null;
      }[];
    };
  };

  it('the history: newest first, ten to a page with the total; a clerk sees her own store’s batches only', async () => {
    const hq: number[] = [];
    for (let i = 0; i < 11; i++) hq.push(await uploadBatch(1));
    const bj = await uploadBatch(1, f.ids.bj);
    const first = await list('page=1&page_size=10');
    expect(first.total).toBe(12);
    expect(first.list.map((b) => b.batch_id)).toEqual([bj, ...hq.slice(-9).reverse()]);
    const second = await list('page=2&page_size=10');
    expect(second).toMatchObject({ total: 12 });
    expect(second.list.map((b) => b.batch_id)).toEqual([hq[1], hq[0]]);
    // the clerk may use 文三路总部 only
    const clerk = await list('page=1&page_size=30', f.clerk);
    expect(clerk.total).toBe(11);
    expect(clerk.list.map((b) => b.batch_id)).toEqual([...hq].reverse());
    expect(clerk.list.every((b) => b.store_id === f.ids.hq)).toBe(true);
  });

  it('counts each state, the share settled (skipped included) and only the issued amount', async () => {
    const id = await uploadBatch(5);
    const fresh = await progress(id);
    expect(fresh).toMatchObject({ total: 5, pending: 5, issued: 0, percent: 0, issued_with_tax: '0.00' });
    // settle the rows as a run would have: two issued, one failed, one skipped, one left
    await t.db.execute(sql`update batch_rows set status = case seq when 1 then 'issued' when 2 then 'issued'
      when 3 then 'failed' when 4 then 'skipped' else 'pending' end where batch_id = ${id}`);
    const expected = {
      total: 5,
      pending: 1,
      issued: 2,
      failed: 1,
      skipped: 1,
      percent: 80,
      issued_with_tax: '2120.00',
      total_with_tax: '5300.00',
    };
    expect(await progress(id)).toMatchObject(expected);
    const listed = (await list('page=1&page_size=30')).list.find((b) => b.batch_id === id);
    expect(listed).toMatchObject(expected);
    // and a batch with nothing issued lists 0.00 beside it
    expect((await list('page=1&page_size=30')).list.find((b) => b.batch_id !== id)).toMatchObject({
      issued_with_tax: '0.00',
    });
  });

  it('rows in file order, thirty to a page with the total; 501 rows are all stored', async () => {
    const id = await uploadBatch(0, f.ids.hq, await bigBatchFile({ invoices: 501, serialPrefix: 'Q' }));
    const all = await rows(id, 'page=17&page_size=30');
    expect(all.total).toBe(501);
    expect(all.list.map((r) => r.seq)).toEqual(Array.from({ length: 21 }, (_, i) => 481 + i));
    expect(all.list.at(-1)).toMatchObject({ status: 'pending', invoice_id: null, invoice_no: null });
    const pending = await rows(id, 'status=pending&page=1&page_size=10');
    expect(pending.total).toBe(501);
    expect((await rows(id, 'status=issued')).total).toBe(0);
    expect((await progress(id)).total).toBe(501);
  });

  it('an issued row names its invoice', async () => {
    const id = await uploadBatch(2);
    const started = await call(
      t.app,
      'POST',
      `/v3/batch-invoice/start?${f.scope(f.ids.software, f.ids.hq)}`,
      {
        token: f.admin,
        body: { batch_id: id },
      },
    );
    expect(started.json.code, started.json.message).toBe(0);
    await t.app.batchRunner!.idle(id);
    const done = await rows(id, 'status=issued');
    expect(done.total).toBe(2);
    for (const r of done.list) {
      const [inv] = await t.db.select().from(invoices).where(eq(invoices.serialNo, r.serial_no));
      expect(r).toMatchObject({ status: 'issued', invoice_id: inv!.id, invoice_no: inv!.invoiceNo });
    }
    expect(await progress(id)).toMatchObject({ issued: 2, percent: 100, issued_with_tax: '2120.00' });
  });
});
