import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Drawing in millimetres from the page's top-left corner, in the three faces the bureau names
 * (spec §三 1.2): 楷体 for the title, the 版面元素名称 and the seal; 宋体 for what is filled in;
 * Courier New for tax IDs and ¥. We ship free look-alikes: AR PL UKai (楷, a committed subset of
 * the fixed texts), Noto Serif SC (宋, npm @expo-google-fonts/noto-serif-sc) and the PDF's own
 * Courier. Text is positioned by its baseline, so runs in different faces share a text line.
 */

const require = createRequire(import.meta.url);

export const MM = 72 / 25.4;
export type Rgb = [number, number, number];
/** 版面元素名称和线条: 红褐色 RGB(128,0,0) (spec §三 1.2) */
export const BROWN: Rgb = [128, 0, 0];
export const BLACK: Rgb = [0, 0, 0];
/** the seal's 大红 */
export const SEAL_RED: Rgb = [230, 0, 0];
/** the "税" in the QR (spec §六) */
export const TAX_YELLOW: Rgb = [250, 239, 173];
/** every line of the form: 0.25 mm (spec §三 1.2) */
export const LINE_W = 0.25;

export const KAI_FONT_PATH = path.resolve(import.meta.dirname, 'fonts/ukai-subset.ttf');
export const SONG_FONT_PATH = path.resolve(
  path.dirname(require.resolve('@expo-google-fonts/noto-serif-sc/package.json')),
  '400Regular/NotoSerifSC_400Regular.ttf',
);

export type Glyph = { path: { toSVG(): string }; advanceWidth: number };
export type FontkitFont = {
  layout: (...args: unknown[]) => unknown;
  glyphForCodePoint(cp: number): Glyph;
  hasGlyphForCodePoint(cp: number): boolean;
  unitsPerEm: number;
};

const fonts = new Map<string, FontkitFont>();
/** One parsed font per process: pdfkit takes the fontkit object and subsets it per document. */
export function loadFont(file: string): FontkitFont {
  let font = fonts.get(file);
  if (!font) {
    const fontkit = createRequire(require.resolve('pdfkit'))('fontkit') as {
      openSync(p: string): FontkitFont;
    };
    font = fontkit.openSync(file);
    fonts.set(file, font);
  }
  return font;
}

export type Face = 'kai' | 'song' | 'courier';
export type Align = 'left' | 'center' | 'right';
export type TextOpts = {
  face?: Face;
  size?: number;
  color?: Rgb;
  /** box width: align inside it, and shrink the size (down to 55%) rather than overflow */
  w?: number;
  align?: Align;
};

/** 9 pt CJK glyphs: the top of the ink is about 0.88 em above the baseline. */
export const ASCENT = 0.88;
export const ptToMm = (pt: number) => pt / MM;

export class Pen {
  /** 'latin': the benchmark's baseline, every non-ASCII character printed as X in Helvetica */
  constructor(
    readonly doc: PDFKit.PDFDocument,
    readonly latin = false,
  ) {
    if (!latin) {
      doc.registerFont('kai', loadFont(KAI_FONT_PATH) as unknown as string);
      doc.registerFont('song', loadFont(SONG_FONT_PATH) as unknown as string);
    }
  }

  private face(face: Face, size: number) {
    const name = this.latin
      ? face === 'courier'
        ? 'Courier'
        : 'Helvetica'
      : face === 'courier'
        ? 'Courier'
        : face;
    this.doc.font(name).fontSize(size);
  }

  private t(s: string) {
    return this.latin ? s.replace(/[^\x20-\x7e]/g, 'X') : s;
  }

  /** width in mm */
  width(s: string, face: Face = 'song', size = 9): number {
    this.face(face, size);
    return this.doc.widthOfString(this.t(s)) / MM;
  }

  /** text whose baseline is at y (mm); returns the width drawn */
  text(s: string, x: number, y: number, o: TextOpts = {}): number {
    if (!s) return 0;
    const face = o.face ?? 'song';
    let size = o.size ?? 9;
    let w = this.width(s, face, size);
    if (o.w && w > o.w) {
      size = size * Math.max(0.55, o.w / w);
      w = this.width(s, face, size);
    }
    let tx = x;
    if (o.w && o.align === 'center') tx = x + (o.w - w) / 2;
    if (o.w && o.align === 'right') tx = x + o.w - w;
    this.face(face, size);
    this.doc
      .fillColor(o.color ?? BLACK)
      .text(this.t(s), tx * MM, y * MM, { lineBreak: false, baseline: 'alphabetic' });
    return w;
  }

  /** Greedy wrap by character (CJK has no spaces; long Latin tokens break too). */
  wrap(s: string, w: number, face: Face = 'song', size = 9): string[] {
    if (!s) return [];
    const out: string[] = [];
    let line = '';
    for (const ch of s) {
      if (line && this.width(line + ch, face, size) > w) {
        out.push(line);
        line = '';
      }
      line += ch;
    }
    if (line) out.push(line);
    return out;
  }

  line(x1: number, y1: number, x2: number, y2: number, color: Rgb = BROWN, lw = LINE_W) {
    this.doc
      .moveTo(x1 * MM, y1 * MM)
      .lineTo(x2 * MM, y2 * MM)
      .lineWidth(lw * MM)
      .strokeColor(color)
      .stroke();
  }

  rect(x: number, y: number, w: number, h: number, color: Rgb = BROWN, lw = LINE_W) {
    this.doc
      .rect(x * MM, y * MM, w * MM, h * MM)
      .lineWidth(lw * MM)
      .strokeColor(color)
      .stroke();
  }

  /**
   * A glyph of a font drawn as a filled outline, not as text: the seal, the watermark and the 税 of
   * the QR are pictures on the bureau's form, and text extraction must not read them.
   */
  glyph(ch: string, face: 'kai' | 'song', x: number, baseline: number, size: number, color: Rgb, rotate = 0) {
    if (this.latin) return;
    const font = loadFont(face === 'kai' ? KAI_FONT_PATH : SONG_FONT_PATH);
    const g = font.glyphForCodePoint(ch.codePointAt(0)!);
    const scale = (size / font.unitsPerEm) * 1; // font units → pt
    const adv = g.advanceWidth * scale;
    this.doc.save();
    this.doc.translate(x * MM, baseline * MM);
    if (rotate) this.doc.rotate(rotate, { origin: [0, 0] });
    // centre the advance on x so rotated characters stay on their arc
    this.doc
      .translate(-adv / 2, 0)
      .scale(scale, -scale)
      .path(g.path.toSVG())
      .fill(color);
    this.doc.restore();
  }
}
