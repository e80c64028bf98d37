import {
  BATCH_KIND_ALIASES,
  BATCH_KIND_LABELS,
  BATCH_SHEETS,
  type BatchIssue,
  type BlueInvoiceRequest,
  BUYER_TYPE_LABELS,
  blueInvoiceRequestSchema,
  computeLine,
  dec,
  INVOICE_TYPES,
  isDecimal,
  PREFERENTIAL_POLICIES,
  TERMS,
} from '@kaipiao/shared';
import { maxLines, validateBlue } from '../invoices/validate.ts';
import { INVOICE_COLUMNS, LINE_COLUMNS } from './columns.ts';
import type { SheetRow } from './parse.ts';
import { type BatchLine, splitInvoice } from './split.ts';

/** What building a batch needs to know besides the file. */
export type BuildContext = {
  deviceInvoiceTypes: readonly string[];
  perInvoiceLimit: string;
  /** kind for rows that leave 发票种类 empty */
  defaultType: string;
  seller: { taxCode: string; taxpayerType: 'general' | 'small' };
  /** 税收分类编码 → short name and whether it is a summary code (absent: not in the library) */
  taxClasses: ReadonlyMap<string, { shortName: string; isSummary: boolean }>;
  sendEmail: boolean;
  now?: Date;
};

/** One invoice of the file, as the requests to issue (several when it had to be split). */
export type BuiltInvoice = {
  sourceSerial: string;
  sourceRow: number;
  reasons: ('amount' | 'lines')[];
  totalAmount: string;
  /** requests with a placeholder serial; the real one is given once the batch has its id */
  parts: BlueInvoiceRequest[];
};

export type BuildResult = { issues: BatchIssue[]; invoices: BuiltInvoice[] };

/** Placeholder serial while validating (a batch has no id yet). */
export const PLACEHOLDER_SERIAL = 'B000000-00000';

const headerOf = (columns: typeof INVOICE_COLUMNS, key: string) =>
  // Stryker disable next-line OptionalChaining,StringLiteral: every key asked for is a column of its sheet (columns.ts); an empty key never gets here
  columns.find((c) => c.key === key)?.header ?? '';
const invCol = (key: string) => headerOf(INVOICE_COLUMNS, key);
const lineCol = (key: string) => headerOf(LINE_COLUMNS, key);

const KIND_BY_TEXT = new Map<string, string>();
for (const [code, label] of Object.entries(BATCH_KIND_LABELS)) {
  KIND_BY_TEXT.set(code, code);
  KIND_BY_TEXT.set(label, code);
  KIND_BY_TEXT.set(INVOICE_TYPES[code as keyof typeof INVOICE_TYPES], code);
}
for (const [alias, code] of Object.entries(BATCH_KIND_ALIASES)) KIND_BY_TEXT.set(alias, code);

export function parseKind(text: string): string | null {
  const t = text.replace(/\s/g, '');
  const direct = KIND_BY_TEXT.get(t);
  if (direct) return direct;
  // "电子发票（普通发票）(82)" / "82-电子发票（普通发票）"
  const code = /(?:^|\(|（)(\d{2,3})(?:\)|）|-|$)/.exec(t)?.[1];
  return code && code in BATCH_KIND_LABELS ? code : null;
}

/** 购买方类型 as typed in the template: the glossary's words and what earlier templates said. */
const BUYER_TYPE_WORDS = new Map<string, 1 | 2>([
  [BUYER_TYPE_LABELS[2], 2],
  ['2', 2],
  ['企业单位', 2], // glossary-allow: still read from uploads
  ['单位', 2],
  [BUYER_TYPE_LABELS[1], 1],
  ['个人', 1],
  ['1', 1],
  ['个人/政府事业单位', 1], // glossary-allow: still read from uploads
  ['政府事业单位', 1],
  ['非企业', 1],
  ['非企业单位', 1],
]);

export function parseBuyerType(text: string): 1 | 2 | null {
  return BUYER_TYPE_WORDS.get(text.replace(/\s/g, '')) ?? null;
}

export function parseYesNo(text: string): boolean | null {
  const t = text.replace(/\s/g, '').toLowerCase();
  if (t === '' || ['是', 'y', 'yes', '1', 'true', '含税'].includes(t)) return true;
  if (['否', 'n', 'no', '0', 'false', '不含税'].includes(t)) return false;
  return null;
}

type ParsedRate = { rate: string; zeroRateFlag: '' | '1' | '2' | '3'; preferentialCode: string };

/** "13%", "0.13", "13", 0.13 (a number cell), 免税, 不征税 → the rate and its zero-rate flags. */
export function parseRate(text: string): ParsedRate | null {
  const t = text.replace(/\s/g, '');
  if (t === '免税') return { rate: '0', zeroRateFlag: '1', preferentialCode: '03' };
  if (t === '不征税') return { rate: '0', zeroRateFlag: '2', preferentialCode: '04' };
  const m = /^(\d+(?:\.\d+)?)(%?)$/.exec(t);
  if (!m) return null;
  let r = dec(m[1]!);
  if (m[2] === '%' || r.greaterThanOrEqualTo(1)) r = r.div(100);
  const rate = r.toFixed();
  const known = ['0.13', '0.09', '0.06', '0.05', '0.03', '0.015', '0.01', '0.005', '0'];
  if (!known.some((k) => dec(k).equals(r))) return null;
  return { rate: dec(rate).isZero() ? '0' : rate, zeroRateFlag: r.isZero() ? '3' : '', preferentialCode: '' };
}

export function parsePolicy(text: string): string | null {
  const t = text.replace(/\s/g, '');
  if (t === '') return '';
  // Stryker disable next-line OptionalChaining: a match always has group 1 (it is not optional), and no match ends the chain at exec(t)?.
  const code = /^(\d{1,2})(?:-|$)/.exec(t)?.[1]?.padStart(2, '0');
  if (code && code in PREFERENTIAL_POLICIES) return code;
  const byName = Object.entries(PREFERENTIAL_POLICIES).find(([, name]) => name === t);
  return byName ? byName[0] : null;
}

/** A positive decimal with at most `dp` decimals, or the problem. */
function number(text: string, dp: number, label: string): { value: string | null; problem?: string } {
  if (text === '') return { value: null };
  const t = text.replace(/,/g, '');
  if (!isDecimal(t)) return { value: null, problem: `${label}须为数字` };
  const d = dec(t);
  if (!d.greaterThan(0)) return { value: null, problem: `${label}须大于0` };
  if (d.decimalPlaces() > dp) return { value: null, problem: `${label}最多${dp}位小数` };
  if (d.greaterThanOrEqualTo('1e16')) return { value: null, problem: `${label}过大` };
  return { value: d.toFixed() };
}

const LINE_FIELD_COLUMN: Record<string, string> = {
  name: 'name',
  short_name: 'short_name',
  tax_class_code: 'tax_class_code',
  spec: 'spec',
  unit: 'unit',
  quantity: 'quantity',
  price: 'price',
  unit_price: 'price',
  amount: 'amount',
  tax_amount: 'amount',
  amount_with_tax: 'amount',
  tax_rate: 'rate',
  zero_rate_flag: 'rate',
  preferential_code: 'policy',
};
const BUYER_FIELD_COLUMN: Record<string, string> = {
  title_type: 'buyer_type',
  name: 'buyer_name',
  tax_code: 'buyer_tax_code',
  address: 'buyer_address',
  phone: 'buyer_phone',
  bank_name: 'buyer_bank_name',
  bank_account: 'buyer_bank_account',
  email: 'buyer_email',
  mobile: 'buyer_mobile',
};
const INFO_FIELD_COLUMN: Record<string, string> = {
  remark: 'remark',
  drawer: 'drawer',
  payee: 'payee',
  reviewer: 'reviewer',
  price_includes_tax: 'price_includes_tax',
};

/** Drops the form's "第N行：" prefix: the report names the Excel row itself. */
const stripLinePrefix = (m: string) =>
  // Stryker disable next-line Regex: 第N行 only ever starts a message of a line (money/messages.ts, validateBlue), so the ^ changes nothing
  m.replace(/^第\d+行[：:，,]?/, '');

/**
 * Turns the file's rows into blue-invoice requests (domain.md §9 item 5): every cell parsed, every
 * line computed with the shared money API, each invoice checked with the contract schema and the
 * issuing service's own rules (`validateBlue`: tolerances, buyer, rates), then split by the device's
 * per-invoice limit and the kind's line limit. Problems come back with sheet, row and column.
 */
export function buildBatch(
  file: { invoices: SheetRow[]; lines: SheetRow[] },
  ctx: BuildContext,
): BuildResult {
  const issues: BatchIssue[] = [];
  const inv = (row: number, key: string, message: string) =>
    issues.push({ sheet: BATCH_SHEETS.invoices, row, column: key ? invCol(key) : '', message });
  const ln = (row: number, key: string, message: string) =>
    // Stryker disable next-line StringLiteral: never reached: every problem of a batch line is on a field LINE_FIELD_COLUMN maps (its lines are normal lines without goods_id)
    issues.push({ sheet: BATCH_SHEETS.lines, row, column: key ? lineCol(key) : '', message });
  /** the parts of a split invoice repeat the invoice's and a cut line's problems: each is told once */
  const once =
    (push: typeof inv, sheet: string, colOf: (key: string) => string) =>
    (row: number, key: string, message: string) => {
      const column = key ? colOf(key) : '';
      const known = issues.some(
        (i) =>
          i.row === row &&
          // Stryker disable next-line ConditionalExpression: a part fails only on its cut line's 金额 (商品明细) and on the 1.27 total (发票信息, no column): the other sheet never has the same row, column and message
          i.sheet === sheet &&
          // Stryker disable next-line ConditionalExpression: as above: a part's message on a row of a sheet always comes with the same column
          i.column === column &&
          // Stryker disable next-line ConditionalExpression: as above: one cell of a part is only ever told one message
          i.message === message,
      );
      if (!known) push(row, key, message);
    };
  const invOnce = once(inv, BATCH_SHEETS.invoices, invCol);
  const lnOnce = once(ln, BATCH_SHEETS.lines, lineCol);

  // invoices by serial
  const bySerial = new Map<string, SheetRow>();
  /** serials of invoice rows refused as such: their lines need no message of their own */
  const refusedSerials = new Set<string>();
  for (const r of file.invoices) {
    const serial = r.values.serial ?? '';
    if (!serial) inv(r.row, 'serial', '请填写流水号');
    else if (serial.length > 40) {
      inv(r.row, 'serial', '流水号最多40个字符');
      refusedSerials.add(serial);
    } else if (bySerial.has(serial)) inv(r.row, 'serial', `流水号与第${bySerial.get(serial)!.row}行重复`);
    else bySerial.set(serial, r);
  }
  // lines grouped by serial, in file order
  const linesOf = new Map<string, SheetRow[]>();
  for (const r of file.lines) {
    const serial = r.values.serial ?? '';
    if (!serial) {
      ln(r.row, 'serial', '请填写流水号');
      continue;
    }
    if (!bySerial.has(serial)) {
      if (!refusedSerials.has(serial)) ln(r.row, 'serial', `“发票信息”表中没有流水号为“${serial}”的发票`);
      continue;
    }
    const list = linesOf.get(serial);
    if (list) list.push(r);
    else linesOf.set(serial, [r]);
  }

  const invoices: BuiltInvoice[] = [];
  for (const [serial, r] of bySerial) {
    const before = issues.length;
    const v = r.values;
    const kindText = v.kind ?? '';
    const invoiceType = kindText ? parseKind(kindText) : ctx.defaultType;
    if (!invoiceType) inv(r.row, 'kind', `${TERMS.invoiceKind}“${kindText}”不正确，请从下拉列表中选择`);
    else if (!ctx.deviceInvoiceTypes.includes(invoiceType)) {
      inv(r.row, 'kind', `所选${TERMS.device}不能开具${BATCH_KIND_LABELS[invoiceType] ?? invoiceType}`);
    }
    // Stryker disable next-line StringLiteral: a missing 购买方类型 and the stand-in are both no buyer type
    const titleType = parseBuyerType(v.buyer_type ?? '');
    if (!titleType)
      inv(r.row, 'buyer_type', `${TERMS.buyerType}须为“${BUYER_TYPE_LABELS[2]}”或“${BUYER_TYPE_LABELS[1]}”`);
    const includes = parseYesNo(v.price_includes_tax ?? '');
    if (includes === null)
      inv(r.row, 'price_includes_tax', `${TERMS.unitPrice}${TERMS.amount}含税须填“是”或“否”`);

    const rows = linesOf.get(serial) ?? [];
    if (rows.length === 0) inv(r.row, 'serial', '该发票在“商品明细”表中没有商品行');

    const lines: BatchLine[] = [];
    for (const lr of rows) {
      // Stryker disable next-line LogicalOperator,BooleanLiteral: with 单价金额含税 unreadable the lines are only checked, and no check of parseLine depends on it (quantity × price is compared with the amount either way)
      const line = parseLine(lr, includes ?? true, ctx, ln);
      if (line) lines.push(line);
    }
    if (!invoiceType || !titleType || includes === null) continue;
    if (issues.length > before) {
      // some lines are wrong: still check the buyer and the header with the lines that parsed
      if (lines.length > 0) {
        toRequest(r, lines, {
          invoiceType,
          titleType,
          includes,
          ctx,
          onIssue: (path, message) => {
            if (path[0] === 'buyer' || (path[0] === 'invoice_info' && !String(path[1]).startsWith('total'))) {
              mapIssue(path, message, r, rows, inv, ln);
            }
          },
        });
      }
      continue;
    }

    const request: BlueInvoiceRequest | null = toRequest(r, lines, {
      invoiceType,
      titleType,
      includes,
      ctx,
      onIssue: (path, message) => mapIssue(path, message, r, rows, inv, ln),
    });
    // Stryker disable next-line ConditionalExpression,LogicalOperator: toRequest returns null exactly when it reported a problem, so either test alone decides
    if (!request || issues.length > before) continue;

    const split = splitInvoice(lines, {
      perInvoiceLimit: ctx.perInvoiceLimit,
      maxLines: maxLines(invoiceType),
      priceIncludesTax: includes,
    });
    if (!split.ok) {
      ln(split.row, 'amount', split.message);
      continue;
    }
    const parts: BlueInvoiceRequest[] = [];
    // Stryker disable next-line ConditionalExpression: a single part holds the invoice's own lines, which build an equal request again
    if (split.parts.length === 1) parts.push(request);
    else {
      for (const part of split.parts) {
        const partReq = toRequest(r, part.lines, {
          invoiceType,
          titleType,
          includes,
          ctx,
          // a part's line i is the part's own line i (its row on 商品明细), not the invoice's
          onIssue: (path, message) => mapIssue(path, message, r, part.lines, invOnce, lnOnce),
        });
        // Stryker disable next-line ConditionalExpression: a part without a request reported its problem, so the invoice is dropped on the next line
        if (partReq) parts.push(partReq);
      }
      if (issues.length > before) continue;
    }
    invoices.push({
      sourceSerial: serial,
      sourceRow: r.row,
      reasons: split.reasons,
      totalAmount: request.invoice_info.total_amount,
      parts,
    });
  }
  return { issues, invoices };
}

function parseLine(
  lr: SheetRow,
  includes: boolean,
  ctx: BuildContext,
  ln: (row: number, key: string, message: string) => void,
): BatchLine | null {
  const v = lr.values;
  let ok = true;
  const bad = (key: string, message: string) => {
    ln(lr.row, key, message);
    ok = false;
  };
  const name = v.name ?? '';
  if (!name) bad('name', `请填写${TERMS.itemName}`);
  else if (name.length > 600) bad('name', `${TERMS.itemName}最多600个字符`);
  // Stryker disable next-line StringLiteral: a missing code and the stand-in fail the 19-digit check alike
  const code = v.tax_class_code ?? '';
  let shortName = v.short_name ?? '';
  if (!/^\d{19}$/.test(code)) bad('tax_class_code', `${TERMS.taxClassCode}须为19位数字`);
  else {
    const known = ctx.taxClasses.get(code);
    if (known?.isSummary) bad('tax_class_code', '汇总项编码不能用于开票，请填写其下级编码');
    else if (!shortName) {
      if (known) shortName = known.shortName;
      else bad('short_name', `编码库中没有该${TERMS.taxClassCode}，请填写${TERMS.shortName}`);
    }
  }
  if (shortName.length > 120) bad('short_name', `${TERMS.shortName}最多120个字符`);
  const quantity = number(v.quantity ?? '', 8, TERMS.quantity);
  if (quantity.problem) bad('quantity', quantity.problem);
  const price = number(v.price ?? '', 8, TERMS.unitPrice);
  if (price.problem) bad('price', price.problem);
  const amount = number(v.amount ?? '', 2, TERMS.amount);
  if (amount.problem) bad('amount', amount.problem);
  if (!amount.problem && amount.value === null && (quantity.value === null || price.value === null)) {
    bad('amount', `请填写${TERMS.amount}，或同时填写${TERMS.quantity}和${TERMS.unitPrice}`);
  }
  // Stryker disable next-line StringLiteral: parseRate refuses both, and the message reads v.rate itself
  const rate = parseRate(v.rate ?? '');
  if (!rate)
    bad('rate', v.rate ? `${TERMS.taxRate}“${v.rate}”不正确，请从下拉列表中选择` : `请填写${TERMS.taxRate}`);
  const policy = parsePolicy(v.policy ?? '');
  if (policy === null) bad('policy', '优惠政策标识不正确，请从下拉列表中选择');
  if (!ok || !rate) return null;

  let computed: ReturnType<typeof computeLine>;
  // Stryker disable BlockStatement,StringLiteral: never reached: computeLine does not throw on the cells checked above (positive numbers, a known rate, an amount or quantity and price)
  try {
    computed = computeLine({
      priceIncludesTax: includes,
      taxRate: rate.rate,
      quantity: quantity.value,
      price: price.value,
      amount: amount.value,
    });
  } catch (err) {
    bad('amount', (err as Error).message);
    return null;
  }
  // Stryker restore BlockStatement,StringLiteral
  if (
    amount.value !== null &&
    // Stryker disable next-line ConditionalExpression: with an amount and no quantity (price), computeLine's amount is the amount entered, so the comparison finds no difference
    quantity.value !== null &&
    // Stryker disable next-line ConditionalExpression: as above
    price.value !== null
  ) {
    const product = dec(includes ? computed.amountWithTax : computed.amount);
    if (product.minus(amount.value).abs().greaterThan('0.01')) {
      bad('amount', `${TERMS.amount}与${TERMS.quantity}×${TERMS.unitPrice}（${product.toFixed(2)}）不一致`);
      return null;
    }
  }
  return {
    row: lr.row,
    name,
    taxClassCode: code,
    shortName,
    spec: v.spec ?? '',
    unit: v.unit ?? '',
    quantity: computed.quantity,
    price: price.value,
    taxRate: rate.rate,
    zeroRateFlag: rate.zeroRateFlag,
    preferentialCode: policy || rate.preferentialCode,
    computed,
  };
}

/** The request of one invoice (or one part of a split one); schema and service rules reported via onIssue. */
function toRequest(
  r: SheetRow,
  lines: readonly BatchLine[],
  o: {
    invoiceType: string;
    titleType: 1 | 2;
    includes: boolean;
    ctx: BuildContext;
    onIssue: (path: (string | number)[], message: string) => void;
  },
): BlueInvoiceRequest | null {
  const v = r.values;
  let amount = dec(0);
  let tax = dec(0);
  for (const l of lines) {
    amount = amount.plus(l.computed.amount);
    tax = tax.plus(l.computed.taxAmount);
  }
  const raw = {
    serial_no: PLACEHOLDER_SERIAL,
    device_id: 1,
    invoice_type: o.invoiceType,
    buyer: {
      title_type: o.titleType,
      name: v.buyer_name ?? '',
      tax_code: (v.buyer_tax_code ?? '').toUpperCase(),
      email: v.buyer_email ?? '',
      mobile: v.buyer_mobile ?? '',
      address: v.buyer_address ?? '',
      phone: v.buyer_phone ?? '',
      bank_name: v.buyer_bank_name ?? '',
      bank_account: v.buyer_bank_account ?? '',
    },
    goods_info: lines.map((l) => ({
      line_kind: 0,
      goods_id: null,
      tax_class_code: l.taxClassCode,
      short_name: l.shortName,
      name: l.name,
      spec: l.spec,
      unit: l.unit,
      quantity: l.computed.quantity,
      price: o.includes ? l.computed.unitPriceWithTax : l.computed.unitPrice,
      amount: l.computed.amount,
      tax_amount: l.computed.taxAmount,
      amount_with_tax: l.computed.amountWithTax,
      tax_rate: l.taxRate,
      preferential_code: l.preferentialCode,
      zero_rate_flag: l.zeroRateFlag,
    })),
    invoice_info: {
      price_includes_tax: o.includes,
      total_amount: amount.toFixed(2),
      total_tax: tax.toFixed(2),
      total_price_with_tax: amount.plus(tax).toFixed(2),
      remark: v.remark ?? '',
      specific_business_code: null,
      drawer: v.drawer ?? '',
      payee: v.payee ?? '',
      reviewer: v.reviewer ?? '',
    },
    send_email: o.ctx.sendEmail,
  };
  const parsed = blueInvoiceRequestSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) o.onIssue(issue.path as (string | number)[], issue.message);
    return null;
  }
  const { issues } = validateBlue(parsed.data, o.ctx.seller, o.ctx.now);
  let bad = false;
  for (const issue of issues) {
    // the line limit is met by splitting
    // Stryker disable next-line ConditionalExpression,LogicalOperator: only the line-limit issue says 拆分, and it is the only issue on goods_info itself (a request always has lines)
    if (issue.field === 'goods_info' && /拆分/.test(issue.message)) continue;
    o.onIssue(issue.field.split('.'), issue.message);
    // Stryker disable next-line BooleanLiteral: every caller also drops the invoice when a problem was reported (issues.length > before)
    bad = true;
  }
  return bad ? null : parsed.data;
}

function mapIssue(
  path: (string | number)[],
  message: string,
  r: SheetRow,
  rows: readonly { row: number }[],
  inv: (row: number, key: string, message: string) => void,
  ln: (row: number, key: string, message: string) => void,
) {
  const [head, second, third] = path.map(String);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,Regex: a path's second part is a number only under goods_info, where it always is one (no field name has a digit), so no test or anchor alone changes the branch
  if (head === 'goods_info' && second !== undefined && /^\d+$/.test(second)) {
    // Stryker disable next-line OptionalChaining: rows has a row for every line of the request it reports on
    const lineRow = rows[Number(second)]?.row ?? r.row;
    // Stryker disable next-line StringLiteral: a stand-in key is in no column map, and an unknown key has no column either (headerOf)
    ln(lineRow, LINE_FIELD_COLUMN[third ?? ''] ?? '', stripLinePrefix(message));
  } else if (head === 'buyer') {
    // Stryker disable next-line StringLiteral: a stand-in key is in no column map, and an unknown key has no column either (headerOf)
    inv(r.row, BUYER_FIELD_COLUMN[second ?? ''] ?? '', message);
  } else if (
    // Stryker disable next-line ConditionalExpression: no other head has a second part INFO_FIELD_COLUMN knows, so the next line gives them no column as the last branch does
    head === 'invoice_info'
  ) {
    // Stryker disable next-line StringLiteral: a stand-in key is in no column map, and an unknown key has no column either (headerOf)
    inv(r.row, INFO_FIELD_COLUMN[second ?? ''] ?? '', message);
  } else {
    // Stryker disable next-line StringLiteral: an unknown key has no column either (headerOf)
    inv(r.row, '', message);
  }
}
