import { beijingChineseDay, TERMS } from '@kaipiao/shared';
import type { InvoiceDocData } from './model.ts';
import { SPECIFIC_LABELS, sealBureau } from './pdf-labels.ts';
import {
  DOUBLE_LINE_GAP,
  DOUBLE_LINE_LEN,
  DOUBLE_LINE_Y,
  INFO,
  LABEL_BOX,
  PAGE_W,
  QR_BOX,
  SEAL,
  TITLE_TOP,
} from './pdf-layout.ts';
import { drawQr, drawSeal } from './pdf-marks.ts';
import { ASCENT, BROWN, LINE_W, MM, type Pen, ptToMm } from './pdf-pen.ts';

/**
 * 票头 (spec §三 1.3): the QR top-left, the 标签 box, the title in 楷体 20 pt, the double line, the
 * seal over both, 发票号码 / 开票日期 on the right and, on invoices of several pages, 共X页 第X页.
 */
export function drawHeader(pen: Pen, inv: InvoiceDocData, page: { index: number; count: number }) {
  drawQr(pen, inv.qrString, QR_BOX.x, QR_BOX.y, QR_BOX.size);

  const tag = inv.specific ? SPECIFIC_LABELS[inv.specific.code] : '';
  if (tag) {
    const { x, y, w, h } = LABEL_BOX;
    pen.doc
      .roundedRect(x * MM, y * MM, w * MM, h * MM, 2 * MM)
      .lineWidth(LINE_W * MM)
      .strokeColor(BROWN)
      .stroke();
    pen.text(tag, x + 1, y + h / 2 + ptToMm(12) * 0.35, {
      face: 'kai',
      size: 12,
      color: BROWN,
      w: w - 2,
      align: 'center',
    });
  }

  const titleSize = 20;
  pen.text(inv.title, 0, TITLE_TOP + ptToMm(titleSize) * ASCENT, {
    face: 'kai',
    size: titleSize,
    color: BROWN,
    w: PAGE_W,
    align: 'center',
  });
  const x1 = (PAGE_W - DOUBLE_LINE_LEN) / 2;
  pen.line(x1, DOUBLE_LINE_Y, x1 + DOUBLE_LINE_LEN, DOUBLE_LINE_Y);
  pen.line(x1, DOUBLE_LINE_Y + DOUBLE_LINE_GAP, x1 + DOUBLE_LINE_LEN, DOUBLE_LINE_Y + DOUBLE_LINE_GAP);
  drawSeal(pen, SEAL.cx, SEAL.cy, SEAL.w, SEAL.h, sealBureau(inv.seller.taxCode));

  // two rows whose lower one ends 7.5 mm above the frame, 3 mm between them
  const em = ptToMm(9);
  const second = INFO.bottom - em * 0.12;
  const rows: [string, string][] = [
    [`${TERMS.invoiceNo}：`, inv.invoiceNo],
    [`${TERMS.issueDate}：`, beijingChineseDay(inv.issuedAt)],
  ];
  rows.forEach(([label, value], i) => {
    const baseline = second - (rows.length - 1 - i) * (em + INFO.gap);
    pen.text(label, INFO.x, baseline, { face: 'kai', color: BROWN });
    pen.text(value, INFO.x + INFO.labelW, baseline, { w: INFO.fillW });
  });
  if (page.count > 1) {
    const baseline = second + em + INFO.gap * 0.6;
    pen.text(`共${page.count}页 第${page.index + 1}页`, INFO.x, baseline, { face: 'kai', color: BROWN });
  }
}
