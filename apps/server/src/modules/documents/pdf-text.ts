import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Tests only (pdfjs-dist is a dev dependency): reads a PDF the way an independent reader does, with
 * Mozilla's pdf.js — the text layer as lines (runs on one baseline, left to right, a space where
 * runs are apart) and page 1 rasterised, for the text-order, geometry and QR tests.
 */

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const STANDARD_FONTS = `${path.join(PDFJS_DIR, 'standard_fonts')}/`;

export type TextItem = { str: string; x: number; y: number; w: number; size: number };

async function open(pdf: Buffer) {
  return getDocument({
    data: new Uint8Array(pdf),
    standardFontDataUrl: STANDARD_FONTS,
    verbosity: 0,
  }).promise;
}

/** Every text run of each page, in mm from the page's top-left corner (y is the baseline). */
export async function pdfTextItems(pdf: Buffer): Promise<TextItem[][]> {
  const doc = await open(pdf);
  const pages: TextItem[][] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    const [, , , top] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const mm = 25.4 / 72;
    const items: TextItem[] = [];
    for (const it of content.items) {
      if (!('str' in it) || !it.str.trim()) continue;
      const [a, b, , , e, f] = it.transform as number[];
      items.push({
        str: it.str,
        x: e! * mm,
        y: (top - f!) * mm,
        w: it.width * mm,
        size: Math.hypot(a!, b!) * mm,
      });
    }
    pages.push(items);
  }
  await doc.destroy();
  return pages;
}

/** Runs whose baselines are within 0.5 mm form a line; a gap wider than a fifth of the size is a space. */
export function linesOf(items: TextItem[]): string[] {
  const sorted = [...items].sort((p, q) => p.y - q.y || p.x - q.x);
  const lines: TextItem[][] = [];
  for (const it of sorted) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line[0]!.y - it.y) <= 0.5) line.push(it);
    else lines.push([it]);
  }
  return lines.map((l) => {
    const runs = l.sort((p, q) => p.x - q.x);
    let out = '';
    let end = Number.NEGATIVE_INFINITY;
    for (const r of runs) {
      if (out && r.x - end > r.size * 0.2) out += ' ';
      out += r.str;
      end = r.x + r.w;
    }
    return out;
  });
}

/** The text of every page, one line per visual line; pages apart by "\n\f\n". */
export async function extractPdfText(pdf: Buffer): Promise<string> {
  return (await pdfTextItems(pdf)).map((items) => linesOf(items).join('\n')).join('\n\f\n');
}

/** Page `n` as RGBA pixels at `dpi` (and as PNG), drawn by pdf.js on @napi-rs/canvas. */
export async function renderPage(
  pdf: Buffer,
  dpi: number,
  n = 1,
): Promise<{ width: number; height: number; data: Uint8ClampedArray; png: Buffer }> {
  const doc = await open(pdf);
  const page = await doc.getPage(n);
  const viewport = page.getViewport({ scale: dpi / 72 });
  // pdf.js's own canvas factory: its Path2D and the canvas must come from the same module
  const factory = (doc as unknown as { canvasFactory: { create(w: number, h: number): unknown } })
    .canvasFactory;
  const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height)) as {
    canvas: { width: number; height: number; toBuffer(mime: 'image/png'): Buffer };
    context: {
      fillStyle: string;
      fillRect(x: number, y: number, w: number, h: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
    };
  };
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: context as never, viewport, canvas: canvas as never }).promise;
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  const png = canvas.toBuffer('image/png');
  await doc.destroy();
  return { width: canvas.width, height: canvas.height, data, png };
}
