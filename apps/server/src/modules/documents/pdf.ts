import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { compactCffSubsets } from './cff-compact.ts';
import { chineseDate, money2, rateAndTax, toCapital, trimDecimal, yuan } from './format.ts';
import type { DocLine, InvoiceDocData } from './model.ts';
import { assembleRemark, maskedIdNo, passengerVehicleName, transportVehicleName } from './remark.ts';

/**
 * The invoice PDF, laid out like the bureau's 数电 form (domain.md §1.3): 210 mm wide, ≥ 140 mm high,
 * header (title, 发票号码, 开票日期, QR top-left), buyer/seller, item lines, 合计, 价税合计, 备注, 开票人.
 * Older tax-control kinds get their own variant (发票代码, 机器编号, 校验码, 密码区, full buyer/seller
 * lines, 收款人/复核人/开票人 boxes). Text is real text in an embedded subset of Noto Sans Hans
 * (with a ToUnicode map), so `pdftotext` and our own `extractPdfText` read it back.
 */

const require = createRequire(import.meta.url);
export const CJK_FONT_PATH = path.resolve(
  path.dirname(require.resolve('@embedpdf/fonts-sc')),
  '../fonts/NotoSansHans-Regular.otf',
);

type FontkitFont = {
  layout: (...args: unknown[]) => unknown;
  createSubset(): unknown;
  glyphForCodePoint(cp: number): { path: { toSVG(): string } };
};
const cjkFonts = new Map<boolean, FontkitFont>();
/**
 * One parsed font per process (and per subset style): pdfkit takes a fontkit font object and
 * subsets it per document. `compact` renumbers the subset's subroutines (cff-compact.ts).
 */
function cjk(compact = true): FontkitFont {
  let font = cjkFonts.get(compact);
  if (!font) {
    const fontkit = createRequire(require.resolve('pdfkit'))('fontkit') as {
      openSync(p: string): FontkitFont;
    };
    font = fontkit.openSync(CJK_FONT_PATH);
    if (compact) compactCffSubsets(font);
    cjkFonts.set(compact, font);
  }
  return font;
}

let taxGlyphPath: string | null = null;
/** The outline of 税 (font units, y up), for the QR overlay. */
function taxGlyph(): string {
  taxGlyphPath ??= cjk().glyphForCodePoint(0x7a0e).path.toSVG();
  return taxGlyphPath;
}

export type RenderOptions = {
  /** 'Helvetica' is for the benchmark baseline only: every non-Latin character prints as X */
  font?: 'cjk' | 'Helvetica';
  /** false keeps the streams readable (debugging) */
  compress?: boolean;
  /** false embeds fontkit's plain subset (every subroutine slot of the font kept); for comparison */
  compactSubsets?: boolean;
};

const MM = 72 / 25.4;
const PAGE_W = 210;
const X0 = 10;
const W = 190;
const MIN_PAGE_H = 140;
const STEP = 17.5;
const ROW = 3.5;
/** > 42 lines: 47 per page (domain.md §1.3) */
const SINGLE_PAGE_MAX = 42;
const PER_PAGE = 47;

const BROWN = '#8a4b22';
const BLACK = '#1a1a1a';
const RED = '#d0021b';

type Col = {
  title: string;
  w: number;
  align: 'left' | 'center' | 'right';
  cell: (l: DocLine, i: number) => string;
};

/** The item table's columns: the general form, or the special-business variants (domain.md §4). */
function columns(inv: InvoiceDocData): Col[] {
  const rt = (l: DocLine) => rateAndTax(l);
  const qty = (l: DocLine) => trimDecimal(l.quantity);
  const price = (l: DocLine) => trimDecimal(l.unitPrice);
  const amount = (l: DocLine) => money2(l.amount);
  const name = (title = '项目名称', w = 46): Col => ({ title, w, align: 'left', cell: (l) => l.name });
  const tail = (wa: number, wr: number, wt: number): Col[] => [
    { title: '金额', w: wa, align: 'right', cell: amount },
    { title: inv.digital ? '税率/征收率' : '税率', w: wr, align: 'center', cell: (l) => rt(l).rate },
    { title: '税额', w: wt, align: 'right', cell: (l) => rt(l).tax },
  ];
  const s = inv.specific;
  if (s?.code === '03') {
    return [
      name('项目名称', 56),
      { title: '建筑服务发生地', w: 40, align: 'left', cell: () => s.building.place },
      { title: '建筑项目名称', w: 34, align: 'left', cell: () => s.building.project_name },
      ...tail(24, 16, 20),
    ];
  }
  if (s?.code === '04') {
    return [
      name('项目名称', 58),
      { title: '单位', w: 14, align: 'center', cell: (l) => l.unit },
      { title: '数量', w: 22, align: 'right', cell: qty },
      { title: '单价', w: 26, align: 'right', cell: price },
      ...tail(26, 18, 26),
    ];
  }
  if (s?.code === '06') {
    return [
      name('项目名称', 44),
      {
        title: '产权证书/不动产权证号',
        w: 34,
        align: 'left',
        cell: (_l, i) => s.rents[i]?.certificate_no ?? '',
      },
      { title: '面积单位', w: 14, align: 'center', cell: (l, i) => s.rents[i]?.area_unit ?? l.unit },
      { title: '数量', w: 16, align: 'right', cell: qty },
      { title: '单价', w: 20, align: 'right', cell: price },
      ...tail(22, 16, 24),
    ];
  }
  if (s?.code === '09') {
    return [
      name('项目名称', 62),
      { title: '数量', w: 22, align: 'right', cell: qty },
      { title: '单价', w: 26, align: 'right', cell: price },
      ...tail(28, 20, 32),
    ];
  }
  return [
    name(inv.digital ? '项目名称' : '货物或应税劳务、服务名称', inv.digital ? 46 : 50),
    { title: '规格型号', w: inv.digital ? 22 : 20, align: 'left', cell: (l) => l.spec },
    { title: '单位', w: 12, align: 'center', cell: (l) => l.unit },
    { title: '数量', w: inv.digital ? 20 : 18, align: 'right', cell: qty },
    { title: '单价', w: 24, align: 'right', cell: price },
    ...(inv.digital ? tail(24, 16, 26) : tail(26, 14, 26)),
  ];
}

/** The second table of 04 (transport rows) and 09 (travellers), printed after 合计. */
function extraTable(
  inv: InvoiceDocData,
): { heading: string; cols: { title: string; w: number }[]; rows: string[][] } | null {
  const s = inv.specific;
  if (s?.code === '04' && s.transports.length) {
    return {
      heading: '货物运输信息',
      cols: [
        { title: '运输工具种类', w: 34 },
        { title: '运输工具牌号', w: 34 },
        { title: '起运地', w: 40 },
        { title: '到达地', w: 40 },
        { title: '运输货物名称', w: 42 },
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
  if (s?.code === '09' && s.travellers.length) {
    return {
      heading: '旅客运输信息',
      cols: [
        { title: '出行人', w: 20 },
        { title: '有效身份证件号', w: 40 },
        { title: '出行日期', w: 22 },
        { title: '出发地', w: 30 },
        { title: '到达地', w: 30 },
        { title: '等级', w: 18 },
        { title: '交通工具类型', w: 30 },
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

const sum2 = (values: string[]): string => {
  // cents as BigInt: exact for any stored 2-dp amount
  let cents = 0n;
  for (const v of values) {
    const m = money2(v);
    const neg = m.startsWith('-');
    const [i = '0', f = '00'] = m.replace('-', '').split('.');
    const c = BigInt(i) * 100n + BigInt(f);
    cents += neg ? -c : c;
  }
  const neg = cents < 0n;
  const abs = neg ? -cents : cents;
  return `${neg ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

/** Deterministic stand-in for the 密码区 of older kinds (the sandbox has no real cipher). */
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

type Page = { lines: DocLine[]; offset: number; last: boolean; itemsArea: number; rowHeights: number[] };

export async function renderInvoicePdf(inv: InvoiceDocData, opts: RenderOptions = {}): Promise<Buffer> {
  const latin = opts.font === 'Helvetica';
  const fontSrc = latin ? 'Helvetica' : (cjk(opts.compactSubsets ?? true) as unknown as Buffer);
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress: opts.compress ?? true,
    font: fontSrc as unknown as string,
    info: {
      Title: latin ? inv.invoiceNo : `${inv.title} ${inv.invoiceNo}`,
      Author: latin ? 'kaipiao' : inv.seller.name,
      Subject: latin ? inv.invoiceNo : `${inv.buyer.name} ${yuan(inv.totalWithTax)}`,
      Creator: 'Kaipiao',
      Producer: 'Kaipiao',
    },
    lang: 'zh-CN',
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const T = latin ? (s: string) => s.replace(/[^\x20-\x7e]/g, 'X') : (s: string) => s;
  const pt = (v: number) => v * MM;
  let size = 8;
  const setSize = (s: number) => {
    size = s;
    doc.fontSize(s);
  };
  setSize(8);
  const width = (s: string) => doc.widthOfString(T(s)) / MM;

  /** Greedy wrap by character (CJK has no spaces; long Latin tokens break too). */
  const wrap = (s: string, w: number): string[] => {
    const text = T(s);
    if (!text) return [''];
    if (doc.widthOfString(text) <= pt(w)) return [text];
    const out: string[] = [];
    let line = '';
    let lineW = 0;
    for (const ch of text) {
      const cw = doc.widthOfString(ch);
      if (line && lineW + cw > pt(w)) {
        out.push(line);
        line = '';
        lineW = 0;
      }
      line += ch;
      lineW += cw;
    }
    if (line) out.push(line);
    return out;
  };

  const text = (
    s: string,
    x: number,
    y: number,
    o: { w?: number; align?: 'left' | 'center' | 'right'; color?: string; size?: number } = {},
  ) => {
    if (!s) return;
    const base = o.size ?? size;
    doc.fontSize(base);
    const str = T(s);
    let sw = doc.widthOfString(str) / MM;
    // numbers and single-line cells shrink to fit rather than overflow
    if (o.w && sw > o.w) {
      doc.fontSize(base * Math.max(0.55, o.w / sw));
      sw = doc.widthOfString(str) / MM;
    }
    let tx = x;
    if (o.w && o.align === 'center') tx = x + (o.w - sw) / 2;
    if (o.w && o.align === 'right') tx = x + o.w - sw;
    doc.fillColor(o.color ?? BLACK).text(str, pt(tx), pt(y), { lineBreak: false });
    setSize(base);
  };
  const labelValue = (label: string, value: string, x: number, y: number, w: number, s = 8) => {
    setSize(s);
    text(label, x, y, { color: BROWN });
    const lw = width(label);
    text(value, x + lw, y, { w: w - lw });
    setSize(s);
  };
  /** vertical label: one character per line, centred in its column */
  const vlabel = (s: string, x: number, y: number, w: number, h: number, s2 = 8) => {
    setSize(s2);
    const chars = [...s];
    const step = Math.min(h / (chars.length + 0.5), 4.2);
    const top = y + (h - step * chars.length) / 2 + (step - s2 / MM) / 2;
    chars.forEach((c, i) => {
      text(c, x + (w - width(c)) / 2, top + i * step, { color: BROWN });
    });
  };
  const line = (x1: number, y1: number, x2: number, y2: number, color = BROWN, lw = 0.6) =>
    doc.moveTo(pt(x1), pt(y1)).lineTo(pt(x2), pt(y2)).lineWidth(lw).strokeColor(color).stroke();
  const rect = (x: number, y: number, w: number, h: number, color = BROWN, lw = 0.6) =>
    doc.rect(pt(x), pt(y), pt(w), pt(h)).lineWidth(lw).strokeColor(color).stroke();

  const qr = (x: number, y: number, sz: number) => {
    let code: QRCode.QRCode;
    try {
      code = QRCode.create(inv.qrString, { errorCorrectionLevel: 'M', version: 5 });
    } catch {
      code = QRCode.create(inv.qrString, { errorCorrectionLevel: 'M' });
    }
    const n = code.modules.size;
    const m = sz / n;
    doc.fillColor('#000000');
    for (let r = 0; r < n; r++) {
      let c = 0;
      while (c < n) {
        if (!code.modules.get(r, c)) {
          c++;
          continue;
        }
        const start = c;
        while (c < n && code.modules.get(r, c)) c++;
        doc.rect(pt(x + start * m), pt(y + r * m), pt((c - start) * m) + 0.05, pt(m) + 0.05);
      }
    }
    doc.fill('#000000');
    // the pale-yellow 税 of the bureau's symbol over the centre (error level M absorbs it); drawn as
    // an outline, not text, so text extraction does not read it
    if (!latin) {
      const g = taxGlyph();
      const gs = 3.6 / 1000;
      doc
        .save()
        .translate(pt(x + sz / 2 - 1.8), pt(y + sz / 2 + 1.45))
        .scale(pt(gs), -pt(gs))
        .path(g)
        .fill('#e8c766')
        .restore();
    }
  };

  // ---- layout ---------------------------------------------------------------------------------
  const cols = columns(inv);
  const extra = extraTable(inv);
  const remarkText = assembleRemark(inv);
  const itemSize = 7.5;
  const rowHeight = (l: DocLine, idx: number): number => {
    setSize(itemSize);
    let lines = 1;
    for (const c of cols) {
      if (c.align === 'left') lines = Math.max(lines, Math.min(3, wrap(c.cell(l, idx), c.w - 1.5).length));
    }
    return lines * ROW;
  };
  const rowHeightsAll = inv.lines.map(rowHeight);
  const chunkLines: { lines: DocLine[]; offset: number }[] = [];
  if (inv.lines.length <= SINGLE_PAGE_MAX) chunkLines.push({ lines: inv.lines, offset: 0 });
  else
    for (let i = 0; i < inv.lines.length; i += PER_PAGE)
      chunkLines.push({ lines: inv.lines.slice(i, i + PER_PAGE), offset: i });
  const pages: Page[] = chunkLines.map((c, i) => {
    const rowHeights = rowHeightsAll.slice(c.offset, c.offset + c.lines.length);
    const used = rowHeights.reduce((a, b) => a + b, 0);
    const minArea = 8 * ROW + 2;
    const itemsArea = used <= minArea ? minArea : minArea + Math.ceil((used - minArea) / STEP) * STEP;
    return { ...c, last: i === chunkLines.length - 1, itemsArea, rowHeights };
  });
  const multi = pages.length > 1;

  setSize(8);
  const remarkW = inv.digital ? W - 8 - 3 : 74 - 3;
  const remarkLines = wrap(remarkText, remarkW);
  const remarkH = inv.digital ? Math.max(14, remarkLines.length * 3.8 + 3) : 20;
  const extraH = extra ? 5 + 5 + extra.rows.length * ROW + 1 : 0;

  const HEADER_H = 31;
  const PARTY_H = inv.digital ? 20 : 21;
  const HEAD_ROW = 5.5;
  const SUM_ROW = 5.5;
  const TOTAL_ROW = 7;

  for (const [pi, page] of pages.entries()) {
    const bottomH =
      SUM_ROW * (multi && page.last ? 2 : 1) +
      (page.last ? extraH + TOTAL_ROW + (inv.digital ? remarkH : PARTY_H) : 0);
    const frameH = PARTY_H + HEAD_ROW + page.itemsArea + bottomH;
    const pageH = Math.max(MIN_PAGE_H, HEADER_H + frameH + 11);
    doc.addPage({ size: [pt(PAGE_W), pt(pageH)], margin: 0 });

    // ---- header ----
    qr(X0 + 2, 4.5, 21);
    const title = inv.title;
    setSize(15);
    const tw = width(title);
    text(title, (PAGE_W - tw) / 2, 8, { color: BROWN, size: 15 });
    line((PAGE_W - tw) / 2 - 2, 15.5, (PAGE_W + tw) / 2 + 2, 15.5, BROWN, 0.5);
    line((PAGE_W - tw) / 2 - 2, 16.3, (PAGE_W + tw) / 2 + 2, 16.3, BROWN, 0.5);
    if (inv.red) {
      setSize(9);
      const mark = '红字发票';
      const mw = width(mark) + 3;
      const mx = (PAGE_W - tw) / 2 - mw - 5;
      doc.roundedRect(pt(mx), pt(8.3), pt(mw), pt(5.6), pt(1)).lineWidth(1).strokeColor(RED).stroke();
      text(mark, mx + 1.5, 9.3, { color: RED, size: 9 });
    }
    const tag = inv.specific
      ? { '03': '建筑服务', '04': '货物运输服务', '06': '不动产经营租赁服务', '09': '旅客运输服务' }[
          inv.specific.code
        ]
      : '';
    if (tag) {
      setSize(8);
      const gw = width(tag) + 4;
      rect((PAGE_W - gw) / 2, 18.5, gw, 5, BROWN, 0.5);
      text(tag, (PAGE_W - gw) / 2 + 2, 19.4, { color: BROWN, size: 8 });
    }
    const rx = 143;
    const rw = X0 + W - rx;
    const info: [string, string][] = inv.digital
      ? [
          ['发票号码：', inv.invoiceNo],
          ['开票日期：', chineseDate(inv.issuedAt)],
        ]
      : [
          ['发票代码：', inv.invoiceCode],
          ['发票号码：', inv.invoiceNo],
          ['开票日期：', chineseDate(inv.issuedAt)],
          ...(inv.checkCode
            ? ([['校验码：', inv.checkCode.replace(/(\d{5})(?=\d)/g, '$1 ')]] as [string, string][])
            : []),
        ];
    if (multi) info.push(['', `共${pages.length}页 第${pi + 1}页`]);
    info.forEach(([k, v], i) => {
      labelValue(k, v, rx, (inv.digital ? 9 : 6) + i * 4.6, rw, 8);
    });
    if (!inv.digital && inv.machineNo) labelValue('机器编号：', inv.machineNo, X0 + 25, 26, 60, 7.5);

    // ---- frame ----
    let y = HEADER_H;
    rect(X0, y, W, frameH, BROWN, 0.8);

    // parties
    if (inv.digital) {
      const half = W / 2;
      line(X0 + half, y, X0 + half, y + PARTY_H);
      for (const [i, [who, p]] of (
        [
          ['购买方信息', inv.buyer],
          ['销售方信息', inv.seller],
        ] as const
      ).entries()) {
        const px = X0 + i * half;
        line(px + 7, y, px + 7, y + PARTY_H);
        vlabel(who, px, y + 0.5, 7, PARTY_H - 1, 7.5);
        labelValue('名称：', p.name, px + 9, y + 5, half - 11, 8.5);
        labelValue('统一社会信用代码/纳税人识别号：', p.taxCode, px + 9, y + 12.5, half - 11, 8.5);
      }
    } else {
      const partyRows = (p: InvoiceDocData['buyer']): [string, string][] => [
        ['名　　称：', p.name],
        ['纳税人识别号：', p.taxCode],
        ['地 址、电 话：', [p.address, p.phone].filter(Boolean).join(' ')],
        ['开户行及账号：', [p.bankName, p.bankAccount].filter(Boolean).join(' ')],
      ];
      line(X0 + 6, y, X0 + 6, y + PARTY_H);
      line(X0 + 110, y, X0 + 110, y + PARTY_H);
      line(X0 + 116, y, X0 + 116, y + PARTY_H);
      vlabel('购买方', X0, y, 6, PARTY_H);
      vlabel('密码区', X0 + 110, y, 6, PARTY_H);
      partyRows(inv.buyer).forEach(([k, v], i) => {
        labelValue(k, v, X0 + 8, y + 1.8 + i * 4.8, 100, 7.5);
      });
      setSize(8);
      cipherLines(inv).forEach((c, i) => {
        text(c, X0 + 118, y + 1.8 + i * 4.8, { w: 70, size: 8 });
      });
    }
    y += PARTY_H;
    line(X0, y, X0 + W, y);

    // item header
    setSize(8);
    let cx = X0;
    for (const c of cols) {
      text(c.title, cx, y + 1.6, { w: c.w, align: 'center', color: BROWN, size: 8 });
      cx += c.w;
    }
    y += HEAD_ROW;
    // item rows (no grid lines on the 数电 form; the old kinds draw none either)
    setSize(itemSize);
    page.lines.forEach((l, li) => {
      const idx = page.offset + li;
      let x = X0;
      for (const c of cols) {
        const v = c.cell(l, idx);
        if (c.align === 'left') {
          wrap(v, c.w - 1.5)
            .slice(0, 3)
            .forEach((part, k) => {
              text(part, x + 1, y + 0.6 + k * ROW, { size: itemSize });
            });
        } else text(v, x + 0.5, y + 0.6, { w: c.w - 2, align: c.align, size: itemSize });
        x += c.w;
      }
      y += page.rowHeights[li]!;
    });
    y = HEADER_H + PARTY_H + HEAD_ROW + page.itemsArea;

    // 小计 / 合计 (amount and tax columns are the last three)
    const amountX = X0 + cols.slice(0, -3).reduce((a, c) => a + c.w, 0);
    const [ca, cr, ct] = cols.slice(-3) as [Col, Col, Col];
    const sumRow = (label: string, amount: string, tax: string) => {
      line(X0, y, X0 + W, y, BROWN, 0.3);
      text(label, X0, y + 1.6, { w: cols[0]!.w, align: 'center', color: BROWN, size: 8 });
      text(yuan(amount), amountX, y + 1.6, { w: ca.w - 1.5, align: 'right', size: 8 });
      text(yuan(tax), amountX + ca.w + cr.w, y + 1.6, { w: ct.w - 1.5, align: 'right', size: 8 });
      y += SUM_ROW;
    };
    if (multi)
      sumRow('小　　计', sum2(page.lines.map((l) => l.amount)), sum2(page.lines.map((l) => l.taxAmount)));
    if (page.last) sumRow('合　　计', inv.totalAmount, inv.totalTax);
    else line(X0, y, X0 + W, y);

    if (page.last) {
      if (extra) {
        line(X0, y, X0 + W, y);
        text(extra.heading, X0, y + 1.3, { w: W, align: 'center', color: BROWN, size: 8 });
        y += 5;
        let ex = X0;
        for (const c of extra.cols) {
          text(c.title, ex, y + 1.2, { w: c.w, align: 'center', color: BROWN, size: 7.5 });
          ex += c.w;
        }
        y += 5;
        for (const r of extra.rows) {
          ex = X0;
          r.forEach((v, k) => {
            const cw = extra.cols[k]!.w;
            text(v, ex + 0.5, y + 0.5, { w: cw - 1, align: 'center', size: 7 });
            ex += cw;
          });
          y += ROW;
        }
        y += 1;
      }
      // 价税合计
      line(X0, y, X0 + W, y);
      const capX = X0 + 32;
      line(capX, y, capX, y + TOTAL_ROW);
      text('价税合计（大写）', X0, y + 2, { w: 32, align: 'center', color: BROWN, size: 8.5 });
      setSize(8.5);
      text('ⓧ', capX + 3, y + 2, { color: BROWN, size: 8.5 });
      text(toCapital(inv.totalWithTax), capX + 8, y + 2, { w: 95, size: 8.5 });
      text('（小写）', X0 + 135, y + 2, { color: BROWN, size: 8.5 });
      text(yuan(inv.totalWithTax), X0 + 135 + width('（小写）'), y + 2, { w: 38, size: 8.5 });
      y += TOTAL_ROW;
      line(X0, y, X0 + W, y);

      if (inv.digital) {
        // 备注
        line(X0 + 8, y, X0 + 8, y + remarkH);
        vlabel('备注', X0, y, 8, remarkH);
        setSize(8);
        remarkLines.forEach((l, i) => {
          text(l, X0 + 10, y + 1.8 + i * 3.8, { size: 8 });
        });
        y += remarkH;
      } else {
        // seller row with 备注 on its right
        line(X0 + 6, y, X0 + 6, y + PARTY_H);
        line(X0 + 110, y, X0 + 110, y + PARTY_H);
        line(X0 + 116, y, X0 + 116, y + PARTY_H);
        vlabel('销售方', X0, y, 6, PARTY_H);
        vlabel('备注', X0 + 110, y, 6, PARTY_H);
        const p = inv.seller;
        (
          [
            ['名　　称：', p.name],
            ['纳税人识别号：', p.taxCode],
            ['地 址、电 话：', [p.address, p.phone].filter(Boolean).join(' ')],
            ['开户行及账号：', [p.bankName, p.bankAccount].filter(Boolean).join(' ')],
          ] as [string, string][]
        ).forEach(([k, v], i) => {
          labelValue(k, v, X0 + 8, y + 1.8 + i * 4.8, 100, 7.5);
        });
        setSize(7.5);
        wrap(remarkText, 71)
          .slice(0, 5)
          .forEach((l, i) => {
            text(l, X0 + 118, y + 1.5 + i * 3.6, { size: 7.5 });
          });
        y += PARTY_H;
      }
    }

    // footer
    const fy = HEADER_H + frameH + 3;
    if (inv.digital) labelValue('开票人：', inv.drawer, X0 + 8, fy, 80, 8.5);
    else {
      labelValue('收款人：', inv.payee, X0 + 8, fy, 40, 8);
      labelValue('复核人：', inv.reviewer, X0 + 55, fy, 40, 8);
      labelValue('开票人：', inv.drawer, X0 + 102, fy, 40, 8);
      labelValue('销售方：', '（章）', X0 + 150, fy, 38, 8);
    }
  }
  doc.end();
  return done;
}
