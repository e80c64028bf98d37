import { PassThrough } from 'node:stream';
import { BATCH_SHEETS, usccCheckChar } from '@kaipiao/shared';
import ExcelJS from 'exceljs';
import { esc, unzipFile, zipFile } from '../../../test/zip.ts';
import { INVOICE_COLUMNS, LINE_COLUMNS } from './columns.ts';

/** A value per column header (without the required mark). */
export type CellMap = Record<string, string | number | { formula: string } | null>;

export const BUYER_TAX_CODE = `91330100MA2B3C4D5${usccCheckChar('91330100MA2B3C4D5')}`;

/** An invoice row of 发票信息 (enterprise buyer, tax-inclusive prices) with overrides. */
export function invoiceRow(serial: string, over: CellMap = {}): CellMap {
  return {
    流水号: serial,
    发票种类: '数电普票',
    购买方类型: '企业',
    购买方名称: `杭州测试客户${serial}有限公司`,
    购买方纳税人识别号: BUYER_TAX_CODE,
    购买方邮箱: 'finance@example.com',
    单价金额含税: '是',
    备注: '',
    ...over,
  };
}

/** A line row of 商品明细 (software service, 6%) with overrides. */
export function lineRow(serial: string, over: CellMap = {}): CellMap {
  return {
    流水号: serial,
    项目名称: '软件开发服务',
    税收分类编码: '3040201010000000000',
    单位: '项',
    数量: '2',
    单价: '530',
    金额: '1060',
    税率: '6%',
    ...over,
  };
}

const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e]!,
  );
const attrs = (tag: string) =>
  Object.fromEntries([...tag.matchAll(/([\w:]+)="([^"]*)"/g)].map((m) => [m[1]!, unescapeXml(m[2]!)]));
const columnIndex = (letters: string) => [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
const texts = (xml: string) =>
  unescapeXml([...xml.matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>/g)].map((m) => m[1]).join(''));

/**
 * Fills the downloaded template the way a clerk would, keeping its sheets, notes and lists: the
 * rows go into the sheets' XML (their strings into the shared strings) and every other part of the
 * file stays byte for byte. (Through exceljs this took seconds a file: it expands the template's
 * drop-down lists, 230,000 cells of them, to read and write it.)
 */
export async function fillTemplate(
  template: Buffer,
  invoices: readonly CellMap[],
  lines: readonly CellMap[],
): Promise<Buffer> {
  const parts = unzipFile(template);
  const part = (name: string) => {
    const p = parts.find((x) => x.name === name);
    if (!p) throw new Error(`fillTemplate: the template has no ${name}`);
    return p;
  };
  const rels = new Map(
    [
      ...part('xl/_rels/workbook.xml.rels')
        .data.toString('utf8')
        .matchAll(/<Relationship\s[^>]*>/g),
    ].map((m) => {
      const a = attrs(m[0]);
      return [a.Id!, a.Target!] as const;
    }),
  );
  const sheetPath = new Map(
    [
      ...part('xl/workbook.xml')
        .data.toString('utf8')
        .matchAll(/<sheet\s[^>]*>/g),
    ].map((m) => {
      const a = attrs(m[0]);
      const target = rels.get(a['r:id']!)!;
      return [a.name!, target.startsWith('/') ? target.slice(1) : `xl/${target}`] as const;
    }),
  );
  const sst = part('xl/sharedStrings.xml');
  const sstXml = sst.data.toString('utf8');
  const strings = [...sstXml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => texts(m[1]!));
  const added: string[] = [];
  const stringIndex = (v: string) => {
    const known = strings.indexOf(v);
    if (known >= 0) return known;
    strings.push(v);
    added.push(v);
    return strings.length - 1;
  };

  const fill = (sheetName: string, rows: readonly CellMap[]) => {
    const p = part(sheetPath.get(sheetName) ?? `(sheet ${sheetName})`);
    const xml = p.data.toString('utf8');
    const header = /<row [^>]*r="1"[^>]*>([\s\S]*?)<\/row>/.exec(xml)?.[1] ?? '';
    const cols = new Map<string, string>();
    for (const m of header.matchAll(/<c ([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const a = attrs(m[1]!);
      const body = m[2] ?? '';
      const v = /<v>([^<]*)<\/v>/.exec(body)?.[1];
      const text =
        a.t === 's' ? strings[Number(v)] : a.t === 'inlineStr' ? texts(body) : unescapeXml(v ?? '');
      if (text) cols.set(text.replace(/\*$/, ''), a.r!.replace(/\d+$/, ''));
    }
    const body = rows
      .map((r, i) => {
        const n = i + 2;
        const cells = Object.entries(r)
          .map(([h, v]) => {
            const col = cols.get(h);
            if (!col) throw new Error(`no column ${h}`);
            return [col, v] as const;
          })
          .filter(([, v]) => v !== null && v !== undefined)
          .sort(([a], [b]) => columnIndex(a) - columnIndex(b))
          .map(([col, v]) => {
            const ref = `${col}${n}`;
            if (typeof v === 'number') return `<c r="${ref}"><v>${v}</v></c>`;
            if (typeof v === 'object') return `<c r="${ref}"><f>${esc(v!.formula)}</f></c>`;
            return `<c r="${ref}" t="s"><v>${stringIndex(v)}</v></c>`;
          });
        return `<row r="${n}">${cells.join('')}</row>`;
      })
      .join('');
    if (!xml.includes('</sheetData>')) throw new Error(`fillTemplate: ${sheetName} has no rows`);
    p.data = Buffer.from(xml.replace('</sheetData>', `${body}</sheetData>`));
  };
  fill(BATCH_SHEETS.invoices, invoices);
  fill(BATCH_SHEETS.lines, lines);

  const items = added.map((v) => `<si><t xml:space="preserve">${esc(v)}</t></si>`).join('');
  sst.data = Buffer.from(
    sstXml
      .replace(/<\/sst>\s*$/, `${items}</sst>`)
      .replace(/(<sst\b[^>]*?\buniqueCount=")\d+/, `$1${strings.length}`)
      .replace(/(<sst\b[^>]*?\bcount=")\d+/, (_, head: string) => `${head}${strings.length}`),
  );
  return zipFile(parts);
}

/**
 * A large batch file written with the streaming writer (the 10,000-invoice benchmark, the
 * 100,000-row refusal): `invoices` invoices with `linesPer` lines each, plus `extraLines` more.
 */
export async function bigBatchFile(opts: {
  invoices: number;
  linesPer?: number;
  extraLines?: number;
  serialPrefix?: string;
}): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: false,
  });
  const inv = wb.addWorksheet(BATCH_SHEETS.invoices);
  inv.addRow(INVOICE_COLUMNS.map((c) => c.header)).commit();
  const prefix = opts.serialPrefix ?? 'S';
  const invCols = INVOICE_COLUMNS.map((c) => c.header);
  for (let i = 1; i <= opts.invoices; i++) {
    const r = invoiceRow(`${prefix}${i}`);
    inv.addRow(invCols.map((h) => (r[h] ?? null) as ExcelJS.CellValue)).commit();
  }
  inv.commit();
  const ln = wb.addWorksheet(BATCH_SHEETS.lines);
  const lineCols = LINE_COLUMNS.map((c) => c.header);
  ln.addRow(lineCols).commit();
  const per = opts.linesPer ?? 1;
  for (let i = 1; i <= opts.invoices; i++) {
    for (let k = 0; k < per; k++) {
      const r = lineRow(`${prefix}${i}`);
      ln.addRow(lineCols.map((h) => (r[h] ?? null) as ExcelJS.CellValue)).commit();
    }
  }
  for (let k = 0; k < (opts.extraLines ?? 0); k++) {
    const r = lineRow(`${prefix}1`);
    ln.addRow(lineCols.map((h) => (r[h] ?? null) as ExcelJS.CellValue)).commit();
  }
  ln.commit();
  await wb.commit();
  await done;
  return Buffer.concat(chunks);
}
