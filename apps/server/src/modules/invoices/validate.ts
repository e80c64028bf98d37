import {
  type BlueInvoiceRequest,
  beijingDay,
  type CheckLine,
  checkBuyer,
  checkInvoiceAmounts,
  checkSpecificBusiness,
  computeLine,
  lineLimitIssue,
  MONEY_MSG,
  maxInvoiceLines,
  needsSmallScaleReason,
  normalizeRate,
  ratesFor,
  type SmallScaleReason,
  TERMS,
} from '@kaipiao/shared';
import type { invoiceLines } from '../../db/schema/index.ts';

export type FieldIssue = { field: string; message: string };

/** A line as stored (invoice_lines), amounts as submitted once they pass the bureau's tolerances. */
export type StoredLine = Omit<typeof invoiceLines.$inferSelect, 'invoiceId' | 'clientId' | 'lineKind'> & {
  lineKind: 0 | 1 | 2;
};

/** Line limits per kind: the shared `maxInvoiceLines` (INVOICE_LINE_LIMITS), which batches split by. */
export const maxLines = maxInvoiceLines;

/** The rates a taxpayer may use on a Beijing day (ratesFor), kept for the day. */
const rateSets = new Map<string, ReadonlySet<string>>();
function allowedRatesFor(taxpayerType: 'general' | 'small', now: Date): ReadonlySet<string> {
  const key = `${taxpayerType}:${beijingDay(now)}`;
  let set = rateSets.get(key);
  // Stryker disable next-line ConditionalExpression: recomputing the cached set gives the same set
  if (!set) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the cache's size bound; clearing it more often only recomputes
    if (rateSets.size > 16) rateSets.clear();
    set = new Set(ratesFor({ taxpayerType, date: now }).map((r) => r.value));
    rateSets.set(key, set);
  }
  return set;
}

/**
 * The payload rules beyond its zod schema (domain.md §1.5, §2.2, §4): every line recomputed with
 * `computeLine` and the bureau's tolerances checked on what was submitted; buyer rules; line
 * limits; the special-business blocks; rates the taxpayer may use; the reason a small-scale
 * taxpayer issues 3% while the 1% reduction runs (`slsm`, domain.md §2.6). Returns the issues
 * (empty = fine), the lines to store and that reason when it applies (null otherwise: a reason
 * sent where none is asked for is ignored).
 */
export function validateBlue(
  req: BlueInvoiceRequest,
  seller: { taxCode: string; taxpayerType: 'general' | 'small' },
  now = new Date(),
): { issues: FieldIssue[]; lines: StoredLine[]; smallScaleReason: SmallScaleReason | null } {
  const issues: FieldIssue[] = [];
  const add = (field: string, message: string) => issues.push({ field, message });
  const includes = req.invoice_info.price_includes_tax;
  const allowedRates = allowedRatesFor(seller.taxpayerType, now);

  const lines: StoredLine[] = [];
  const checkLines: CheckLine[] = [];
  req.goods_info.forEach((g, i) => {
    let computed: ReturnType<typeof computeLine> | null = null;
    try {
      computed = computeLine({
        priceIncludesTax: includes,
        taxRate: g.tax_rate,
        // Stryker disable next-line ConditionalExpression: computeLine ignores quantity and price on a discount line
        quantity: g.line_kind === 1 ? null : g.quantity,
        // Stryker disable next-line ConditionalExpression: as above
        price: g.line_kind === 1 ? null : g.price,
        amount: includes ? g.amount_with_tax : g.amount,
        lineKind: g.line_kind,
      });
    } catch (err) {
      add(`goods_info.${i}.amount`, `第${i + 1}行：${(err as Error).message}`);
    }
    const rate = normalizeRate(g.tax_rate);
    if (rate !== null && !allowedRates.has(rate)) {
      add(
        `goods_info.${i}.tax_rate`,
        seller.taxpayerType === 'small'
          ? `第${i + 1}行${TERMS.taxRate}不适用于小规模纳税人`
          : `第${i + 1}行${TERMS.taxRate}不正确`,
      );
    }
    const quantity = computed?.quantity ?? g.quantity;
    const unitPrice = computed?.unitPrice ?? null;
    checkLines.push({
      lineKind: g.line_kind,
      quantity,
      unitPrice,
      amount: g.amount,
      taxRate: g.tax_rate,
      taxAmount: g.tax_amount,
      amountWithTax: g.amount_with_tax,
      taxClassCode: g.tax_class_code,
      zeroRateFlag: g.zero_rate_flag,
      preferentialCode: g.preferential_code,
    });
    lines.push({
      lineNo: i + 1,
      lineKind: g.line_kind,
      goodsId: g.goods_id,
      taxClassCode: g.tax_class_code,
      shortName: g.short_name,
      itemName: g.name,
      fullName: `*${g.short_name}*${g.name}`,
      spec: g.spec,
      unit: g.unit,
      quantity,
      unitPrice,
      unitPriceWithTax: computed?.unitPriceWithTax ?? null,
      amount: g.amount,
      taxRate: g.tax_rate,
      taxAmount: g.tax_amount,
      amountWithTax: g.amount_with_tax,
      preferentialCode: g.preferential_code,
      zeroRateFlag: g.zero_rate_flag,
    });
  });

  issues.push(
    ...checkInvoiceAmounts({
      direction: 'blue',
      lines: checkLines,
      totalAmount: req.invoice_info.total_amount,
      totalTax: req.invoice_info.total_tax,
      totalWithTax: req.invoice_info.total_price_with_tax,
    }),
  );

  // small-scale 3% while the 1% reduction runs: the bureau asks why (slsm, domain.md §2.6)
  let smallScaleReason: SmallScaleReason | null = null;
  // the form's rule (one definition); general taxpayers skip it without listing the rates
  if (
    // Stryker disable next-line ConditionalExpression: needsSmallScaleReason is false for a general taxpayer itself
    seller.taxpayerType === 'small' &&
    needsSmallScaleReason({
      taxpayerType: seller.taxpayerType,
      rates: req.goods_info.map((g) => g.tax_rate),
      date: now,
    })
  ) {
    if (req.small_scale_reason) smallScaleReason = req.small_scale_reason;
    else add('small_scale_reason', MONEY_MSG.SMALL_SCALE_REASON_REQUIRED);
  }

  const tooMany = lineLimitIssue(req.invoice_type, req.goods_info.length);
  if (tooMany) add(tooMany.field, tooMany.message);

  // buyer (domain.md §1.5): the shared rules the issue form runs too; its warnings are the form's
  issues.push(
    ...checkBuyer(req.buyer, { invoiceType: req.invoice_type, sellerTaxCode: seller.taxCode }).errors,
  );

  issues.push(...checkSpecificBusiness(req));

  // 06: an empty line unit takes the block's area unit
  if (req.invoice_info.specific_business_code === '06' && req.real_static_rent) {
    let k = 0;
    for (const line of lines) {
      if (line.lineKind === 1) continue;
      const block = req.real_static_rent[k++];
      if (block && !line.unit) line.unit = block.area_unit;
    }
  }
  return { issues, lines, smallScaleReason };
}
