import { readdirSync, readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as shared from '@kaipiao/shared';
import {
  BUYER_TYPE_LABELS,
  BUYER_TYPE_OPTIONS,
  INVOICE_TYPES,
  RETIRED_WORDINGS,
  retryIn,
  TERMS,
} from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_HEADERS } from '../src/modules/batches/result.ts';
import { batchTemplate } from '../src/modules/batches/template.ts';
import { renderInvoicePdf } from '../src/modules/documents/pdf.ts';
import { extractPdfText } from '../src/modules/documents/pdf-text.ts';
import { SAMPLE_SPECIFIC, sampleInvoice } from '../src/modules/documents/sample.ts';
import { goodsTemplate } from '../src/modules/goods/excel.ts';
import { runExport } from '../src/modules/query/export-runner.ts';
import { titleTemplate } from '../src/modules/titles/excel.ts';
import { redOf } from './fixtures/documents.ts';
import { insertFixtures } from './fixtures/query.ts';
import { buildTestApp } from './helper.ts';
import { unzipFile } from './zip.ts';

/**
 * Issue 24 item 4: one wording per term (packages/shared/src/glossary/terms.ts). Fails on a retired
 * wording (RETIRED_WORDINGS) wherever the product says something:
 * - its source: the console and the buyer's H5 pages (apps/web/src), the server with its Excel
 *   templates, PDFs and messages (apps/server/src), the shared rules and messages (packages/shared/src),
 *   their tests and fixtures (apps/server/test, apps/web/e2e) — with `${TERMS.x}` read as its wording,
 *   so a retired word cannot be put together from the glossary's parts either;
 * - every string the shared package exports (messages, field labels, option lists), as the code sees it;
 * - the Excel files the server hands out: the batch, goods and buyer-title templates, an export of
 *   the invoice library; and the text of generated invoice PDFs.
 * A line marked `glossary-allow` may keep an old word: parsers that still read old uploads, and the
 * tests that prove they do. The glossary itself and this file (which lists the old words) are skipped.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DIRS = ['apps/web/src', 'apps/server/src', 'packages/shared/src', 'apps/server/test', 'apps/web/e2e'];
const SKIP = new Set([
  path.join('packages/shared/src/glossary/terms.ts'),
  path.join('apps/server/test/glossary.test.ts'),
]);

type Finding = string;

/** The retired wordings in `text`, each named with where it was found and what to use instead. */
function retiredIn(text: string, where: string): Finding[] {
  const found: Finding[] = [];
  for (const w of RETIRED_WORDINGS) {
    const m = w.pattern.exec(text);
    if (m) found.push(`${where}: retired wording “${m[0]}” — use ${w.use}`);
  }
  return found;
}

const TERM_VALUES = TERMS as Record<string, string>;
const BUYER_LABELS = BUYER_TYPE_LABELS as Record<string, string>;
/** A source line as it reads once the glossary's terms are spelled out. */
function spelledOut(line: string): string {
  return line
    .replace(
      /\$\{TERMS\.(\w+)\}|\{TERMS\.(\w+)\}|\bTERMS\.(\w+)\b/g,
      (m, a, b, c) => TERM_VALUES[a ?? b ?? c] ?? m,
    )
    .replace(
      /\$\{BUYER_TYPE_LABELS\[(\d)\]\}|\bBUYER_TYPE_LABELS\[(\d)\]/g,
      (m, a, b) => BUYER_LABELS[a ?? b] ?? m,
    );
}

/** The findings of one source file's text. */
function scanSource(rel: string, content: string): Finding[] {
  const found: Finding[] = [];
  for (const [i, line] of content.split('\n').entries()) {
    if (line.includes('glossary-allow')) continue;
    found.push(...retiredIn(spelledOut(line), `${rel}:${i + 1}`).map((f) => `${f}\n      ${line.trim()}`));
  }
  return found;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!['node_modules', 'dist', 'test-results'].includes(name)) yield* sourceFiles(p);
    } else if (/\.(ts|tsx|html|json|css)$/.test(name)) {
      yield p;
    }
  }
}

/** Every text of an .xlsx: cells, notes, sheet names, drop-down lists (tags stripped, entities read). */
function xlsxText(file: Buffer): string {
  return unzipFile(file)
    .filter((p) => p.name.endsWith('.xml') || p.name.endsWith('.vml'))
    .map((p) =>
      p.data
        .toString('utf8')
        .replace(/<[^>]*>/g, '\n')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    )
    .join('\n');
}

const linesOf = (text: string, where: string) =>
  text.split('\n').flatMap((l, i) => retiredIn(l, `${where}, line ${i + 1}`).map((f) => `${f}: ${l.trim()}`));

/** Every string reachable in `value` (objects, arrays, message functions called with a number). */
function* stringsOf(
  value: unknown,
  at: string,
  depth = 0,
  seen = new Set<unknown>(),
): Generator<[string, string]> {
  if (typeof value === 'string') {
    yield [at, value];
    return;
  }
  if (depth > 4 || value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'function' && v.length <= 2) {
      try {
        const out = (v as (...a: unknown[]) => unknown)(1, '“x”');
        if (typeof out === 'string') yield [`${at}.${k}(…)`, out];
      } catch {
        // a function of other arguments: not a message
      }
    } else {
      yield* stringsOf(v, `${at}.${k}`, depth + 1, seen);
    }
  }
}

describe('glossary', () => {
  it('no retired wording in the source (web, server, shared and their tests), TERMS spelled out', () => {
    const found: Finding[] = [];
    let files = 0;
    for (const dir of DIRS) {
      for (const file of sourceFiles(path.join(ROOT, dir))) {
        const rel = path.relative(ROOT, file);
        if (SKIP.has(rel)) continue;
        files++;
        found.push(...scanSource(rel, readFileSync(file, 'utf8')));
      }
    }
    expect(files).toBeGreaterThan(600);
    expect(found, `\n${found.join('\n')}\n`).toEqual([]);
  });

  it('no retired wording in any string the shared package exports (messages, labels, options)', () => {
    const found: Finding[] = [];
    let strings = 0;
    for (const [name, value] of Object.entries(shared)) {
      // the old words parsers still read, and the list of the old words itself
      if (name === 'RETIRED_WORDINGS' || name === 'BATCH_KIND_ALIASES') continue;
      for (const [at, s] of stringsOf(value, name)) {
        strings++;
        found.push(...retiredIn(s, `@kaipiao/shared ${at} “${s}”`));
      }
    }
    expect(strings).toBeGreaterThan(1000);
    expect(found, `\n${found.join('\n')}\n`).toEqual([]);
  });

  it('no retired wording in the Excel templates the server ships (batch, goods, buyer titles)', async () => {
    const found: Finding[] = [];
    for (const [name, file] of [
      ['批量开票模板', await batchTemplate()],
      ['商品编码导入模板', await goodsTemplate()],
      ['购方抬头导入模板', await titleTemplate()],
    ] as const) {
      const text = xlsxText(file);
      // the file read back: its columns are there in the glossary's words
      expect(text, name).toContain(name === '购方抬头导入模板' ? TERMS.buyerType : TERMS.taxClassCode);
      found.push(...linesOf(text, name));
    }
    expect(xlsxText(await batchTemplate())).toContain(`"${BUYER_TYPE_LABELS[2]},${BUYER_TYPE_LABELS[1]}"`);
    found.push(...linesOf(RESULT_HEADERS.join('\n'), '批量开票结果表头'));
    expect(found, `\n${found.join('\n')}\n`).toEqual([]);
  });

  it('no retired wording in the text of generated invoice PDFs (普票, 专票, red, 04/06/09, the old form)', async () => {
    const s = sampleInvoice();
    const invoices = {
      普票: s,
      专票: sampleInvoice({ invoiceType: '81', title: INVOICE_TYPES['81'] }),
      红字: redOf(s),
      货物运输: sampleInvoice({
        specific: SAMPLE_SPECIFIC.freight(),
      }),
      旅客运输: sampleInvoice({
        specific: SAMPLE_SPECIFIC.passenger(),
      }),
      不动产租赁: sampleInvoice({
        specific: SAMPLE_SPECIFIC.rent(),
      }),
      税控电子普票: sampleInvoice({
        invoiceType: '026',
        title: INVOICE_TYPES['026'],
        digital: false,
        invoiceCode: '033002100111',
        invoiceNo: '01234567',
        checkCode: '12345678901234567890',
        machineNo: '661234567890',
        qrString: '',
      }),
    };
    const found: Finding[] = [];
    for (const [name, inv] of Object.entries(invoices)) {
      const text = await extractPdfText(await renderInvoicePdf(inv));
      expect(text, name).toContain(TERMS.totalWithTaxCapital);
      found.push(...linesOf(text, `PDF ${name}`));
    }
    expect(found, `\n${found.join('\n')}\n`).toEqual([]);
  }, 60_000);

  describe('an exported library workbook', () => {
    let t: Awaited<ReturnType<typeof buildTestApp>>;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-glossary-'));
      t = await buildTestApp({ env: { KAIPIAO_JOBS: 'off' } });
    });
    afterAll(async () => {
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    it('has no retired wording in its sheets, headers and cells', async () => {
      const f = await insertFixtures(t.db);
      const id = Number(
        (
          await t.db.execute<{ id: number }>(sql`
            insert into export_records (client_id, kind, status, filters, created_by, expires_at)
            values (${f.software}, 'excel', 'queued', '{}'::jsonb, ${f.admin}, now() + interval '7 days')
            returning id`)
        ).rows[0]!.id,
      );
      const pdfFor = async () => ({ fileName: 'x.pdf', content: Buffer.from('%PDF-1.7') });
      await runExport({ db: t.db, dataDir, pdfFor }, id);
      const [rec] = (
        await t.db.execute<{ status: string; file_path: string }>(
          sql`select status, file_path from export_records where id = ${id}`,
        )
      ).rows;
      expect(rec?.status).toBe('done');
      const text = xlsxText(await fs.readFile(path.join(dataDir, rec!.file_path)));
      expect(text).toContain(TERMS.totalWithTax);
      const found = linesOf(text, '发票明细导出');
      expect(found, `\n${found.join('\n')}\n`).toEqual([]);
    });
  });

  it('names the file, the line and the retired wording it finds, with what to use', () => {
    expect(
      // a retired wording written out, and one put together from the glossary's parts (\u0024 is $)
      scanSource('apps/web/src/x.tsx', "const a = '数电普票';\nconst b = `不含税\u0024{TERMS.amount}`;"),
    ).toEqual([
      "apps/web/src/x.tsx:1: retired wording “数电普票” — use the kind’s name in INVOICE_TYPES (e.g. 电子发票（普通发票）)\n      const a = '数电普票';",
      `apps/web/src/x.tsx:2: retired wording “不含税金额” — use ${TERMS.totalAmount} (an invoice) or 金额（不含税） (a line)\n      const b = \`不含税\${TERMS.amount}\`;`,
    ]);
    expect(scanSource('x.ts', "['企业单位', 2], // glossary-allow: still read")).toEqual([]);
  });

  it('catches each retired wording, and not the glossary’s own', () => {
    const retired = (s: string) => RETIRED_WORDINGS.some((w) => w.pattern.test(s));
    for (const old of [
      '个人/政府事业单位',
      '个人/事业单位',
      '企业单位',
      '"企业,个人"',
      '购买方类型须为“企业”或“个人”',
      '企业 或 个人（个人含政府事业单位）',
      '抬头类型',
      '119 s后重试',
      '59秒后重试',
      '数电普票',
      '纸质专票',
      '全电发票',
      '纸票',
      '蓝票',
      '红票',
      '托管数电账号',
      '数电设备',
      '电子税务局账号',
      '冲红原因',
      '发票号：',
      '红字信息确认单',
      '红字发票信息表',
      '税收编码',
      '分类简称',
      '商品名称',
      '货物名称',
      '不含税金额',
      '含税金额',
      '店铺',
      '审核人',
      '开票终端',
    ]) {
      expect(retired(old), old).toBe(true);
    }
    for (const now of [
      ...Object.values(BUYER_TYPE_LABELS),
      `${BUYER_TYPE_LABELS[2]} / ${BUYER_TYPE_LABELS[1]}`,
      `"${BUYER_TYPE_LABELS[2]},${BUYER_TYPE_LABELS[1]}"`,
      retryIn(59),
      '非企业单位',
      ...Object.values(INVOICE_TYPES),
      ...Object.values(TERMS),
      '金额（含税）',
      '金额（不含税）',
      '单价（不含税）',
      // the bureau's own names keep theirs: 货物运输服务's field, a 数电 invoice on paper, a red
      // invoice's reference to its confirmation form (备注)
      '运输货物名称',
      '数电纸票',
      '红字发票信息确认单编号',
    ]) {
      expect(retired(now), now).toBe(false);
    }
  });

  it('words the buyer types and the countdown once', () => {
    expect(BUYER_TYPE_OPTIONS.map((o) => [o.value, o.label])).toEqual([
      [2, '企业'],
      [1, '个人/非企业单位'],
    ]);
    expect(retryIn(119)).toBe('119s后重试');
  });
});
