import { inflateSync } from 'node:zlib';

/**
 * Reads the text back out of a PDF this module rendered (tests, the end-to-end suite), with no
 * extra package: inflates the streams, maps glyph codes through the font's ToUnicode CMap and
 * orders the text runs top to bottom, left to right, one output line per visual line.
 *
 * Scope: pdfkit output (hex-string `TJ`/`Tj` runs, `Tm` positioning, ToUnicode CMaps with 2-byte
 * codes). Fonts are told apart by their resource name only through their CMaps' order, so this is
 * exact for documents with one embedded font (ours) — not a general PDF text extractor; for any
 * other PDF use `pdftotext` (poppler-utils).
 */
export function extractPdfText(pdf: Buffer): string {
  const streams = readStreams(pdf);
  const cmap = readToUnicode(streams);
  const pages: string[] = [];
  for (const s of streams) {
    if (!/\bBT\b/.test(s) || s.includes('begincmap')) continue;
    pages.push(layoutRuns(textRuns(s, cmap)));
  }
  return pages.join('\n\f\n');
}

/** glyph code → text, from the ToUnicode CMap(s) of the document */
export function readToUnicode(pdfOrStreams: Buffer | string[]): Map<number, string> {
  const streams = Array.isArray(pdfOrStreams) ? pdfOrStreams : readStreams(pdfOrStreams);
  const cmap = new Map<number, string>();
  for (const s of streams) if (s.includes('begincmap')) parseCMap(s, cmap);
  return cmap;
}

function readStreams(pdf: Buffer): string[] {
  const out: string[] = [];
  const latin = pdf.toString('latin1');
  const re = /<<((?:[^<>]|<<(?:[^<>]|<<[^<>]*>>)*>>|<[^<>]*>)*)>>\s*stream\r?\n/g;
  let m: RegExpExecArray | null = re.exec(latin);
  while (m) {
    const dict = m[1] ?? '';
    const start = m.index + m[0].length;
    const len = /\/Length (\d+)(?!\s+\d+\s+R)/.exec(dict);
    const end = len ? start + Number(len[1]) : latin.indexOf('endstream', start);
    let data = pdf.subarray(start, end);
    if (/\/FlateDecode/.test(dict)) {
      try {
        data = inflateSync(data);
      } catch {
        data = Buffer.alloc(0);
      }
    }
    // font programs and images are binary; only keep what can hold text operators or a CMap
    if (!/\/Subtype\s*\/(Image|CIDFontType0C|Type1C|OpenType)/.test(dict) && !/\/Length1/.test(dict)) {
      out.push(data.toString('latin1'));
    }
    re.lastIndex = end;
    m = re.exec(latin);
  }
  return out;
}

const hexToString = (hex: string): string => {
  let s = '';
  for (let i = 0; i + 4 <= hex.length; i += 4)
    s += String.fromCharCode(Number.parseInt(hex.slice(i, i + 4), 16));
  return s;
};

function parseCMap(text: string, map: Map<number, string>): void {
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const p of (block[1] ?? '').matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      map.set(Number.parseInt(p[1]!, 16), hexToString(p[2]!));
    }
  }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    const body = block[1] ?? '';
    for (const r of body.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const lo = Number.parseInt(r[1]!, 16);
      const hi = Number.parseInt(r[2]!, 16);
      const dst = r[3]!;
      if (dst.startsWith('[')) {
        const items = [...dst.matchAll(/<([0-9a-fA-F]+)>/g)].map((x) => hexToString(x[1]!));
        for (let c = lo; c <= hi && c - lo < items.length; c++) map.set(c, items[c - lo]!);
      } else {
        const base = Number.parseInt(dst.slice(1, -1), 16);
        for (let c = lo; c <= hi; c++) map.set(c, String.fromCodePoint(base + (c - lo)));
      }
    }
  }
}

type Run = { x: number; y: number; text: string };

function textRuns(content: string, cmap: Map<number, string>): Run[] {
  const runs: Run[] = [];
  const decode = (hex: string) => {
    let s = '';
    for (let i = 0; i + 4 <= hex.length; i += 4)
      s += cmap.get(Number.parseInt(hex.slice(i, i + 4), 16)) ?? '';
    return s;
  };
  for (const bt of content.matchAll(/\bBT\b([\s\S]*?)\bET\b/g)) {
    const body = bt[1] ?? '';
    const tm = /([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+Tm/.exec(body);
    const x = tm ? Number(tm[5]) : 0;
    const y = tm ? Number(tm[6]) : 0;
    let text = '';
    for (const op of body.matchAll(/\[((?:[^\]])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      if (op[1] !== undefined) for (const h of op[1].matchAll(/<([0-9a-fA-F]*)>/g)) text += decode(h[1]!);
      else text += decode(op[2] ?? '');
    }
    if (text) runs.push({ x, y, text });
  }
  return runs;
}

/** pdfkit's text matrix: larger y is higher on the page. Runs within 2 pt share a line. */
function layoutRuns(runs: Run[]): string {
  const sorted = [...runs].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Run[][] = [];
  for (const r of sorted) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line[0]!.y - r.y) <= 2) line.push(r);
    else lines.push([r]);
  }
  return lines
    .map((l) =>
      l
        .sort((a, b) => a.x - b.x)
        .map((r) => r.text)
        .join(' '),
    )
    .join('\n');
}
