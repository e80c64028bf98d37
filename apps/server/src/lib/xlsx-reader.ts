import { Readable, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { crc32, createInflateRaw } from 'node:zlib';
import { BATCH_LIMITS, IMPORT_LIMITS } from '@kaipiao/shared';
import type ExcelJS from 'exceljs';
import { loadExcelJS } from './heavy-modules.ts';

/**
 * The bounded .xlsx reader every Excel import goes through (goods, buyer titles, batch issuing, and
 * any later import). An .xlsx is a zip: before a byte is parsed the reader checks the zip's central
 * directory (entry count, each entry's declared uncompressed size, their total), then inflates each
 * part it needs while counting bytes (a part that inflates past its declared size is refused: the
 * declared sizes are never trusted alone) and counting a sheet's rows. Only then does exceljs parse
 * it, streaming, row by row, with the same counting in front. Nothing touches the disk (exceljs's own
 * reader writes a sheet stored before the shared strings to a temp file; this one reads the zip from
 * memory in any order), and the upload itself is held in memory up to `fileBytes`.
 */

const MiB = 1024 * 1024;

/** Every limit on uploaded Excel files, in one place (docs/security.md cites them). */
export const UPLOAD_LIMITS = {
  /**
   * The multipart body around the file (busboy's limits): one file, and at most a few small form
   * fields before it (the web client sends none; @fastify/multipart would allow 1,000 parts of 1 MB).
   */
  multipart: { files: 1, fields: 10, fieldSize: 64 * 1024, parts: 20, headerPairs: 100 },
  /** goods codes and buyer titles: `/v3/client-project/import`, `/v3/client-title/import` */
  list: {
    /** the uploaded file as sent (compressed) */
    fileBytes: IMPORT_LIMITS.fileMb * MiB,
    /** zip entries (Excel writes 10–30) */
    entries: 300,
    /** uncompressed size of any one entry (a sheet, the styles …) */
    entryBytes: 32 * MiB,
    /** uncompressed size of xl/sharedStrings.xml */
    sharedStringsBytes: 16 * MiB,
    /** uncompressed size of all entries together */
    totalBytes: 64 * MiB,
    /** `<row>` elements in a sheet, empty ones included */
    sheetRows: 20_000,
    /** data rows imported at once */
    dataRows: IMPORT_LIMITS.rows,
  },
  /** batch issuing: `/v3/batch-invoice/upload` (100,000 minimal item rows are a 37 MB sheet) */
  batch: {
    fileBytes: BATCH_LIMITS.fileMb * MiB,
    entries: 300,
    entryBytes: 160 * MiB,
    sharedStringsBytes: 64 * MiB,
    totalBytes: 256 * MiB,
    sheetRows: 120_000,
    /** invoices (发票信息) and item rows (商品明细) per file */
    invoices: BATCH_LIMITS.invoices,
    lines: BATCH_LIMITS.lines,
  },
} as const;

export type XlsxLimits = {
  fileBytes: number;
  entries: number;
  entryBytes: number;
  sharedStringsBytes: number;
  totalBytes: number;
  sheetRows: number;
};

export type XlsxRefusalKind = 'corrupt' | 'too_large' | 'too_many_entries' | 'too_many_rows';

/** A file refused before or while it is read; `message` is the Chinese answer for the user. */
export class XlsxRefused extends Error {
  constructor(
    readonly kind: XlsxRefusalKind,
    message: string,
  ) {
    super(message);
    this.name = 'XlsxRefused';
  }
}

const mb = (bytes: number) => `${Math.round(bytes / MiB)}MB`;

function refusalMessage(kind: XlsxRefusalKind, limits: XlsxLimits, verb: string, detail = ''): string {
  switch (kind) {
    case 'too_large':
      return `文件解压后过大（${detail}），请检查文件或拆分后再${verb}`;
    case 'too_many_entries':
      return `文件内部结构异常（包含的部件超过${limits.entries}个），请在 Excel 中另存为新的 .xlsx 文件后再${verb}`;
    case 'too_many_rows':
      return `工作表${detail}的行数超过${limits.sheetRows}行（含空行），请删除多余的行或拆分后再${verb}`;
    default:
      return `文件已损坏或不是有效的 Excel 文件${detail ? `（${detail}）` : ''}，请在 Excel 中另存为 .xlsx 后再${verb}`;
  }
}

type ZipEntry = {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  dataOffset: number;
};

type Refuse = (kind: XlsxRefusalKind, detail?: string) => XlsxRefused;

/** The central directory, checked against the limits; nothing is inflated. */
function centralDirectory(buf: Buffer, limits: XlsxLimits, refuse: Refuse): Map<string, ZipEntry> {
  // end of central directory: 22 bytes + a comment of at most 65,535
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw refuse('corrupt');
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  // zip64 marks (0xffff entries, 0xffffffff offsets) never occur in files within our limits
  if (count === 0xffff || cdOffset === 0xffffffff) throw refuse('too_many_entries');
  if (count > limits.entries) throw refuse('too_many_entries');
  if (cdOffset + cdSize > eocd) throw refuse('corrupt');

  const entries = new Map<string, ZipEntry>();
  let total = 0;
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > eocd || buf.readUInt32LE(p) !== 0x02014b50) throw refuse('corrupt');
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const localOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (flags & 1) throw refuse('corrupt', '文件已加密');
    if (method !== 0 && method !== 8) throw refuse('corrupt');
    if (entries.has(name)) throw refuse('corrupt');
    const own = name === 'xl/sharedStrings.xml' ? limits.sharedStringsBytes : limits.entryBytes;
    if (size > own) throw refuse('too_large', `单个部件超过${mb(own)}`);
    total += size;
    if (total > limits.totalBytes) throw refuse('too_large', `合计超过${mb(limits.totalBytes)}`);
    if (localOffset + 30 > cdOffset || buf.readUInt32LE(localOffset) !== 0x04034b50) throw refuse('corrupt');
    const dataOffset =
      localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    if (dataOffset + compressedSize > cdOffset) throw refuse('corrupt');
    entries.set(name, { name, method, crc, compressedSize, size, dataOffset });
  }
  if (p > eocd) throw refuse('corrupt');
  return entries;
}

/**
 * An entry's bytes, inflated in chunks and counted: past its declared size (which the directory
 * check held to the limits) the stream fails at once, as too large; at the end the size and CRC
 * must match.
 * `onChunk` sees every chunk (to count rows).
 */
function entryStream(buf: Buffer, e: ZipEntry, refuse: Refuse, onChunk?: (chunk: Buffer) => void): Readable {
  const raw = buf.subarray(e.dataOffset, e.dataOffset + e.compressedSize);
  let seen = 0;
  let crc = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > e.size) {
        // a lying header: stop at the size it declared, however far it would expand
        cb(refuse('too_large', '实际内容超过文件记录的大小'));
        return;
      }
      crc = crc32(chunk, crc);
      onChunk?.(chunk);
      cb(null, chunk);
    },
    flush(cb) {
      cb(seen !== e.size || crc >>> 0 !== e.crc >>> 0 ? refuse('corrupt') : null);
    },
  });
  const source = Readable.from([raw], { objectMode: false });
  if (e.method === 0) {
    source.on('error', (err) => counter.destroy(err));
    return source.pipe(counter);
  }
  const inflate = createInflateRaw();
  source.on('error', (err) => inflate.destroy(err));
  inflate.on('error', () => counter.destroy(refuse('corrupt')));
  counter.on('close', () => {
    inflate.destroy();
    source.destroy();
  });
  return source.pipe(inflate).pipe(counter);
}

/** The entry as text chunks, UTF-8 decoded across chunk boundaries (exceljs decodes each chunk alone). */
function textStream(bytes: Readable): Transform {
  const decoder = new StringDecoder('utf8');
  const out = new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _enc, cb) {
      const text = decoder.write(chunk);
      cb(null, text === '' ? undefined : text);
    },
    flush(cb) {
      const rest = decoder.end();
      cb(null, rest === '' ? undefined : rest);
    },
  });
  bytes.on('error', (err) => out.destroy(err));
  out.on('close', () => bytes.destroy());
  return bytes.pipe(out);
}

/** Reads an entry to its end without keeping it, counting `<row` elements on the way. */
async function drain(stream: Readable): Promise<void> {
  for await (const _chunk of stream) {
    // counted and checked by entryStream
  }
}

const ROW_TAG = Buffer.from('<row');

function rowCounter(): { count: () => number; onChunk: (chunk: Buffer) => void } {
  let n = 0;
  let carry = Buffer.alloc(0);
  return {
    count: () => n,
    onChunk(chunk) {
      const b = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      let i = b.indexOf(ROW_TAG);
      while (i >= 0 && i + 4 < b.length) {
        const next = b[i + 4];
        // `<row ` / `<row>` / `<row/>`, not `<rowBreaks`
        if (
          next === 0x20 ||
          next === 0x3e ||
          next === 0x2f ||
          next === 0x09 ||
          next === 0x0a ||
          next === 0x0d
        )
          n++;
        i = b.indexOf(ROW_TAG, i + 4);
      }
      carry = Buffer.from(b.subarray(Math.max(0, b.length - 4)));
    },
  };
}

type ReaderInternals = {
  _parseRels(entry: unknown): Promise<void>;
  _parseWorkbook(entry: unknown): Promise<void>;
  _parseSharedStrings(entry: unknown): AsyncIterable<unknown>;
  _parseWorksheet(iterator: unknown, sheetNo: string): Iterator<{ eventType: string; value: unknown }>;
  workbookRels?: { Id: string; Target: string; Type: string }[];
  model?: { sheets?: { name: string; id: number; rId: string; state?: string }[] };
  sharedStrings?: unknown[];
};

export type XlsxSheet = { name: string; state: string; path: string };

export type XlsxBook = {
  /** the worksheets in tab order */
  sheets: XlsxSheet[];
  /**
   * The sheet's rows, streamed. The sheet is inflated and its `<row>` elements counted before
   * exceljs parses it; stop iterating at any time (the streams close).
   */
  rows(sheet: XlsxSheet): AsyncGenerator<ExcelJS.Row>;
};

/**
 * Opens an uploaded .xlsx within `limits`: the zip directory is checked, the workbook, its
 * relationships and the shared strings are inflated (counted) and read. Throws {@link XlsxRefused}
 * with a message for the user; `verb` ends it (导入 / 上传).
 */
export async function openXlsx(buffer: Buffer, limits: XlsxLimits, verb = '导入'): Promise<XlsxBook> {
  const refuse: Refuse = (kind, detail) => new XlsxRefused(kind, refusalMessage(kind, limits, verb, detail));
  if (buffer.length > limits.fileBytes) throw refuse('too_large', `文件超过${mb(limits.fileBytes)}`);
  const entries = centralDirectory(buffer, limits, refuse);

  const entry = (name: string) => entries.get(name);
  const verified = async (e: ZipEntry) => {
    await drain(entryStream(buffer, e, refuse));
  };
  const { stream } = await loadExcelJS();
  const reader = new stream.xlsx.WorkbookReader(Readable.from([]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const r = reader as unknown as ReaderInternals;
  const rels = entry('xl/_rels/workbook.xml.rels');
  const book = entry('xl/workbook.xml');
  if (!rels || !book) throw refuse('corrupt');
  const strings = entry('xl/sharedStrings.xml');
  try {
    for (const e of [rels, book, strings]) if (e) await verified(e);
    await r._parseRels(textStream(entryStream(buffer, rels, refuse)));
    await r._parseWorkbook(textStream(entryStream(buffer, book, refuse)));
    r.sharedStrings = [];
    if (strings) {
      for await (const _ of r._parseSharedStrings(textStream(entryStream(buffer, strings, refuse)))) {
        // cached on the reader
      }
    }
  } catch (err) {
    throw err instanceof XlsxRefused ? err : refuse('corrupt');
  }

  const relById = new Map((r.workbookRels ?? []).map((x) => [x.Id, x]));
  const sheets: XlsxSheet[] = [];
  for (const s of r.model?.sheets ?? []) {
    const rel = relById.get(s.rId);
    if (!rel || !/\/worksheet$/.test(rel.Type ?? '')) continue;
    const path = rel.Target.startsWith('/')
      ? rel.Target.slice(1)
      : `xl/${rel.Target.replace(/^\.\//, '')}`.replace(/[^/]+\/\.\.\//g, '');
    if (!entries.has(path)) continue;
    sheets.push({ name: s.name, state: s.state ?? 'visible', path });
  }

  async function* rows(sheet: XlsxSheet): AsyncGenerator<ExcelJS.Row> {
    const e = entries.get(sheet.path)!;
    const sheetRefuse: Refuse = (kind, detail) =>
      refuse(kind, kind === 'too_many_rows' ? `「${sheet.name}」` : detail);
    const counter = rowCounter();
    try {
      await drain(entryStream(buffer, e, sheetRefuse, counter.onChunk));
    } catch (err) {
      throw err instanceof XlsxRefused ? err : sheetRefuse('corrupt');
    }
    if (counter.count() > limits.sheetRows) throw sheetRefuse('too_many_rows');

    const text = textStream(entryStream(buffer, e, sheetRefuse));
    const sheetNo = /(\d+)\.xml$/.exec(sheet.path)?.[1] ?? '0';
    const ws = r._parseWorksheet(text, sheetNo).next().value?.value as
      | (AsyncIterable<ExcelJS.Row> & { name: string })
      | undefined;
    if (!ws) throw sheetRefuse('corrupt');
    ws.name = sheet.name;
    let n = 0;
    try {
      for await (const row of ws) {
        if (++n > limits.sheetRows) throw sheetRefuse('too_many_rows');
        yield row;
      }
    } catch (err) {
      throw err instanceof XlsxRefused ? err : sheetRefuse('corrupt');
    } finally {
      text.destroy();
    }
  }

  return { sheets, rows };
}
