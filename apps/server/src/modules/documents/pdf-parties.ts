import { TERMS } from '@kaipiao/shared';
import type { DocParty, InvoiceDocData } from './model.ts';
import { FRAME_TOP, FRAME_X, PARTY_COLS, PARTY_H } from './pdf-layout.ts';
import { BROWN, type Pen } from './pdf-pen.ts';

/** 名称 sits 6.5 mm below the area's top line, 纳税人识别号 6.6 mm above its bottom line (§三 1.4) */
const NAME_BASELINE = FRAME_TOP + 6.5;
const TAX_BASELINE = FRAME_TOP + PARTY_H - 6.6;
/** the vertical label's characters: the first on 名称's baseline, so a reader gets "购 名称：…" */
const LABEL_PITCH = 3.6;
/** 统一社会信用代码/纳税人识别号 fill area */
const TAX_FILL_W = 45;

/** 购买方信息 / 销售方信息 (spec §三 1.4): four columns 6 / 94.5 / 6 / 94.5 mm. */
export function drawParties(pen: Pen, inv: InvoiceDocData) {
  const [labelW, infoW] = PARTY_COLS as [number, number];
  const y0 = FRAME_TOP;
  const sides: [string, DocParty][] = [
    [`${TERMS.buyer}信息`, inv.buyer],
    [`${TERMS.seller}信息`, inv.seller],
  ];
  sides.forEach(([label, party], i) => {
    const x = FRAME_X + i * (labelW + infoW);
    if (i > 0) pen.line(x, y0, x, y0 + PARTY_H);
    pen.line(x + labelW, y0, x + labelW, y0 + PARTY_H);
    [...label].forEach((ch, k) => {
      pen.text(ch, x, NAME_BASELINE + k * LABEL_PITCH, {
        face: 'kai',
        color: BROWN,
        w: labelW,
        align: 'center',
      });
    });
    const fx = x + labelW + 1.5;
    const avail = infoW - 3;
    const nameLabelW = pen.text('名称：', fx, NAME_BASELINE, { face: 'kai', color: BROWN });
    drawName(pen, party.name, fx + nameLabelW, avail - nameLabelW);
    const taxLabel = `统一社会信用代码/${TERMS.taxCode}：`;
    const taxLabelW = pen.text(taxLabel, fx, TAX_BASELINE, { face: 'kai', color: BROWN });
    pen.text(party.taxCode, fx + taxLabelW, TAX_BASELINE, {
      face: 'courier',
      size: 12,
      w: Math.min(TAX_FILL_W, avail - taxLabelW),
    });
  });
}

/** 宋体 9 pt, smaller down to 6 pt for a long name, then wrapped under itself. */
function drawName(pen: Pen, name: string, x: number, w: number) {
  let size = 9;
  while (size > 6 && pen.width(name, 'song', size) > w) size -= 0.5;
  const lines = pen.wrap(name, w, 'song', size).slice(0, 3);
  lines.forEach((line, i) => {
    pen.text(line, x, NAME_BASELINE + i * (size / 72) * 25.4 * 1.1, { size });
  });
}
