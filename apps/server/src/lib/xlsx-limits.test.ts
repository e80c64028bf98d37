import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BATCH_CODE, CATALOG_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER_TAX_CODE, fillTemplate, invoiceRow, lineRow } from '../../test/fixtures/batches.ts';
import { type Fixture, invoicingFixture } from '../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../test/helper.ts';
import {
  download,
  handXlsx,
  sharedStringsBomb,
  sheetXml,
  upload,
  workbook,
  type ZipPart,
} from '../../test/xlsx-helpers.ts';
import { INVOICE_COLUMNS, LINE_COLUMNS } from '../modules/batches/columns.ts';
import { GOODS_COLUMNS } from '../modules/goods/excel.ts';
import { TITLE_COLUMNS } from '../modules/titles/excel.ts';
import { openXlsx, UPLOAD_LIMITS, type XlsxLimits, XlsxRefused } from './xlsx-reader.ts';

/**
 * Issue 21 H1: every Excel import (goods, buyer titles, batch issuing) is bounded before it is
 * parsed — zip entries, uncompressed sizes, rows — answers a Chinese refusal with memory flat,
 * leaves no temp file behind (after success, refusal or an aborted upload) and changes nothing
 * in the database when it refuses.
 */

const SOFTWARE_DEV = '3040201010000000000';
const MB = 1024 * 1024;

// Uploads and anything a parser might spill land in os.tmpdir(): a directory of this file's own.
const uploadTmp = mkdtempSync(path.join(os.tmpdir(), 'kaipiao-upload-test-'));
const savedTmp = process.env.TMPDIR;
process.env.TMPDIR = uploadTmp;

/** The largest growth of rss and heap while `fn` runs (sampled, and once at the end). */
async function memoryGrowth<T>(fn: () => Promise<T>): Promise<{ result: T; rssMb: number; heapMb: number }> {
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 5);
  try {
    const result = await fn();
    sample();
    return { result, rssMb: (rss - base.rss) / MB, heapMb: (heap - base.heapUsed) / MB };
  } finally {
    clearInterval(timer);
  }
}

const header = (cols: readonly { header: string; exportOnly?: boolean }[]) =>
  cols.filter((c) => !c.exportOnly).map((c) => c.header);

describe('bounded Excel uploads (issue 21 H1)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let template: Buffer;
  const scope = () => `client_id=${f.ids.software}&sid=${f.ids.hq}`;
  const urls = () => ({
    goods: `/v3/client-project/import?${scope()}`,
    titles: `/v3/client-title/import?${scope()}`,
    batch: `/v3/batch-invoice/upload?${scope()}&device_id=${f.ids.digital}&invoice_type=82`,
  });
  type Kind = 'goods' | 'titles' | 'batch';
  const send = (kind: Kind, content: Buffer, filename = 'file.xlsx') =>
    upload(t.app, urls()[kind], f.admin, { filename, content });

  /** Rows of every table an import writes. */
  const counts = async () => {
    const n = async (table: string) =>
      Number(
        (await t.db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`))).rows[0]!.n,
      );
    return {
      goods: await n('goods'),
      titles: await n('buyer_titles'),
      batches: await n('batches'),
      batchRows: await n('batch_rows'),
      invoices: await n('invoices'),
    };
  };
  const tmpFiles = () => readdirSync(uploadTmp);

  /** One sheet per import with its real header row, as each import expects it. */
  const sheetsOf = (kind: Kind) =>
    kind === 'batch'
      ? [
          { name: '发票信息', header: header(INVOICE_COLUMNS) },
          { name: '商品明细', header: header(LINE_COLUMNS) },
        ]
      : [
          {
            name: kind === 'goods' ? '商品编码' : '购方抬头',
            header: header(kind === 'goods' ? GOODS_COLUMNS : TITLE_COLUMNS),
          },
        ];

  const bombs = new Map<string, Buffer>();

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    template = (await download(t.app, `/v3/batch-invoice/template?${scope()}`, f.admin)).body;
    for (const kind of ['goods', 'titles', 'batch'] as const) {
      bombs.set(kind, sharedStringsBomb({ sheets: sheetsOf(kind) }));
      bombs.set(`${kind}-lie`, sharedStringsBomb({ sheets: sheetsOf(kind), lie: true }));
    }
  });

  afterAll(() => {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    rmSync(uploadTmp, { recursive: true, force: true });
  });

  const codeOf = {
    goods: CATALOG_CODE.IMPORT_NOT_EXCEL,
    titles: CATALOG_CODE.IMPORT_NOT_EXCEL,
    batch: BATCH_CODE.FILE_TOO_LARGE,
  };

  it('the bomb is what the issue describes: ~1.6 MB that expands to 1.5 GB of shared strings', () => {
    const bomb = bombs.get('goods')!;
    expect(bomb.length).toBeLessThan(2 * MB);
    // the declared size of xl/sharedStrings.xml in the central directory
    const name = Buffer.from('xl/sharedStrings.xml');
    const at = bomb.lastIndexOf(name);
    expect(bomb.readUInt32LE(at - 46 + 24)).toBeGreaterThan(1.4e9);
  });

  for (const kind of ['goods', 'titles', 'batch'] as const) {
    it(`${kind}: a zip bomb is refused in Chinese with memory flat, honest or lying about its size`, async () => {
      const before = await counts();
      for (const variant of [kind, `${kind}-lie`]) {
        const { result: res, rssMb, heapMb } = await memoryGrowth(() => send(kind, bombs.get(variant)!));
        expect(res.status).toBe(200);
        expect(res.json.code).toBe(codeOf[kind]);
        expect(res.json.message).toMatch(/^文件解压后过大（.+），请检查文件或拆分后再(导入|上传)$/);
        // the old code grew by 1.6–1.7 GB here
        expect(rssMb).toBeLessThan(100);
        expect(heapMb).toBeLessThan(100);
      }
      expect((await send(kind, bombs.get(kind)!)).json.message).toContain(
        `超过${(kind === 'batch' ? UPLOAD_LIMITS.batch : UPLOAD_LIMITS.list).sharedStringsBytes / MB}MB`,
      );
      expect(await counts()).toEqual(before);
      expect(tmpFiles()).toEqual([]);
    });
  }

  /** A small valid file for each import, written by hand (no styles, no shared strings). */
  const validHand = (kind: Kind, extra: ZipPart[] = []) => {
    const rows: Record<Kind, string[][][]> = {
      goods: [
        [
          ['项目名称', '税收分类编码', '税率'],
          ['手写商品', SOFTWARE_DEV, '6%'],
        ],
      ],
      titles: [
        [
          ['购买方类型', '名称', '纳税人识别号'],
          ['企业', '手写抬头有限公司', BUYER_TAX_CODE],
        ],
      ],
      batch: [
        [
          ['流水号', '购买方类型', '购买方名称', '购买方纳税人识别号'],
          ['H1', '企业', '手写客户有限公司', BUYER_TAX_CODE],
        ],
        [
          ['流水号', '项目名称', '税收分类编码', '金额', '税率'],
          ['H1', '软件开发服务', SOFTWARE_DEV, '100', '6%'],
        ],
      ],
    };
    const names = sheetsOf(kind).map((s) => s.name);
    return handXlsx({ sheets: rows[kind].map((r, i) => ({ name: names[i]!, xml: sheetXml(r) })), extra });
  };

  for (const kind of ['goods', 'titles', 'batch'] as const) {
    it(`${kind}: a file of more than ${UPLOAD_LIMITS.list.entries} zip entries is refused; the same file without them is read`, async () => {
      const before = await counts();
      const padding = Array.from({ length: UPLOAD_LIMITS.list.entries + 1 }, (_, i) => ({
        name: `xl/media/pad${i}.bin`,
        data: 'x',
      }));
      const res = await send(kind, validHand(kind, padding));
      expect(res.json.code).toBe(kind === 'batch' ? BATCH_CODE.NOT_EXCEL : CATALOG_CODE.IMPORT_NOT_EXCEL);
      expect(res.json.message).toContain(`部件超过${UPLOAD_LIMITS.list.entries}个`);
      expect(await counts()).toEqual(before);
      // the hand-written file itself is a workbook every import reads
      const ok = await send(kind, validHand(kind));
      expect(ok.json.code).toBe(0);
      expect(tmpFiles()).toEqual([]);
    });
  }

  it('a sheet with millions of rows is refused before it is parsed, memory flat', async () => {
    const before = await counts();
    const rowsBomb = (kind: Kind, times: number) => {
      const sheets = sheetsOf(kind);
      const head = sheetXml([sheets[0]!.header]).replace('</sheetData></worksheet>', '');
      return handXlsx({
        sheets: sheets.map((s, i) =>
          i === 0
            ? { name: s.name, repeat: { head, unit: '<row/>', times, tail: '</sheetData></worksheet>' } }
            : { name: s.name, xml: sheetXml([s.header]) },
        ),
      });
    };
    for (const kind of ['goods', 'titles'] as const) {
      const { result: res, rssMb, heapMb } = await memoryGrowth(() => send(kind, rowsBomb(kind, 2_000_000)));
      expect(res.json.code).toBe(CATALOG_CODE.IMPORT_TOO_MANY_ROWS);
      expect(res.json.message).toContain(`超过${UPLOAD_LIMITS.list.sheetRows}行`);
      expect(rssMb).toBeLessThan(100);
      expect(heapMb).toBeLessThan(100);
    }
    const batch = await send('batch', rowsBomb('batch', UPLOAD_LIMITS.batch.sheetRows + 1));
    expect(batch.json.code).toBe(BATCH_CODE.TOO_MANY);
    expect(batch.json.message).toContain(`超过${UPLOAD_LIMITS.batch.sheetRows}行`);
    expect(await counts()).toEqual(before);
    expect(tmpFiles()).toEqual([]);
  });

  it('leaves no temp file after a successful import of each kind', async () => {
    const goods = await send(
      'goods',
      await workbook([
        ['项目名称', '税收分类编码', '税率'],
        ['临时文件测试商品', SOFTWARE_DEV, '6%'],
      ]),
    );
    expect(goods.json.code).toBe(0);
    const titles = await send(
      'titles',
      await workbook([
        ['购买方类型', '名称', '纳税人识别号'],
        ['企业', '临时文件测试有限公司', BUYER_TAX_CODE],
      ]),
    );
    expect(titles.json.code).toBe(0);
    // the real template, as Excel users fill it (sheets stored before the shared strings)
    const batch = await send('batch', await fillTemplate(template, [invoiceRow('TMP1')], [lineRow('TMP1')]));
    expect(batch.json.code).toBe(0);
    expect(tmpFiles()).toEqual([]);
  }, 60_000);

  it('leaves no temp file after a refused import (bad header, too many rows, wrong rows, bomb)', async () => {
    const before = await counts();
    expect((await send('goods', await workbook([['名字'], ['a']]))).json.code).toBe(
      CATALOG_CODE.IMPORT_BAD_HEADER,
    );
    expect((await send('batch', await workbook([['流水号'], ['1']]))).json.code).toBe(BATCH_CODE.BAD_HEADER);
    const many = handXlsx({
      sheets: [
        {
          name: '购方抬头',
          xml: sheetXml([
            ['购买方类型', '名称', '纳税人识别号'],
            ...Array.from({ length: 5001 }, (_, i) => ['个人', `客户${i}`, '']),
          ]),
        },
      ],
    });
    const tooMany = await send('titles', many);
    expect(tooMany.json.code).toBe(CATALOG_CODE.IMPORT_TOO_MANY_ROWS);
    expect(tooMany.json.message).toContain('当前文件有5001行');
    // a batch file refused by its rows (both sheets are read, then the report is built)
    const wrong = await fillTemplate(
      template,
      [invoiceRow('TMP3', { 购买方类型: '外星人' })],
      [lineRow('TMP3')],
    );
    expect((await send('batch', wrong)).json.code).toBe(BATCH_CODE.ROWS_INVALID);
    expect((await send('batch', bombs.get('batch')!)).json.code).toBe(BATCH_CODE.FILE_TOO_LARGE);
    expect(await counts()).toEqual(before);
    expect(tmpFiles()).toEqual([]);
  }, 60_000);

  it('refuses a multipart body that sends many form fields before the file, and changes nothing', async () => {
    const before = await counts();
    const boundary = '----kaipiaoFields';
    const file = await workbook([
      ['项目名称', '税收分类编码', '税率'],
      ['字段测试商品', SOFTWARE_DEV, '6%'],
    ]);
    // @fastify/multipart alone would hold up to 1,000 such fields of 1 MB in memory before the file
    const fields = Array.from(
      { length: UPLOAD_LIMITS.multipart.parts + 5 },
      (_, i) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n${'x'.repeat(1000)}\r\n`,
    ).join('');
    const payload = Buffer.concat([
      Buffer.from(
        `${fields}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\n` +
          'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    for (const kind of ['goods', 'batch'] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: urls()[kind],
        headers: { 'access-token': f.admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.json().code).toBe(kind === 'goods' ? CATALOG_CODE.IMPORT_NO_FILE : BATCH_CODE.NO_FILE);
    }
    expect(await counts()).toEqual(before);
  });

  it('an upload the client aborts halfway leaves no temp file and changes nothing', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const before = await counts();
    for (const kind of ['goods', 'batch'] as const) {
      const served = new Promise<void>((resolve) => {
        t.app.server.once('request', (req) => req.once('close', () => resolve()));
      });
      const boundary = '----kaipiaoAbort';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.xlsx"\r\n` +
          'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
      );
      const sock = net.connect(port, '127.0.0.1');
      await new Promise<void>((resolve, reject) => {
        sock.once('connect', resolve);
        sock.once('error', reject);
      });
      sock.on('error', () => undefined);
      sock.write(
        `POST ${urls()[kind]} HTTP/1.1\r\nHost: 127.0.0.1\r\naccess-token: ${f.admin}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${4 * MB}\r\n\r\n`,
      );
      sock.write(head);
      // half of the promised body: the start of a real .xlsx, then padding
      sock.write(Buffer.concat([bombs.get(kind)!.subarray(0, 64 * 1024), Buffer.alloc(2 * MB, 0x41)]));
      await new Promise<void>((resolve) => sock.write('', () => resolve()));
      sock.destroy();
      await served;
      // the server goes on answering, and nothing stayed behind
      const res = await call(t.app, 'GET', `/v3/client-project/get-projects?${scope()}`, { token: f.admin });
      expect(res.json.code).toBe(0);
      expect(tmpFiles()).toEqual([]);
    }
    expect(await counts()).toEqual(before);
  });
});

describe('openXlsx (the bounded reader itself)', () => {
  const sheet = (rows: number) =>
    handXlsx({
      sheets: [
        {
          name: 'S',
          repeat: {
            head: sheetXml([['a']]).replace('</sheetData></worksheet>', ''),
            unit: '<row r="2"><c r="A2" t="inlineStr"><is><t>x</t></is></c></row>',
            times: rows - 1,
            tail: '</sheetData></worksheet>',
          },
        },
      ],
    });
  const readAll = async (buffer: Buffer, limits: XlsxLimits) => {
    const book = await openXlsx(buffer, limits);
    let n = 0;
    for await (const _row of book.rows(book.sheets[0]!)) n++;
    return n;
  };
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => (e instanceof XlsxRefused ? e.kind : String(e)),
    );

  it('counts every <row> across inflate chunks: the limit itself passes, one more is refused', async () => {
    const limits = { ...UPLOAD_LIMITS.list, sheetRows: 30_000 };
    expect(await readAll(sheet(30_000), limits)).toBe(30_000);
    expect(await refusal(readAll(sheet(30_001), limits))).toBe('too_many_rows');
  });

  it('refuses a part whose CRC does not match, and entries whose sizes together pass the total', async () => {
    const good = handXlsx({ sheets: [{ name: 'S', xml: sheetXml([['a'], ['b']]) }] });
    expect(await readAll(good, UPLOAD_LIMITS.list)).toBe(2);
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    const bad = Buffer.from(good);
    const central = bad.lastIndexOf(name) - 46;
    bad.writeUInt32LE((bad.readUInt32LE(central + 16) ^ 1) >>> 0, central + 16);
    expect(await refusal(readAll(bad, UPLOAD_LIMITS.list))).toBe('corrupt');

    const parts = Array.from({ length: 3 }, (_, i) => ({
      name: `xl/media/big${i}.bin`,
      repeat: { head: '', unit: 'x', times: 30 * MB, tail: '' },
    }));
    const big = handXlsx({ sheets: [{ name: 'S', xml: sheetXml([['a']]) }], extra: parts });
    const err = await openXlsx(big, UPLOAD_LIMITS.list).catch((e: XlsxRefused) => e);
    expect(err).toBeInstanceOf(XlsxRefused);
    expect((err as XlsxRefused).message).toContain(`合计超过${UPLOAD_LIMITS.list.totalBytes / MB}MB`);
  });
});
