import { TERMS } from '@kaipiao/shared';
import { money2, rateAndTax, toCapital, trimDecimal } from './format.ts';
import type { DocLine, InvoiceDocData } from './model.ts';
import {
  CAPITAL_W,
  FRAME_R,
  FRAME_W,
  FRAME_X,
  HEAD_ROW,
  ROW,
  SMALL_W,
  SUM_ROW,
  TOTAL_ROW,
} from './pdf-layout.ts';
import { drawCircledTimes } from './pdf-marks.ts';
import { BROWN, type Pen, ptToMm } from './pdf-pen.ts';
import { maskedIdNo, passengerVehicleName, transportVehicleName } from './remark.ts';

export type Col = {
  title: string;
  w: number;
  align: 'left' | 'center' | 'right';
  cell: (l: DocLine, i: number) => string;
};

/** The item columns and widths of each form: §三 1.5, and 5.5 / 7.5 / 8.5 / 9.5 for 03 / 06 / 04 / 09. */
export function columns(inv: InvoiceDocData): Col[] {
  const qty = (l: DocLine) => trimDecimal(l.quantity);
  const price = (l: DocLine) => trimDecimal(l.unitPrice);
  const name = (w: number): Col => ({ title: TERMS.itemName, w, align: 'left', cell: (l) => l.name });
  const unit = (w: number): Col => ({ title: TERMS.unit, w, align: 'center', cell: (l) => l.unit });
  const count = (w: number): Col => ({ title: TERMS.quantity, w, align: 'right', cell: qty });
  const each = (w: number): Col => ({ title: TERMS.unitPrice, w, align: 'right', cell: price });
  const tail = (wa: number, wr: number, wt: number): Col[] => [
    { title: TERMS.amount, w: wa, align: 'right', cell: (l) => money2(l.amount) },
    { title: `${TERMS.taxRate}/征收率`, w: wr, align: 'center', cell: (l) => rateAndTax(l).rate },
    { title: TERMS.taxAmount, w: wt, align: 'right', cell: (l) => rateAndTax(l).tax },
  ];
  const s = inv.specific;
  if (s?.code === '03') {
    return [
      name(37),
      { title: '建筑服务发生地', w: 43, align: 'left', cell: () => s.building.place },
      { title: '建筑项目名称', w: 43, align: 'left', cell: () => s.building.project_name },
      ...tail(26, 25, 27),
    ];
  }
  if (s?.code === '04') return [name(44), unit(20), count(27), each(30), ...tail(26, 27, 27)];
  if (s?.code === '06') {
    return [
      name(30),
      {
        title: '产权证书/不动产权证号',
        w: 39,
        align: 'left',
        cell: (_l, i) => s.rents[i]?.certificate_no ?? '',
      },
      { title: '面积单位', w: 16, align: 'center', cell: (l, i) => s.rents[i]?.area_unit ?? l.unit },
      count(22.5),
      each(22.5),
      // the spec's widths add up to 200 mm: the last column takes the frame's last millimetre
      ...tail(23.5, 23, 24.5),
    ];
  }
  if (s?.code === '09') return [name(58), each(33), count(30), ...tail(26, 27, 27)];
  return [
    name(37),
    { title: TERMS.spec, w: 24, align: 'left', cell: (l) => l.spec },
    unit(12),
    count(25),
    each(25),
    ...tail(26, 25, 27),
  ];
}

export type ExtraTable = { cols: { title: string; w: number }[]; rows: string[][] };

/** The second table of 04 (运输) and 09 (旅客), §三 8.5 / 9.5. */
export function extraTable(inv: InvoiceDocData): ExtraTable | null {
  const s = inv.specific;
  if (s?.code === '04') {
    return {
      cols: [
        { title: '运输工具种类', w: 40 },
        { title: '运输工具牌号', w: 40 },
        { title: '起运地', w: 42 },
        { title: '到达地', w: 42 },
        { title: '运输货物名称', w: 37 },
      ],
      rows: s.transports.map((t) => [
        transportVehicleName(t.vehicle_type),
        t.vehicle_no,
        t.origin,
        t.destination,
        t.goods_name,
      ]),
    };
  }
  if (s?.code === '09') {
    return {
      cols: [
        { title: '出行人', w: 20 },
        { title: '有效身份证件号', w: 38 },
        { title: '出行日期', w: 25 },
        { title: '出发地', w: 38 },
        { title: '到达地', w: 38 },
        { title: '等级', w: 17 },
        { title: '交通工具类型', w: 25 },
      ],
      rows: s.travellers.map((t) => [
        t.traveller,
        maskedIdNo(t.id_type, t.id_no),
        t.travel_date,
        t.origin,
        t.destination,
        t.seat_class,
        passengerVehicleName(t.vehicle_type),
      ]),
    };
  }
  return null;
}

/** baseline of a 9 pt line centred in a row of height h starting at y */
const mid = (y: number, h: number, size = 9) => y + h / 2 + ptToMm(size) * 0.36;

/** 列名 row: 楷体 9 pt, centred in each column */
export function drawColumnTitles(pen: Pen, cols: { title: string; w: number }[], y: number) {
  let x = FRAME_X;
  for (const c of cols) {
    pen.text(c.title, x, mid(y, HEAD_ROW), { face: 'kai', color: BROWN, w: c.w, align: 'center' });
    x += c.w;
  }
}

/**
 * One cell of a 4.375 mm row in 宋体: 9 pt, smaller down to 7 pt to stay on one line; text that is
 * longer still (項目名称, addresses) wraps onto two lines of 5.5 pt, as the bureau's "换行缩小".
 */
export function drawCell(pen: Pen, text: string, x: number, y: number, w: number, align: Col['align']) {
  if (!text) return;
  const pad = 0.6;
  const inner = w - pad * 2;
  let size = 9;
  while (size > 7 && pen.width(text, 'song', size) > inner) size -= 0.25;
  if (pen.width(text, 'song', size) <= inner || align !== 'left') {
    pen.text(text, x + pad, mid(y, ROW, size), { size, w: inner, align });
    return;
  }
  const small = 5.5;
  const lines = pen.wrap(text, inner, 'song', small).slice(0, 2);
  const lh = ptToMm(small) * 1.05;
  lines.forEach((line, i) => {
    pen.text(line, x + pad, y + ROW / 2 - lh + ptToMm(small) * 0.86 + i * lh, { size: small, w: inner });
  });
}

export function drawRows(pen: Pen, cols: Col[], lines: DocLine[], offset: number, y: number): number {
  let ry = y;
  lines.forEach((l, li) => {
    let x = FRAME_X;
    for (const c of cols) {
      drawCell(pen, c.cell(l, offset + li), x, ry, c.w, c.align);
      x += c.w;
    }
    ry += ROW;
  });
  return ry;
}

/** ¥ in Courier 11 pt, then the amount in 宋体 9 pt, right-aligned in the column */
function money(pen: Pen, amount: string, right: number, baseline: number) {
  const value = money2(amount);
  const w = pen.width(value);
  pen.text(value, right - w, baseline);
  pen.text('¥', right - w - pen.width('¥', 'courier', 11), baseline, { face: 'courier', size: 11 });
}

/**
 * 合计 / 小计: the two characters apart (positioned, no padding characters), ¥ amounts under 金额
 * and 税额. Returns the row's bottom.
 */
export function drawSumRow(
  pen: Pen,
  cols: Col[],
  label: '合计' | '小计',
  amount: string,
  tax: string,
  y: number,
) {
  const base = mid(y, SUM_ROW);
  const first = cols[0]!;
  const centre = FRAME_X + first.w / 2;
  const [a, b] = [...label] as [string, string];
  pen.text(a, centre - ptToMm(9) * 1.5, base, { face: 'kai', color: BROWN });
  pen.text(b, centre + ptToMm(9) * 0.5, base, { face: 'kai', color: BROWN });
  const amountRight = FRAME_X + cols.slice(0, -2).reduce((s, c) => s + c.w, 0) - 0.6;
  money(pen, amount, amountRight, base);
  money(pen, tax, FRAME_R - 0.6, base);
  return y + SUM_ROW;
}

/** The second table of 04 / 09: its 列名 row and rows, from y; returns its bottom. */
export function drawExtraTable(pen: Pen, t: ExtraTable, y: number): number {
  drawColumnTitles(pen, t.cols, y);
  let ry = y + HEAD_ROW;
  for (const r of t.rows) {
    let x = FRAME_X;
    r.forEach((v, k) => {
      const w = t.cols[k]!.w;
      drawCell(pen, v, x, ry, w, 'center');
      x += w;
    });
    ry += ROW;
  }
  return ry;
}

/**
 * 价税合计 (8 mm): the label under 项目名称's width, a line, ⊗ drawn as a 4×4 mm shape (not a
 * character), the capitals in the 86 mm area, then （小写） and ¥ in the 49 mm area.
 */
export function drawTotalRow(pen: Pen, inv: InvoiceDocData, y: number) {
  const labelW = FRAME_W - CAPITAL_W - SMALL_W - 29;
  const x1 = FRAME_X + labelW;
  pen.line(x1, y, x1, y + TOTAL_ROW);
  const base = mid(y, TOTAL_ROW);
  pen.text(TERMS.totalWithTaxCapital, FRAME_X, base, {
    face: 'kai',
    color: BROWN,
    w: labelW,
    align: 'center',
  });
  drawCircledTimes(pen, x1 + 2, y + (TOTAL_ROW - 4) / 2);
  pen.text(toCapital(inv.totalWithTax), x1 + 7.5, base, { w: CAPITAL_W - 8 });
  const smallX = x1 + CAPITAL_W;
  pen.text('（小写）', smallX, base, { face: 'kai', color: BROWN, w: 29, align: 'right' });
  const sx = FRAME_R - SMALL_W + 1;
  const yen = pen.text('¥', sx, base, { face: 'courier', size: 11 });
  pen.text(money2(inv.totalWithTax), sx + yen, base);
}
