import { BATCH_CODE, BATCH_LIMITS, CODE, MSG, messageFor, SESSION_CODE } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchFiles } from '../../../test/fixtures/batch-uploads.ts';
import { fillTemplate, invoiceRow, lineRow } from '../../../test/fixtures/batches.ts';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { download, upload } from '../../../test/xlsx-helpers.ts';
import { authorityRules, clients, orgs } from '../../db/schema/index.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Who may use the batch page (batches/routes.ts): the 批量开票 entry must be the user's, and grey only
 * for the bookkeeping service (then the batches stay readable); a batch of a store outside the
 * user's is refused on every call that names it; an upload without a file; the files' headers.
 */
describe('batch page access, store scope, uploads without a file, file headers', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  const files = batchFiles(
    () => t,
    () => f,
    'A',
  );
  let template: Buffer;
  let orgId: number;
  let original: typeof orgs.$inferSelect;
  let bjBatch: number;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    const [c] = await t.db.select().from(clients).where(eq(clients.id, f.ids.software));
    orgId = c!.orgId;
    original = (await t.db.select().from(orgs).where(eq(orgs.id, orgId)))[0]!;
    template = await files.template();
    const res = await files.send(await fillTemplate(template, [invoiceRow('BJ1')], [lineRow('BJ1')]), {
      sid: f.ids.bj,
      filename: 'bj.xlsx',
    });
    expect(res.json.code, res.json.message).toBe(0);
    bjBatch = res.json.data.batch_id;
  });

  const list = (token = f.clerk) =>
    call(t.app, 'GET', `/v3/batch-invoice/list?${f.scope(f.ids.software, f.ids.hq)}`, { token });
  const setOrg = async (set: Partial<typeof orgs.$inferInsert>) => {
    await t.db.update(orgs).set(set).where(eq(orgs.id, orgId));
    t.app.accessService.forgetAll();
  };
  const restoreOrg = async () => {
    const { id: _id, createdAt: _c, ...rest } = original;
    await setOrg(rest);
  };

  it('the entry grey for the bookkeeping service only: the batches stay readable, issuing is refused', async () => {
    await setOrg({ bookkeepingExpiresAt: new Date(Date.now() - 60_000) });
    try {
      const res = await list();
      expect(res.json.code, res.json.message).toBe(0);
      const start = await call(
        t.app,
        'POST',
        `/v3/batch-invoice/start?${f.scope(f.ids.software, f.ids.bj)}`,
        {
          token: f.admin,
          body: { batch_id: bjBatch },
        },
      );
      expect(start.json).toMatchObject({
        code: BATCH_CODE.BOOKKEEPING_EXPIRED,
        message: MSG.GRAY_BOOKKEEPING,
      });
    } finally {
      await restoreOrg();
    }
  });

  it('grey for the bookkeeping service and also unpaid or never bought: every call refused', async () => {
    const bookkeeping = new Date(Date.now() - 60_000);
    for (const set of [{ packageExpiresAt: new Date(Date.now() - 60_000) }, { packageCode: 'none' }]) {
      await setOrg({ bookkeepingExpiresAt: bookkeeping, ...set });
      try {
        expect((await list(f.admin)).json, JSON.stringify(set)).toMatchObject({
          code: CODE.FORBIDDEN,
          message: '您没有该功能的权限',
        });
      } finally {
        await restoreOrg();
      }
    }
    expect((await list(f.admin)).json.code).toBe(0);
  });

  it('the entry grey for an expired package, or not in the clerk’s rule: every call refused', async () => {
    await setOrg({ packageExpiresAt: new Date(Date.now() - 60_000) });
    try {
      expect((await list()).json.code).toBe(CODE.FORBIDDEN);
      expect((await list(f.admin)).json.code).toBe(CODE.FORBIDDEN);
    } finally {
      await restoreOrg();
    }
    expect((await list()).json.code).toBe(0);
    await t.db
      .update(authorityRules)
      .set({ urls: sql`array_remove(${authorityRules.urls}, '/invoice/batch')` })
      .where(eq(authorityRules.orgId, orgId));
    t.app.accessService.forgetAll();
    try {
      expect((await list()).json).toMatchObject({ code: CODE.FORBIDDEN, message: '您没有该功能的权限' });
      const tpl = await call(
        t.app,
        'GET',
        `/v3/batch-invoice/template?${f.scope(f.ids.software, f.ids.hq)}`,
        {
          token: f.clerk,
        },
      );
      expect(tpl.json.code).toBe(CODE.FORBIDDEN);
      // the administrator's rule is every url
      expect((await list(f.admin)).json.code).toBe(0);
    } finally {
      await t.db
        .update(authorityRules)
        .set({ urls: sql`array_append(${authorityRules.urls}, '/invoice/batch')` })
        .where(eq(authorityRules.orgId, orgId));
      t.app.accessService.forgetAll();
    }
  });

  it('a batch of 滨江 is not the clerk’s (文三路总部 only) on any call that names it', async () => {
    const q = f.scope(f.ids.software, f.ids.hq);
    const refused = { code: SESSION_CODE.STORE_NOT_PERMITTED, message: '无权限操作该门店' };
    for (const path of ['dry-run', 'progress', 'rows', 'result']) {
      const res = await call(t.app, 'GET', `/v3/batch-invoice/${path}?${q}&batch_id=${bjBatch}`, {
        token: f.clerk,
      });
      expect(res.json, path).toMatchObject(refused);
    }
    for (const path of ['start', 'pause', 'resume', 'cancel', 'retry']) {
      const res = await call(t.app, 'POST', `/v3/batch-invoice/${path}?${q}`, {
        token: f.clerk,
        body: { batch_id: bjBatch },
      });
      expect(res.json, path).toMatchObject(refused);
    }
    const [b] = (
      await t.db.execute<{ status: string }>(sql`select status from batches where id = ${bjBatch}`)
    ).rows;
    expect(b!.status).toBe('ready');
    // an id that is no batch of the business
    const none = await call(t.app, 'GET', `/v3/batch-invoice/progress?${q}&batch_id=999999`, {
      token: f.admin,
    });
    expect(none.json.code).toBe(BATCH_CODE.NOT_FOUND);
  });

  it('an upload without a file is told to choose one', async () => {
    const url = `/v3/batch-invoice/upload?${f.scope(f.ids.software, f.ids.hq)}&device_id=${f.ids.digital}&invoice_type=82`;
    const boundary = '----kaipiaoNoFile';
    const fieldOnly = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'access-token': f.admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
    });
    expect(fieldOnly.json().code).toBe(BATCH_CODE.NO_FILE);
    const json = await call(t.app, 'POST', url, { token: f.admin, body: { file: 'x' } });
    expect(json.json.code).toBe(BATCH_CODE.NO_FILE);
  });

  it('an upload body of more than 20 parts is refused as having no file, and no batch is stored', async () => {
    const count = async () =>
      Number((await t.db.execute<{ n: number }>(sql`select count(*)::int as n from batches`)).rows[0]!.n);
    const before = await count();
    const url = `/v3/batch-invoice/upload?${f.scope(f.ids.software, f.ids.hq)}&device_id=${f.ids.digital}&invoice_type=82`;
    const boundary = '----kaipiaoFields';
    const send = (fields: number, content: Buffer) => {
      const parts = Array.from(
        { length: fields },
        (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="note${i}"\r\n\r\nx\r\n`,
      ).join('');
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="batch.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      return t.app.inject({
        method: 'POST',
        url,
        headers: { 'access-token': f.admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([Buffer.from(parts + head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
      });
    };
    const file = await files.file(1);
    // 19 fields and the file are 20 parts, within the limit: the file is read
    expect((await send(19, file)).json().code).toBe(0);
    expect(await count()).toBe(before + 1);
    // one more field: the body is refused before its file
    const res = await send(20, await files.file(1));
    expect(res.json().code).toBe(BATCH_CODE.NO_FILE);
    expect(await count()).toBe(before + 1);
  });

  it('a file over 30 MB is refused as too large, and no batch is stored', async () => {
    const count = async () =>
      Number((await t.db.execute<{ n: number }>(sql`select count(*)::int as n from batches`)).rows[0]!.n);
    const before = await count();
    const res = await files.send(Buffer.alloc(BATCH_LIMITS.fileMb * 1024 * 1024 + 1, 0x50), {
      filename: 'big.xlsx',
    });
    expect(res.json).toMatchObject({
      code: BATCH_CODE.FILE_TOO_LARGE,
      message: messageFor(BATCH_CODE.FILE_TOO_LARGE),
    });
    expect(res.json.message).toMatch(/30/);
    expect(await count()).toBe(before);
  });

  it('as registered: each route checks its input, uploads need a store, the history names who uploaded', async () => {
    // an app of its own, built in the test: route options are read while the app is built
    // (closed with the file, by the helper's afterAll)
    const own = await buildTestApp({ reuse: t });
    {
      const q = f.scope(f.ids.software, f.ids.hq);
      const admin = f.admin;
      for (const [path, query] of [
        ['dry-run', 'batch_id=abc'],
        ['progress', 'batch_id=0'],
        ['rows', `batch_id=${bjBatch}&status=bogus`],
        ['result', 'batch_id=-1'],
        ['list', 'page_size=7'],
      ] as const) {
        const res = await call(own.app, 'GET', `/v3/batch-invoice/${path}?${q}&${query}`, { token: admin });
        expect(res.json.code, path).toBe(CODE.VALIDATION);
      }
      const start = await call(own.app, 'POST', `/v3/batch-invoice/start?${q}`, {
        token: admin,
        body: { batch_id: 'x' },
      });
      expect(start.json.code).toBe(CODE.VALIDATION);
      const all = await upload(
        own.app,
        `/v3/batch-invoice/upload?${f.scope(f.ids.software, -1)}&device_id=${f.ids.digital}&invoice_type=82`,
        admin,
        { filename: 'x.xlsx', content: await fillTemplate(template, [invoiceRow('X1')], [lineRow('X1')]) },
      );
      expect(all.json).toMatchObject({ code: CODE.SWITCH_STORE, message: '请先切换到具体门店再操作' });
      const listed = await call(
        own.app,
        'GET',
        `/v3/batch-invoice/list?${f.scope(f.ids.software, f.ids.bj)}`,
        {
          token: admin,
        },
      );
      const names = (
        await t.db.execute<{ device: string; store: string }>(
          sql`select (select name from tax_devices where id = ${f.ids.digital}) as device,
                     (select name from client_stores where id = ${f.ids.bj}) as store`,
        )
      ).rows[0]!;
      expect(names.device).not.toBe('');
      expect(listed.json.data.list.find((b: { batch_id: number }) => b.batch_id === bjBatch)).toMatchObject({
        created_by_name: '集团管理员',
        file_name: 'bj.xlsx',
        device_name: names.device,
        store_id: f.ids.bj,
        store_name: names.store,
      });
      // the clerk without the entry is refused by this app too
      await t.db
        .update(authorityRules)
        .set({ urls: sql`array_remove(${authorityRules.urls}, '/invoice/batch')` })
        .where(eq(authorityRules.orgId, orgId));
      own.app.accessService.forgetAll();
      try {
        const res = await call(own.app, 'GET', `/v3/batch-invoice/list?${q}`, { token: f.clerk });
        expect(res.json.code).toBe(CODE.FORBIDDEN);
      } finally {
        await t.db
          .update(authorityRules)
          .set({ urls: sql`array_append(${authorityRules.urls}, '/invoice/batch')` })
          .where(eq(authorityRules.orgId, orgId));
        own.app.accessService.forgetAll();
        t.app.accessService.forgetAll();
      }
    }
  });

  it('the template and a result download as Excel, named in Chinese, never cached', async () => {
    const tpl = await download(
      t.app,
      `/v3/batch-invoice/template?${f.scope(f.ids.software, f.ids.hq)}`,
      f.admin,
    );
    expect(tpl.headers).toMatchObject({
      'content-type': XLSX,
      'content-disposition': `attachment; filename="batch-template.xlsx"; filename*=UTF-8''${encodeURIComponent('批量开票模板.xlsx')}`,
      'cache-control': 'no-store',
    });
    const res = await download(
      t.app,
      `/v3/batch-invoice/result?${f.scope(f.ids.software, f.ids.bj)}&batch_id=${bjBatch}`,
      f.admin,
    );
    expect(res.headers).toMatchObject({
      'content-type': XLSX,
      'content-disposition': `attachment; filename="batch-result-${bjBatch}.xlsx"; filename*=UTF-8''${encodeURIComponent(`批量开票结果_${bjBatch}.xlsx`)}`,
      'cache-control': 'no-store',
    });
    expect(res.body.subarray(0, 2).toString()).toBe('PK');
  });
});
