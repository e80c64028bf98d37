import { createHash } from 'node:crypto';
import { beijingChineseDay, TERMS } from '@kaipiao/shared';
import { money2, rateAndTax, toCapital, trimDecimal } from './format.ts';
import type { DocParty, InvoiceDocData } from './model.ts';
import { type Col, drawCell } from './pdf-items.ts';
import { sealBureau } from './pdf-labels.ts';
import { ROW } from './pdf-layout.ts';
import { drawCircledTimes, drawQr, drawSeal } from './pdf-marks.ts';
import { ASCENT, BROWN, type Pen, ptToMm } from './pdf-pen.ts';
import { remarkLines } from './remark.ts';

/**
 * The older tax-control kinds (004, 007, 025, 026, 028, 032), which §三 does not cover: the old form
 * with 发票代码, 机器编号, 校验码, a 密码区, full buyer/seller lines and 收款人 / 复核 / 开票人 boxes.
 * Same faces and colours as the 数电 form. Eight lines a page (electronic old kinds allow 100 lines):
 * every page carries the whole form with 共X页 第X页, its 小计, and the last page 合计 and 价税合计.
 */
const X0 = 10;
const W = 190;
const HEADER_H = 31;
const PARTY_H = 21;
const HEAD_ROW = 5.5;
const SUM_ROW = 5.5;
const TOTAL_ROW = 7;
const PAGE_W = 210;
const PAGE_H = 140;

const columns = (): Col[] => [
  { title: '货物或应税劳务、服务名称', w: 50, align: 'left', cell: (l) => l.name },
  { title: TERMS.spec, w: 20, align: 'left', cell: (l) => l.spec },
  { title: TERMS.unit, w: 12, align: 'center', cell: (l) => l.unit },
  { title: TERMS.quantity, w: 18, align: 'right', cell: (l) => trimDecimal(l.quantity) },
  { title: TERMS.unitPrice, w: 24, align: 'right', cell: (l) => trimDecimal(l.unitPrice) },
  { title: TERMS.amount, w: 26, align: 'right', cell: (l) => money2(l.amount) },
  { title: TERMS.taxRate, w: 14, align: 'center', cell: (l) => rateAndTax(l).rate },
  { title: TERMS.taxAmount, w: 26, align: 'right', cell: (l) => rateAndTax(l).tax },
];

/** Deterministic stand-in for the 密码区 (the sandbox has no real cipher). */
function cipherLines(inv: InvoiceDocData): string[] {
  const h = createHash('sha512').update(`${inv.invoiceCode}|${inv.invoiceNo}|${inv.totalWithTax}`).digest();
  const alphabet = '0123456789<>+-*/';
  const out: string[] = [];
  for (let r = 0; r < 4; r++) {
    let line = '';
    for (let c = 0; c < 27; c++) line += alphabet[h[(r * 27 + c) % h.length]! % alphabet.length];
    out.push(line);
  }
  return out;
}

const base = (y: number, h: number, size = 9) => y + h / 2 + ptToMm(size) * 0.36;

/** A label whose characters are spread by position (名　称 without padding characters). */
function spreadLabel(pen: Pen, label: string, x: number, baseline: number, width: number) {
  const chars = [...label.replace(/：$/, '')];
  const em = ptToMm(8);
  const step = chars.length > 1 ? (width - em) / (chars.length - 1) : 0;
  chars.forEach((c, i) => {
    pen.text(c, x + i * step, baseline, { face: 'kai', size: 8, color: BROWN });
  });
  pen.text('：', x + width, baseline, { face: 'kai', size: 8, color: BROWN });
  return width + em;
}

function partyBlock(pen: Pen, p: DocParty, x: number, y: number) {
  const rows: [string, string][] = [
    ['名称：', p.name],
    [`${TERMS.taxCode}：`, p.taxCode],
    ['地址、电话：', [p.address, p.phone].filter(Boolean).join(' ')],
    ['开户行及账号：', [p.bankName, p.bankAccount].filter(Boolean).join(' ')],
  ];
  const labelW = ptToMm(8) * 6;
  rows.forEach(([k, v], i) => {
    const b = y + 4.2 + i * 4.8;
    const lw = spreadLabel(pen, k, x, b, labelW);
    pen.text(v, x + lw + 0.5, b, { size: 8, w: 100 - lw - 1 });
  });
}

function vertical(pen: Pen, s: string, x: number, y: number, w: number, h: number) {
  const chars = [...s];
  const step = Math.min(h / (chars.length + 0.5), 4.2);
  const top = y + (h - step * chars.length) / 2;
  chars.forEach((c, i) => {
    pen.text(c, x, top + (i + 0.8) * step, { face: 'kai', size: 8, color: BROWN, w, align: 'center' });
  });
}

const PER_PAGE = 8;

export function drawLegacyPages(pen: Pen, inv: InvoiceDocData, sum2: (values: string[]) => string) {
  const count = Math.max(1, Math.ceil(inv.lines.length / PER_PAGE));
  for (let i = 0; i < count; i++) {
    const lines = inv.lines.slice(i * PER_PAGE, (i + 1) * PER_PAGE);
    const last = i === count - 1;
    const sums = last
      ? { label: '合计', amount: inv.totalAmount, tax: inv.totalTax }
      : { label: '小计', amount: sum2(lines.map((l) => l.amount)), tax: sum2(lines.map((l) => l.taxAmount)) };
    drawLegacyPage(pen, inv, { lines, index: i, count, last, sums });
  }
}

type LegacyPage = {
  lines: InvoiceDocData['lines'];
  index: number;
  count: number;
  last: boolean;
  sums: { label: string; amount: string; tax: string };
};

function drawLegacyPage(pen: Pen, inv: InvoiceDocData, page: LegacyPage) {
  pen.doc.addPage({ size: [PAGE_W * (72 / 25.4), PAGE_H * (72 / 25.4)], margin: 0 });
  drawQr(pen, inv.qrString, X0 + 2, 4.5, 20);
  pen.text(inv.title, 0, 8 + ptToMm(18) * ASCENT, {
    face: 'kai',
    size: 18,
    color: BROWN,
    w: PAGE_W,
    align: 'center',
  });
  pen.line(70, 17, 140, 17);
  pen.line(70, 18, 140, 18);
  drawSeal(pen, 105, 18, 30, 20, sealBureau(inv.seller.taxCode));
  const info: [string, string][] = [
    [`${TERMS.invoiceCode}：`, inv.invoiceCode],
    [`${TERMS.invoiceNo}：`, inv.invoiceNo],
    [`${TERMS.issueDate}：`, beijingChineseDay(inv.issuedAt)],
    ...(inv.checkCode
      ? ([['校验码：', inv.checkCode.replace(/(\d{5})(?=\d)/g, '$1 ')]] as [string, string][])
      : []),
  ];
  info.forEach(([k, v], i) => {
    const b = 9 + i * 4.6;
    const lw = pen.text(k, 143, b, { face: 'kai', size: 8, color: BROWN });
    pen.text(v, 143 + lw, b, { size: 8, w: X0 + W - 143 - lw });
  });
  if (page.count > 1) {
    pen.text(`共${page.count}页 第${page.index + 1}页`, 143, 9 + info.length * 4.6, {
      face: 'kai',
      size: 8,
      color: BROWN,
    });
  }
  if (inv.machineNo) {
    const lw = pen.text('机器编号：', X0 + 25, 28.5, { face: 'kai', size: 8, color: BROWN });
    pen.text(inv.machineNo, X0 + 25 + lw, 28.5, { size: 8 });
  }

  const cols = columns();
  const frameH = PARTY_H + HEAD_ROW + 8 * ROW + SUM_ROW + TOTAL_ROW + PARTY_H;
  let y = HEADER_H;
  pen.rect(X0, y, W, frameH);
  for (const x of [6, 110, 116]) pen.line(X0 + x, y, X0 + x, y + PARTY_H);
  vertical(pen, TERMS.buyer, X0, y, 6, PARTY_H);
  vertical(pen, '密码区', X0 + 110, y, 6, PARTY_H);
  partyBlock(pen, inv.buyer, X0 + 8, y);
  cipherLines(inv).forEach((c, i) => {
    pen.text(c, X0 + 118, y + 4.2 + i * 4.8, { face: 'courier', size: 8, w: 70 });
  });
  y += PARTY_H;
  pen.line(X0, y, X0 + W, y);
  let x = X0;
  for (const c of cols) {
    pen.text(c.title, x, base(y, HEAD_ROW, 8), {
      face: 'kai',
      size: 8,
      color: BROWN,
      w: c.w,
      align: 'center',
    });
    x += c.w;
  }
  y += HEAD_ROW;
  page.lines.forEach((l, li) => {
    let cx = X0;
    for (const c of cols) {
      drawCell(pen, c.cell(l, li), cx, y + li * ROW, c.w, c.align);
      cx += c.w;
    }
  });
  y += 8 * ROW;
  pen.line(X0, y, X0 + W, y);
  const sb = base(y, SUM_ROW);
  const [c1, c2] = [...page.sums.label] as [string, string];
  pen.text(c1, X0 + 16, sb, { face: 'kai', color: BROWN });
  pen.text(c2, X0 + 30, sb, { face: 'kai', color: BROWN });
  const amountRight = X0 + cols.slice(0, 6).reduce((s, c) => s + c.w, 0) - 0.6;
  pen.text(`¥${money2(page.sums.amount)}`, X0, sb, { w: amountRight - X0, align: 'right' });
  pen.text(`¥${money2(page.sums.tax)}`, X0, sb, { w: W - 0.6, align: 'right' });
  y += SUM_ROW;
  pen.line(X0, y, X0 + W, y);
  pen.line(X0 + 32, y, X0 + 32, y + TOTAL_ROW);
  const tb = base(y, TOTAL_ROW);
  pen.text(TERMS.totalWithTaxCapital, X0, tb, { face: 'kai', color: BROWN, w: 32, align: 'center' });
  drawCircledTimes(pen, X0 + 34, y + 1.5);
  const lw = pen.text('（小写）', X0 + 135, tb, { face: 'kai', color: BROWN });
  if (page.last) {
    pen.text(toCapital(inv.totalWithTax), X0 + 40, tb, { w: 90 });
    pen.text(`¥${money2(inv.totalWithTax)}`, X0 + 135 + lw, tb, { w: 38 });
  }
  y += TOTAL_ROW;
  pen.line(X0, y, X0 + W, y);
  for (const bx of [6, 110, 116]) pen.line(X0 + bx, y, X0 + bx, y + PARTY_H);
  vertical(pen, TERMS.seller, X0, y, 6, PARTY_H);
  vertical(pen, TERMS.remark, X0 + 110, y, 6, PARTY_H);
  partyBlock(pen, inv.seller, X0 + 8, y);
  remarkLines(inv)
    .flatMap((l) => pen.wrap(l, 71, 'song', 7.5))
    .slice(0, 5)
    .forEach((l, i) => {
      pen.text(l, X0 + 118, y + 4 + i * 3.6, { size: 7.5 });
    });
  const fy = HEADER_H + frameH + 5;
  // the old form's footer: 收款人 / 复核 / 开票人 / 销售方（章）
  const footer: [string, string, number][] = [
    [`${TERMS.payee}：`, inv.payee, 8],
    ['复核：', inv.reviewer, 55],
    [`${TERMS.drawer}：`, inv.drawer, 102],
    [`${TERMS.seller}：（章）`, '', 150],
  ];
  for (const [k, v, fx] of footer) {
    const kw = pen.text(k, X0 + fx, fy, { face: 'kai', size: 8, color: BROWN });
    pen.text(v, X0 + fx + kw, fy, { size: 8, w: 40 });
  }
}
