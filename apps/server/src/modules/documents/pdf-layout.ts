/**
 * The geometry of the 数电 form, in mm from the page's top-left corner (spec §三 1.1-1.7), and how
 * item lines are spread over pages (§三 1.5 "发票明细"填充区域规则).
 */
export const PAGE_W = 210;
export const MIN_PAGE_H = 140;
/** the inner frame: 201 mm wide, centred; 94 mm high at 8 lines */
export const FRAME_X = 4.5;
export const FRAME_W = 201;
export const FRAME_R = FRAME_X + FRAME_W;
/** buyer/seller area: top line 30 mm from the top, 22 mm high, columns 6 / 94.5 / 6 / 94.5 */
export const FRAME_TOP = 30;
export const PARTY_H = 22;
export const PARTY_COLS = [6, 94.5, 6, 94.5];
/** 列名 and 合计 rows 4.5 mm, item rows 4.375 mm, 价税合计 8 mm */
export const HEAD_ROW = 4.5;
export const SUM_ROW = 4.5;
export const ROW = 4.375;
export const TOTAL_ROW = 8;
/** 备注: 20 mm high, its bottom line 16 mm above the page's bottom edge; columns 6 / 195 */
export const REMARK_H = 20;
export const REMARK_LABEL_W = 6;
export const BOTTOM = 16;
/** 价税合计（大写） and （小写） fill areas */
export const CAPITAL_W = 86;
export const SMALL_W = 49;
/** header (§三 1.3) */
export const TITLE_TOP = 8;
export const DOUBLE_LINE_Y = 18;
export const DOUBLE_LINE_GAP = 1;
export const DOUBLE_LINE_LEN = 73;
export const SEAL = { cx: 100.5, cy: 18, w: 30, h: 20 };
export const QR_BOX = { x: 7, y: 6, size: 20 };
export const LABEL_BOX = { x: 29, y: 6, w: 28, h: 20 };
/** 发票号码 / 开票日期: labels 20 mm from x = 155, rows 3 mm apart, 7.5 mm above the frame */
export const INFO = { x: 155, labelW: 20, fillW: 30.5, gap: 3, bottom: FRAME_TOP - 7.5 };
/** 开票人: its bottom edge 7.5 mm above the page's bottom */
export const FOOTER_BOTTOM = 7.5;

/** rows (4.375 mm each) a single page gives n lines: 8, then steps of 4 up to 40, then 42 */
export function rowsFor(n: number): number {
  if (n <= 8) return 8;
  if (n <= 40) return Math.ceil(n / 4) * 4;
  return 42;
}

export const SINGLE_PAGE_MAX = 42;
/** a page that is not the last (no 价税合计, no 备注) shows up to 47 lines */
export const PAGE_MAX = 47;
/** the last page of several keeps room for 小计, 价税合计 and 备注: 40 lines */
export const LAST_PAGE_MAX = 40;

/**
 * How many lines each page shows. ≤ 42 lines: one page. Beyond: pages keep the 42-line height; a
 * page shows up to 47 lines, and the last one (with 价税合计 and 备注) up to 40, so 43-47 lines move
 * their last line and 备注 to a second page as §三 1.5 says.
 */
export function planPages(n: number): number[] {
  if (n <= SINGLE_PAGE_MAX) return [n];
  const pages: number[] = [];
  let rest = n;
  while (rest > LAST_PAGE_MAX) {
    const take = Math.min(PAGE_MAX, rest - 1);
    pages.push(take);
    rest -= take;
  }
  pages.push(rest);
  return pages;
}

/** page height for a single-page invoice of `rows` item rows, or any page of a multi-page one */
export const pageHeight = (rows: number) => MIN_PAGE_H + (rows - 8) * ROW;
