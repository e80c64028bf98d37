import { Writable } from 'node:stream';
import { CATALOG_CODE, CODE, hiddenCharMessage } from '@kaipiao/shared';
import { sql as dsql, eq, like } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillTemplate, invoiceRow, lineRow } from '../../test/fixtures/batches.ts';
import { type Fixture, invoicingFixture, payload } from '../../test/fixtures/invoices.ts';
import { buildTestApp, call, DEMO, login } from '../../test/helper.ts';
import { download, upload, workbook } from '../../test/xlsx-helpers.ts';
import { type App, buildApp } from '../app.ts';
import type { DbHandle } from '../db/client.ts';
import { batches, buyerTitles, goods, invoices } from '../db/schema/index.ts';
import { textGaps } from './text-coverage.ts';

/**
 * Issue 21 item 5 (L2, L5): NUL bytes, lone surrogates, bidi controls and zero-width characters in
 * any request string are refused with 10001 and a Chinese message naming the field — never a 500,
 * never SQL in the log — and nothing is stored.
 */

const BAD: Array<[string, string]> = [
  ['NUL', '\u0000'],
  ['right-to-left override', '\u202E'],
  ['zero-width space', '\u200B'],
  ['lone surrogate', '\uD800'],
  ['bell (C0)', '\u0007'],
  ['first strong isolate', '\u2068'],
  ['byte-order mark', '\uFEFF'],
];

const LONE = /[\uD800-\uDFFF]/;
const SECRET = 'params-must-not-be-logged-7731';

describe('request strings (issue 21 item 5)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let app: App;
  let f: Fixture;
  let admin: string;
  const logs: string[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    // a second app on the same database whose log we read
    const stream = new Writable({
      write(chunk, _enc, done) {
        logs.push(String(chunk));
        done();
      },
    });
    app = await buildApp({
      env: t.app.env,
      dbHandle: { db: t.db, pool: t.pool, close: async () => {} } as DbHandle,
      logger: { level: 'info', stream },
    });
    // paths that hand text to PostgreSQL without a schema (as an import cell or header might)
    app.post('/v3/test/raw-pg', { config: { auth: 'public' } }, async (req) => {
      const { v } = req.body as { v: string };
      await t.pool.query('select $1::text as v', [v]);
      return { code: 0, message: '', data: null };
    });
    app.post('/v3/test/raw-drizzle', { config: { auth: 'public' } }, async (req) => {
      const { v } = req.body as { v: string };
      await t.db.execute(dsql`select ${v}::text as v`);
      return { code: 0, message: '', data: null };
    });
    app.post('/v3/test/db-crash', { config: { auth: 'public' } }, async () => {
      await t.db.execute(dsql`select ${SECRET}::text as v, 1 / ${0}::int as boom`);
      return { code: 0, message: '', data: null };
    });
    await app.ready();
    admin = await login(app, DEMO.admin.account);
    f = await invoicingFixture(app, t.db);
  });

  afterAll(async () => {
    await app.close();
  });

  const expectRefused = (
    res: { status: number; json: { code: number; message: string; data: any } },
    field: string,
    label: string,
  ) => {
    expect(res.status).toBe(200);
    expect(res.json.code).toBe(CODE.VALIDATION);
    expect(res.json.message).toBe(hiddenCharMessage(label));
    expect(res.json.data.errors).toContainEqual({ field, message: hiddenCharMessage(label) });
  };

  it('every body, query and params string of every route goes through text()', async () => {
    expect(textGaps(app)).toEqual([]);
  });

  describe.each(BAD)('%s', (_what, ch) => {
    it('account-login: account and unique_code (no login needed)', async () => {
      const body = {
        account: `kaipiao${ch}_admin`,
        password: 'x'.repeat(32),
        picture_code: '1234',
        unique_code: 'abc',
      };
      expectRefused(await call(app, 'POST', '/v3/user/account-login', { body }), 'account', '账号');
      expectRefused(
        await call(app, 'POST', '/v3/user/account-login', {
          body: { ...body, account: DEMO.admin.account, unique_code: `a${ch}b` },
        }),
        'unique_code',
        '图片验证码标识',
      );
    });

    it('multi-factor/check: account', async () => {
      const res = await call(app, 'POST', '/v3/multi-factor/check', {
        body: { account: `${ch}kaipiao_admin` },
      });
      expectRefused(res, 'account', '账号');
    });

    it('client-title/create: name and address; nothing stored', async () => {
      const scope = `client_id=${f.ids.software}`;
      const name = `抬头${ch}测试公司`;
      expectRefused(
        await call(app, 'POST', `/v3/client-title/create?${scope}`, {
          token: admin,
          body: { title_type: 1, name },
        }),
        'name',
        '抬头名称',
      );
      expectRefused(
        await call(app, 'POST', `/v3/client-title/create?${scope}`, {
          token: admin,
          body: { title_type: 1, name: '抬头测试地址', address: `西湖区${ch}` },
        }),
        'address',
        '地址',
      );
      const stored = await t.db.select().from(buyerTitles).where(like(buyerTitles.name, '抬头%测试%'));
      expect(stored).toEqual([]);
    });

    it('client-title/list and get-info-by-tax-code: the query string', async () => {
      if (LONE.test(ch)) {
        // a URL carries UTF-8: a lone surrogate cannot be percent-encoded, and the bytes a client
        // could send instead (its CESU-8 form) do not decode to one: an ordinary search (so this
        // case is only the body's)
        expect(() => encodeURIComponent(ch)).toThrow(URIError);
        const res = await call(
          app,
          'GET',
          `/v3/client-title/list?client_id=${f.ids.software}&keyword=a%ED%A0%80`,
          { token: admin },
        );
        expect(res.status).toBe(200);
        expect(res.json.code).toBe(0);
        return;
      }
      const enc = encodeURIComponent(ch);
      expectRefused(
        await call(app, 'GET', `/v3/client-title/list?client_id=${f.ids.software}&keyword=a${enc}`, {
          token: admin,
        }),
        'keyword',
        '搜索关键词',
      );
      expectRefused(
        await call(
          app,
          'GET',
          `/v3/client/get-info-by-tax-code?client_id=${f.ids.software}&tax_code=${enc}`,
          {
            token: admin,
          },
        ),
        'tax_code',
        '纳税人识别号',
      );
    });

    it('online-invoicing/blue: the buyer name; no invoice', async () => {
      const body = payload(f.ids.digital, { buyer: { name: `杭州${ch}西溪数据服务有限公司` } });
      expectRefused(await f.issue(body), 'buyer.name', '购方名称');
      const rows = await t.db.select().from(invoices).where(eq(invoices.serialNo, body.serial_no));
      expect(rows).toEqual([]);
    });
  });

  it('keeps good Chinese, Latin and emoji text (valid surrogate pairs)', async () => {
    const name = '好吃😀面馆 Noodle Bar 𠀀';
    const res = await call(app, 'POST', `/v3/client-title/create?client_id=${f.ids.software}`, {
      token: admin,
      body: { title_type: 1, name },
    });
    expect(res.json.code).toBe(0);
    const [row] = await t.db.select().from(buyerTitles).where(eq(buyerTitles.name, name));
    expect(row?.name).toBe(name);
  });

  it('property: one bad character anywhere in good text is refused by every route tried', async () => {
    const bad = fc.constantFrom(
      ...BAD.map(([, ch]) => ch),
      '\u202A',
      '\u2066',
      '\u200C',
      '\u200F',
      '\u061C',
      '\u001F',
    );
    const good = fc.string({
      unit: fc.constantFrom('张', '三', 'a', 'Z', ' ', '😀', '𠀀', '-', '1'),
      minLength: 1,
    });
    const routes: Array<(v: string) => Promise<{ status: number; json: any }>> = [
      (v) =>
        call(app, 'POST', '/v3/user/account-login', {
          body: { account: v, password: 'x'.repeat(32), picture_code: '1234', unique_code: 'abc' },
        }),
      (v) => call(app, 'POST', '/v3/multi-factor/check', { body: { account: v } }),
      (v) =>
        call(app, 'POST', `/v3/client-title/create?client_id=${f.ids.software}`, {
          token: admin,
          body: { title_type: 1, name: `抬头${v}测试` },
        }),
      // a lone surrogate cannot travel in a URL (see above): the body of the title form instead
      (v) =>
        LONE.test(v)
          ? call(app, 'POST', `/v3/client-title/create?client_id=${f.ids.software}`, {
              token: admin,
              body: { title_type: 1, name: '抬头测试', address: v },
            })
          : call(
              app,
              'GET',
              `/v3/client-title/list?client_id=${f.ids.software}&keyword=${encodeURIComponent(v)}`,
              {
                token: admin,
              },
            ),
    ];
    await fc.assert(
      fc.asyncProperty(good, bad, fc.nat(), fc.nat(routes.length - 1), async (s, ch, at, r) => {
        const chars = [...s];
        const i = at % (chars.length + 1);
        const v = [...chars.slice(0, i), ch, ...chars.slice(i)].join('');
        const res = await routes[r]!(v);
        expect(res.status).toBe(200);
        expect(res.json.code).toBe(CODE.VALIDATION);
        expect(res.json.message).toMatch(/含有不可见或控制字符，请删除后重新输入$/);
      }),
      { numRuns: 60 },
    );
    expect(await t.db.select().from(buyerTitles).where(like(buyerTitles.name, '抬头%测试'))).toEqual([]);
  });

  it('an Excel import refuses the cell with the same rule and writes nothing', async () => {
    const file = await workbook([
      ['购买方类型', '名称', '纳税人识别号', '地址'],
      ['个人', '导入正常客户', '', ''],
      ['个人', '导入\u202E客户', '', ''],
      ['个人', '导入客户乙', '', '西湖区\u200B'],
    ]);
    const res = await upload(app, `/v3/client-title/import?client_id=${f.ids.software}`, admin, {
      filename: 'titles.xlsx',
      content: file,
    });
    expect(res.json.code).toBe(CATALOG_CODE.IMPORT_ROWS_INVALID);
    expect(res.json.data.errors).toEqual([
      { row: 3, column: '名称', message: hiddenCharMessage('抬头名称') },
      { row: 4, column: '地址', message: hiddenCharMessage('地址') },
    ]);
    expect(await t.db.select().from(buyerTitles).where(like(buyerTitles.name, '导入%'))).toEqual([]);
  });

  it('a goods import refuses the cell with the same rule and writes nothing', async () => {
    const file = await workbook([
      ['项目名称', '税收分类编码', '规格型号', '单位', '税率'],
      ['导入软件服务', '3040201010000000000', '', '项', '6%'],
      ['导入\u200B运维服务', '3040201010000000000', '', '项', '6%'],
      ['导入咨询服务', '3040201010000000000', 'A\u2066B', '项', '6%'],
    ]);
    const res = await upload(app, `/v3/client-project/import?client_id=${f.ids.software}`, admin, {
      filename: 'goods.xlsx',
      content: file,
    });
    expect(res.json.code).toBe(CATALOG_CODE.IMPORT_ROWS_INVALID);
    expect(res.json.data.errors).toEqual([
      { row: 3, column: '项目名称', message: hiddenCharMessage('项目名称') },
      { row: 4, column: '规格型号', message: hiddenCharMessage('规格型号') },
    ]);
    expect(await t.db.select().from(goods).where(like(goods.name, '导入%'))).toEqual([]);
  });

  it('a batch file: cells by the same rule, and the file name; no batch made', async () => {
    const scope = `client_id=${f.ids.software}&sid=${f.ids.hq}`;
    const template = (await download(app, `/v3/batch-invoice/template?${scope}`, admin)).body;
    const file = await fillTemplate(
      template,
      [invoiceRow('STR1', { 购买方名称: '杭州\u202E测试客户有限公司' }), invoiceRow('STR2')],
      [lineRow('STR1'), lineRow('STR2', { 项目名称: '软件\u200B开发服务' })],
    );
    const send = (filename: string) =>
      upload(app, `/v3/batch-invoice/upload?${scope}&device_id=${f.ids.digital}&invoice_type=82`, admin, {
        filename,
        content: file,
      });
    const res = await send('batch.xlsx');
    expect(res.status).toBe(200);
    const at = (sheet: string, column: string) =>
      (res.json.data?.errors ?? []).find(
        (e: { sheet: string; column: string }) => e.sheet === sheet && e.column === column,
      )?.message;
    expect(at('发票信息', '购买方名称')).toBe(hiddenCharMessage('购方名称'));
    expect(at('商品明细', '项目名称')).toBe(hiddenCharMessage('项目名称'));
    const named = await send('发票\u202Exslx.exe.xlsx');
    expect(named.json).toEqual({ code: CODE.VALIDATION, message: hiddenCharMessage('文件名'), data: null });
    expect(await t.db.select().from(batches)).toEqual([]);
  });

  it('text that bypasses the schemas and that PostgreSQL refuses is a 10001, not a 500', async () => {
    for (const url of ['/v3/test/raw-pg', '/v3/test/raw-drizzle']) {
      const res = await call(app, 'POST', url, { body: { v: `${SECRET}\u0000` } });
      expect(res.status, url).toBe(200);
      expect(res.json).toEqual({ code: CODE.VALIDATION, message: hiddenCharMessage('输入内容'), data: null });
    }
  });

  it('a database crash is a 500 whose log names the error, not the SQL or its parameters', async () => {
    const before = logs.length;
    const res = await call(app, 'POST', '/v3/test/db-crash', { body: {} });
    expect(res.status).toBe(500);
    const logged = logs.slice(before).join('\n');
    expect(logged).toContain('22012'); // division_by_zero
    expect(logged).toContain('division by zero');
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toMatch(/select|Failed query|params:/i);
  });

  it('any other log of a database error (jobs, hooks) leaves the SQL and its parameters out', async () => {
    const err = await t.db.execute(dsql`select ${SECRET}::text as v, 1 / ${0}::int as boom`).catch((e) => e);
    expect(String(err.message)).toContain(SECRET); // what drizzle puts in the message
    const before = logs.length;
    app.log.error({ err }, 'a background job failed');
    const logged = logs.slice(before).join('\n');
    expect(logged).toContain('22012');
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toMatch(/select|Failed query|params:/i);
  });

  it('nothing logged by these requests holds SQL or the values sent', () => {
    const all = logs.join('\n');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toMatch(/Failed query|params:|select |insert into|\\u0000/i);
    expect(all).not.toContain(SECRET);
  });
});
