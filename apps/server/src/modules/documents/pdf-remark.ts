import { TERMS } from '@kaipiao/shared';
import type { InvoiceDocData } from './model.ts';
import { FOOTER_BOTTOM, FRAME_R, FRAME_X, REMARK_H, REMARK_LABEL_W } from './pdf-layout.ts';
import { BROWN, type Pen, ptToMm } from './pdf-pen.ts';
import { remarkLines } from './remark.ts';

/**
 * 备注 (spec §三 1.6): a 6 mm label column and a 195 mm fill column; each item on its own line in
 * 宋体 9 pt, wrapped inside the column, smaller (down to 6 pt) when the lines would not fit 20 mm.
 */
export function drawRemark(pen: Pen, inv: InvoiceDocData, y: number) {
  const x = FRAME_X + REMARK_LABEL_W;
  pen.line(x, y, x, y + REMARK_H);
  const labelPitch = 4.5;
  ['备', '注'].forEach((ch, i) => {
    const base = y + REMARK_H / 2 - labelPitch / 2 + ptToMm(9) * 0.36 + i * labelPitch;
    pen.text(ch, FRAME_X, base, { face: 'kai', color: BROWN, w: REMARK_LABEL_W, align: 'center' });
  });
  const w = FRAME_R - x - 3;
  const items = remarkLines(inv);
  let size = 9;
  let lines: string[] = [];
  for (;;) {
    lines = items.flatMap((item) => pen.wrap(item, w, 'song', size));
    if (lines.length * ptToMm(size) * 1.25 <= REMARK_H - 1.5 || size <= 6) break;
    size -= 0.5;
  }
  const lh = ptToMm(size) * 1.25;
  lines.forEach((line, i) => {
    const base = y + 1 + ptToMm(size) * 0.9 + i * lh;
    if (base < y + REMARK_H) pen.text(line, x + 1.5, base, { size });
  });
}

/** 票尾 (spec §三 1.7): 开票人, its bottom edge 7.5 mm above the page's bottom; never wrapped. */
export function drawFooter(pen: Pen, inv: InvoiceDocData, pageH: number) {
  const base = pageH - FOOTER_BOTTOM - ptToMm(9) * 0.12;
  const lw = pen.text(`${TERMS.drawer}：`, FRAME_X + 10, base, { face: 'kai', color: BROWN });
  pen.text(inv.drawer, FRAME_X + 10 + lw, base, { w: 80 });
}
