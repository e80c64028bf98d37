import { loadPdfKit } from '../../lib/heavy-modules.ts';
import { yuan } from './format.ts';
import type { DocLine, InvoiceDocData } from './model.ts';
import { drawHeader } from './pdf-header.ts';
import {
  columns,
  drawColumnTitles,
  drawExtraTable,
  drawRows,
  drawSumRow,
  drawTotalRow,
  extraTable,
} from './pdf-items.ts';
import {
  BOTTOM,
  FRAME_R,
  FRAME_TOP,
  FRAME_W,
  FRAME_X,
  HEAD_ROW,
  PAGE_W,
  PARTY_H,
  pageHeight,
  planPages,
  REMARK_H,
  ROW,
  rowsFor,
  SINGLE_PAGE_MAX,
  TOTAL_ROW,
} from './pdf-layout.ts';
import { drawLegacyPages } from './pdf-legacy.ts';
import { drawRedWatermark } from './pdf-marks.ts';
import { drawParties } from './pdf-parties.ts';
import { MM, Pen } from './pdf-pen.ts';
import { drawFooter, drawRemark } from './pdf-remark.ts';

/**
 * The invoice PDF. 数电 kinds follow the bureau's layout rules (spec §三, bureau-layout-xml-v5002.md):
 * the regions are drawn by pdf-header (票头), pdf-parties (购买方/销售方), pdf-items (应税明细, 合计,
 * 价税合计), pdf-remark (备注, 票尾), with the geometry in pdf-layout and the vector marks (QR with 税,
 * seal, watermark, ⊗) in pdf-marks. Older tax-control kinds get the old form (pdf-legacy). Text is
 * real text (embedded subsets with ToUnicode maps), laid out so readers get `购 名称：…`, `销 名称：…`,
 * `合 计 ¥… ¥…` and `价税合计（大写） …` in order.
 */

export type RenderOptions = {
  /** 'Helvetica' is for the benchmark baseline only: every non-Latin character prints as X */
  font?: 'cjk' | 'Helvetica';
  /** false keeps the streams readable (debugging) */
  compress?: boolean;
};

const sum2 = (values: string[]): string => {
  // cents as BigInt: exact for any stored 2-dp amount
  let cents = 0n;
  for (const v of values) {
    const neg = v.trim().startsWith('-');
    const [i = '0', f = ''] = v.replace('-', '').trim().split('.');
    const c = BigInt(i || '0') * 100n + BigInt(`${f}00`.slice(0, 2));
    cents += neg ? -c : c;
  }
  const neg = cents < 0n;
  const abs = neg ? -cents : cents;
  return `${neg ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

export async function renderInvoicePdf(inv: InvoiceDocData, opts: RenderOptions = {}): Promise<Buffer> {
  const latin = opts.font === 'Helvetica';
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress: opts.compress ?? true,
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
  const pen = new Pen(doc, latin);
  if (inv.digital) drawDigital(pen, inv);
  else drawLegacyPages(pen, inv, sum2);
  doc.end();
  return done;
}

/** The 数电 form, one or more pages (§三 1.5 paging). */
function drawDigital(pen: Pen, inv: InvoiceDocData) {
  const extra = extraTable(inv);
  if (extra) {
    // 04 / 09: item lines and the transport table share the rows (§三 8.5 / 9.5); one page
    const slots = rowsFor(inv.lines.length + extra.rows.length);
    drawPage(pen, inv, { lines: inv.lines, offset: 0, index: 0, count: 1, rows: slots });
    return;
  }
  const counts = planPages(inv.lines.length);
  const rows = counts.length > 1 ? rowsFor(SINGLE_PAGE_MAX) : rowsFor(inv.lines.length);
  let offset = 0;
  counts.forEach((n, index) => {
    drawPage(pen, inv, {
      lines: inv.lines.slice(offset, offset + n),
      offset,
      index,
      count: counts.length,
      rows,
    });
    offset += n;
  });
}

type PagePlan = { lines: DocLine[]; offset: number; index: number; count: number; rows: number };

function drawPage(pen: Pen, inv: InvoiceDocData, page: PagePlan) {
  const pageH = pageHeight(page.rows);
  pen.doc.addPage({ size: [PAGE_W * MM, pageH * MM], margin: 0 });
  const last = page.index === page.count - 1;
  const multi = page.count > 1;
  const frameBottom = pageH - BOTTOM;
  const itemsTop = FRAME_TOP + PARTY_H;
  // 价税合计 and 备注 close the last page; the lines above them fill the rest
  const totalY = frameBottom - REMARK_H - TOTAL_ROW;
  const sumsBottom = last ? totalY : frameBottom;

  if (inv.red) drawRedWatermark(pen, FRAME_X, itemsTop, FRAME_W, sumsBottom - itemsTop);
  drawHeader(pen, inv, page);
  pen.rect(FRAME_X, FRAME_TOP, FRAME_W, frameBottom - FRAME_TOP);
  drawParties(pen, inv);
  pen.line(FRAME_X, itemsTop, FRAME_R, itemsTop);

  const cols = columns(inv);
  drawColumnTitles(pen, cols, itemsTop);
  const extra = extraTable(inv);
  const rowsBottom = drawRows(pen, cols, page.lines, page.offset, itemsTop + HEAD_ROW);
  if (extra) {
    // 04 / 09 print no 合计 (spec V1.008); the second table follows the lines
    drawExtraTable(pen, extra, Math.max(rowsBottom, itemsTop + HEAD_ROW + ROW));
  } else {
    const sumRows = multi ? 2 : 1;
    let y = sumsBottom - sumRows * 4.5;
    if (multi) {
      y = drawSumRow(
        pen,
        cols,
        '小计',
        sum2(page.lines.map((l) => l.amount)),
        sum2(page.lines.map((l) => l.taxAmount)),
        y,
      );
    }
    if (last) drawSumRow(pen, cols, '合计', inv.totalAmount, inv.totalTax, y);
  }
  if (last) {
    pen.line(FRAME_X, totalY, FRAME_R, totalY);
    drawTotalRow(pen, inv, totalY);
    pen.line(FRAME_X, totalY + TOTAL_ROW, FRAME_R, totalY + TOTAL_ROW);
    drawRemark(pen, inv, totalY + TOTAL_ROW);
  }
  drawFooter(pen, inv, pageH);
}
