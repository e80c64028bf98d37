import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { App } from '../src/app.ts';
import type { Json } from './helper.ts';
import { esc, type ZipPart, zipFile } from './zip.ts';

export { type ZipPart, zipFile } from './zip.ts';

/** POSTs one file as multipart/form-data (field "file"). */
export async function upload(
  app: App,
  url: string,
  token: string,
  file: { filename: string; content: Buffer | string; type?: string },
) {
  const boundary = `----kaipiao${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\n` +
      `Content-Type: ${file.type ?? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'}\r\n\r\n`,
  );
  const payload = Buffer.concat([head, Buffer.from(file.content), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { 'access-token': token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return { status: res.statusCode, json: res.json() as Json };
}

/** GETs a download; returns the raw body and headers. */
export async function download(app: App, url: string, token: string) {
  const res = await app.inject({ method: 'GET', url, headers: { 'access-token': token } });
  return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
}

/** A workbook with one sheet: `rows[0]` is the header row. Cells starting with '=' become formulas. */
export async function workbook(rows: readonly (readonly (string | number | null)[])[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) {
    ws.addRow(r.map((v) => (typeof v === 'string' && v.startsWith('=') ? { formula: v.slice(1) } : v)));
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The first sheet of an .xlsx as rows of cell text. */
export async function readRows(buffer: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ExcelJS.Buffer);
  const out: string[][] = [];
  wb.worksheets[0]!.eachRow((row) => {
    const values = row.values as unknown[];
    out.push(values.slice(1).map((v) => (v === null || v === undefined ? '' : String(v))));
  });
  return out;
}

const colName = (i: number) =>
  (i < 26 ? '' : String.fromCharCode(64 + Math.floor(i / 26))) + String.fromCharCode(65 + (i % 26));

/** Sheet XML with inline strings: `rows[0]` is row 1. */
export function sheetXml(rows: readonly (readonly string[])[]): string {
  const body = rows
    .map(
      (r, i) =>
        `<row r="${i + 1}">${r
          .map((v, c) => `<c r="${colName(c)}${i + 1}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`)
          .join('')}</row>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}

/**
 * A minimal .xlsx written by hand: its sheets (in tab order), an optional shared-strings part and
 * any extra entries. A sheet or the shared strings may be a repeating part (a zip bomb).
 */
export function handXlsx(opts: {
  sheets: readonly { name: string; xml?: string; repeat?: ZipPart['repeat']; declaredSize?: number }[];
  sharedStrings?: { xml?: string; repeat?: ZipPart['repeat']; declaredSize?: number };
  extra?: readonly ZipPart[];
}): Buffer {
  const ns = 'http://schemas.openxmlformats.org';
  const sheetType = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  const overrides = [
    `<Override PartName="/xl/workbook.xml" ContentType="${sheetType}.sheet.main+xml"/>`,
    ...opts.sheets.map(
      (_s, i) =>
        `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${sheetType}.worksheet+xml"/>`,
    ),
    opts.sharedStrings
      ? `<Override PartName="/xl/sharedStrings.xml" ContentType="${sheetType}.sharedStrings+xml"/>`
      : '',
  ].join('');
  const rels = [
    ...opts.sheets.map(
      (_s, i) =>
        `<Relationship Id="rId${i + 1}" Type="${ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
    ),
    opts.sharedStrings
      ? `<Relationship Id="rIdS" Type="${ns}/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`
      : '',
  ].join('');
  const parts: ZipPart[] = [
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="${ns}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`,
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets>${opts.sheets
        .map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join('')}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${ns}/package/2006/relationships">${rels}</Relationships>`,
    },
    ...opts.sheets.map((s, i) => ({
      name: `xl/worksheets/sheet${i + 1}.xml`,
      data: s.xml,
      repeat: s.repeat,
      declaredSize: s.declaredSize,
    })),
    ...(opts.sharedStrings
      ? [{ name: 'xl/sharedStrings.xml', ...opts.sharedStrings, data: opts.sharedStrings.xml }]
      : []),
    ...(opts.extra ?? []),
  ];
  return zipFile(parts);
}

/**
 * The zip bomb of issue 21 (H1): a ~1.5 MB .xlsx whose shared strings expand to ~1.5 GB, behind a
 * sheet with the given header row. `lie` writes a small uncompressed size in the headers, so only
 * counting the bytes while inflating finds it.
 */
export function sharedStringsBomb(opts: {
  sheets: readonly { name: string; header: readonly string[] }[];
  lie?: boolean;
  gb?: number;
}): Buffer {
  const unit = `<si><t>${'A'.repeat(64_000)}</t></si>`;
  const times = Math.ceil(((opts.gb ?? 1.5) * 1e9) / unit.length);
  return handXlsx({
    sheets: opts.sheets.map((s) => ({ name: s.name, xml: sheetXml([s.header, s.header.map(() => 'x')]) })),
    sharedStrings: {
      repeat: {
        head: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`,
        unit,
        times,
        tail: '</sst>',
      },
      declaredSize: opts.lie ? 1000 : undefined,
    },
  });
}
