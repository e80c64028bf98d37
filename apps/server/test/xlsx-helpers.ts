import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { App } from '../src/app.ts';
import type { Json } from './helper.ts';

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
