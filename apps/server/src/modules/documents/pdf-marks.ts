import QRCode from 'qrcode';
import { RED_WATERMARK, SEAL_MIDDLE, SEAL_TOP } from './pdf-labels.ts';
import { BROWN, MM, type Pen, type Rgb, SEAL_RED, TAX_YELLOW } from './pdf-pen.ts';

/**
 * The pictures of the form, drawn as vector shapes (never as text, so a reader of the text layer
 * does not pick them up): the QR symbol with its 税, the 监制章, the red watermark and ⊗.
 */

/** The QR module matrix: version 5 (spec §六 "原版本5"), level M; a larger version only if it must. */
export function qrMatrix(text: string): {
  size: number;
  dark: (r: number, c: number) => boolean;
  version: number;
} {
  let code: QRCode.QRCode;
  try {
    code = QRCode.create(text, { errorCorrectionLevel: 'M', version: 5 });
  } catch {
    code = QRCode.create(text, { errorCorrectionLevel: 'M' });
  }
  return { size: code.modules.size, dark: (r, c) => !!code.modules.get(r, c), version: code.version };
}

/**
 * The QR symbol filling a size×size box, with the bureau's 税 in the middle: a 5.36 mm square cleared
 * in the centre and 税 in 9 pt 宋体, RGB(250,239,173) (spec §六). Level M restores the cleared modules.
 */
export function drawQr(pen: Pen, text: string, x: number, y: number, size: number) {
  const { doc } = pen;
  const m = qrMatrix(text);
  const cell = size / m.size;
  for (let r = 0; r < m.size; r++) {
    let c = 0;
    while (c < m.size) {
      if (!m.dark(r, c)) {
        c++;
        continue;
      }
      const start = c;
      while (c < m.size && m.dark(r, c)) c++;
      // a hair wider than the module so adjacent runs leave no seam when rasterised
      doc.rect(
        (x + start * cell) * MM,
        (y + r * cell) * MM,
        (c - start) * cell * MM + 0.05,
        cell * MM + 0.05,
      );
    }
  }
  doc.fill('#000000');
  const s = 5.36;
  const cx = x + size / 2;
  const cy = y + size / 2;
  doc.rect((cx - s / 2) * MM, (cy - s / 2) * MM, s * MM, s * MM).fill('#ffffff');
  // 9 pt glyph, centred: its ink sits about 0.38 em below the centre line's baseline offset
  pen.glyph('税', 'song', cx, cy + (9 / MM) * 0.36, 9, TAX_YELLOW);
}

/**
 * 全国统一发票监制章 (spec §三 1.1): an oval 30×20 mm, a 1 mm outer ring and a thin inner line; the
 * upper ring carries 全国统一发票监制章, the middle 国家税务总局, the lower the seller's province bureau,
 * all 楷体 7 pt in 大红.
 */
export function drawSeal(pen: Pen, cx: number, cy: number, w: number, h: number, bureau: string) {
  const { doc } = pen;
  const a = w / 2;
  const b = h / 2;
  doc.save();
  doc.fillOpacity(0.9).strokeOpacity(0.9);
  doc
    .ellipse(cx * MM, cy * MM, (a - 0.5) * MM, (b - 0.5) * MM)
    .lineWidth(1 * MM)
    .strokeColor(SEAL_RED)
    .stroke();
  doc
    .ellipse(cx * MM, cy * MM, (a - 1.6) * MM, (b - 1.6) * MM)
    .lineWidth(0.15 * MM)
    .strokeColor(SEAL_RED)
    .stroke();
  const size = 7;
  // the upper ring: characters on an inner ellipse, each turned to face outwards
  const ra = a - 4.1;
  const rb = b - 4.1;
  const chars = [...SEAL_TOP];
  // spread the characters evenly by arc length (an ellipse's angle is not), from 195° to 345°
  const from = (195 * Math.PI) / 180;
  const to = (345 * Math.PI) / 180;
  const steps = 400;
  const lengths = [0];
  for (let k = 1; k <= steps; k++) {
    const t0 = from + ((to - from) * (k - 1)) / steps;
    const t1 = from + ((to - from) * k) / steps;
    const d = Math.hypot(ra * (Math.cos(t1) - Math.cos(t0)), rb * (Math.sin(t1) - Math.sin(t0)));
    lengths.push(lengths[k - 1]! + d);
  }
  const total = lengths[steps]!;
  chars.forEach((ch, i) => {
    const target = (total * i) / (chars.length - 1);
    const k = lengths.findIndex((l) => l >= target);
    const t = from + ((to - from) * Math.max(0, k)) / steps;
    const px = cx + ra * Math.cos(t);
    const py = cy + rb * Math.sin(t);
    const normal = (Math.atan2(Math.sin(t) / rb, Math.cos(t) / ra) * 180) / Math.PI;
    pen.glyph(ch, 'kai', px, py, size, SEAL_RED, normal + 90);
  });
  const em = size / MM;
  const line = (s: string, baseline: number, spacing: number) => {
    const cs = [...s];
    const total = cs.length * em + (cs.length - 1) * spacing;
    cs.forEach((ch, i) => {
      pen.glyph(ch, 'kai', cx - total / 2 + em / 2 + i * (em + spacing), baseline, size, SEAL_RED);
    });
  };
  line(SEAL_MIDDLE, cy + 1.0, 0.3);
  line(bureau, cy + 5.2, 0);
  doc.restore();
}

/** The red invoice's watermark (spec §三 1.5, 附件三): 红字发票 in pale red, turned, over the item area. */
export function drawRedWatermark(pen: Pen, x: number, y: number, w: number, h: number) {
  const { doc } = pen;
  const size = 28;
  const em = size / MM;
  doc.save();
  doc.fillOpacity(0.18);
  const marks = 3;
  for (let k = 0; k < marks; k++) {
    const mx = x + (w * (k + 0.5)) / marks;
    const my = y + h / 2;
    const chars = [...RED_WATERMARK];
    const angle = -20;
    const rad = (angle * Math.PI) / 180;
    chars.forEach((ch, i) => {
      const off = (i - (chars.length - 1) / 2) * em;
      pen.glyph(
        ch,
        'kai',
        mx + off * Math.cos(rad),
        my + off * Math.sin(rad) + em * 0.35,
        size,
        [255, 0, 0],
        angle,
      );
    });
  }
  doc.restore();
}

/** ⊗ before 价税合计（大写）: a 4×4 mm circle with a cross (spec §三 1.2 item 22). */
export function drawCircledTimes(pen: Pen, x: number, y: number, color: Rgb = BROWN) {
  const r = 2;
  const cx = x + r;
  const cy = y + r;
  const d = r * Math.SQRT1_2;
  pen.doc
    .circle(cx * MM, cy * MM, (r - 0.125) * MM)
    .lineWidth(0.25 * MM)
    .strokeColor(color)
    .stroke();
  pen.line(cx - d, cy - d, cx + d, cy + d, color);
  pen.line(cx - d, cy + d, cx + d, cy - d, color);
}
