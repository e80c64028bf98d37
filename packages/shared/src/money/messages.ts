import { TERMS } from '../glossary/terms.ts';

/** Chinese messages of the money checks (field names follow the blue-invoice payload, spec §3). */
export const MONEY_MSG = {
  NO_LINES: '请至少添加一行项目',
  AMOUNT_FORMAT: (n: number) => `第${n}行${TERMS.amount}格式不正确，最多两位小数`,
  TAX_FORMAT: (n: number) => `第${n}行${TERMS.taxAmount}格式不正确，最多两位小数`,
  WITH_TAX_FORMAT: (n: number) => `第${n}行${TERMS.totalWithTax}格式不正确，最多两位小数`,
  QUANTITY_FORMAT: (n: number) => `第${n}行${TERMS.quantity}格式不正确`,
  PRICE_FORMAT: (n: number) => `第${n}行${TERMS.unitPrice}格式不正确`,
  RATE_INVALID: (n: number) => `第${n}行${TERMS.taxRate}不正确`,
  LINE_AMOUNT_ERROR: (n: number) =>
    `第${n}行${TERMS.unitPrice}×${TERMS.quantity}与${TERMS.amount}的误差超过0.01`,
  LINE_TAX_ERROR: (n: number) => `第${n}行${TERMS.taxAmount}与${TERMS.amount}×${TERMS.taxRate}的误差超过0.06`,
  LINE_WITH_TAX_MISMATCH: (n: number) =>
    `第${n}行${TERMS.totalWithTax}须等于${TERMS.amount}与${TERMS.taxAmount}之和`,
  ZERO_RATE_TAX: (n: number) => `第${n}行${TERMS.taxRate}为0时${TERMS.taxAmount}须为0`,
  PRICE_NEGATIVE: (n: number) => `第${n}行${TERMS.unitPrice}不能为负数`,
  QUANTITY_AND_PRICE: (n: number) => `第${n}行${TERMS.quantity}和${TERMS.unitPrice}须同时填写或同时为空`,
  // blue signs and discount lines (domain.md §2.2, §2.4)
  LINE_AMOUNT_POSITIVE: (n: number) => `第${n}行${TERMS.amount}须大于0`,
  LINE_TAX_NEGATIVE: (n: number) => `第${n}行${TERMS.taxAmount}不能为负数`,
  DISCOUNT_NEGATIVE: (n: number) => `第${n}行折扣行${TERMS.amount}须小于0`,
  DISCOUNT_TAX_POSITIVE: (n: number) => `第${n}行折扣行${TERMS.taxAmount}不能大于0`,
  DISCOUNT_NO_QUANTITY: (n: number) => `第${n}行折扣行不能填写${TERMS.quantity}和${TERMS.unitPrice}`,
  DISCOUNT_POSITION: (n: number) => `第${n}行折扣行须紧跟在被折扣行之后`,
  DISCOUNTED_WITHOUT_DISCOUNT: (n: number) => `第${n}行为被折扣行，其后须紧跟折扣行`,
  DISCOUNT_TOO_LARGE: (n: number) => `第${n}行折扣${TERMS.amount}不能大于被折扣行${TERMS.amount}`,
  DISCOUNT_RATE: (n: number) => `第${n}行折扣行的${TERMS.taxRate}须与被折扣行一致`,
  DISCOUNT_CODE: (n: number) => `第${n}行折扣行的${TERMS.taxClassCode}须与被折扣行一致`,
  DISCOUNT_POLICY: (n: number) => `第${n}行折扣行的优惠政策须与被折扣行一致`,
  // red (domain.md §3)
  RED_LINE_KIND: (n: number) => `第${n}行：${TERMS.redInvoice}只能包含正常行，折扣须先并入被折扣行`,
  RED_LINE_POSITIVE: (n: number) =>
    `第${n}行：${TERMS.redInvoice}的${TERMS.amount}和${TERMS.taxAmount}不能大于0`,
  // 0%, 免税, 不征税 (domain.md §2.5)
  ZERO_FLAG_NONZERO_RATE: (n: number) => `第${n}行${TERMS.taxRate}不为0时不能选择零税率标识`,
  EXEMPT_FLAGS: (n: number) => `第${n}行免税须使用${TERMS.taxRate}0、零税率标识“免税”及优惠政策“免税”`,
  NOT_TAXABLE_FLAGS: (n: number) =>
    `第${n}行不征税须使用${TERMS.taxRate}0、零税率标识“不征税”及优惠政策“不征税”`,
  ZERO_FLAG_POLICY: (n: number) => `第${n}行零税率标识与优惠政策标识不一致`,
  CODE_6_NOT_TAXABLE: (n: number) =>
    `第${n}行${TERMS.taxClassCode}以6开头（未发生销售行为的不征税项目），须选择不征税`,
  POLICY_RATE: (n: number, policy: string) => `第${n}行优惠政策“${policy}”与${TERMS.taxRate}不符`,
  // small-scale 3% while the 1% reduction runs (slsm, domain.md §2.6)
  SMALL_SCALE_REASON_REQUIRED: '小规模纳税人开具3%征收率发票，请选择开具原因',
  // totals
  TOTAL_FORMAT: `${TERMS.totalAmount}格式不正确，最多两位小数`,
  TOTAL_TAX_FORMAT: `${TERMS.totalTax}格式不正确，最多两位小数`,
  TOTAL_WITH_TAX_FORMAT: `${TERMS.totalWithTax}格式不正确，最多两位小数`,
  TOTAL_AMOUNT_ERROR: `${TERMS.totalAmount}与各行${TERMS.amount}之和的误差超过0.01`,
  TOTAL_TAX_SUM: `${TERMS.totalTax}须等于各行${TERMS.taxAmount}之和`,
  TOTAL_TAX_ERROR: `${TERMS.taxAmount}累计误差超过1.27，请合并相同项目或按${TERMS.totalAmount}计算${TERMS.taxAmount}`,
  TOTAL_IDENTITY: `${TERMS.totalWithTax}须等于${TERMS.totalAmount}与${TERMS.totalTax}之和`,
  TOTAL_POSITIVE: `${TERMS.totalAmount}须大于0`,
  TOTAL_WITH_TAX_POSITIVE: `${TERMS.totalWithTax}须大于0`,
  TOTAL_TAX_NEGATIVE: `${TERMS.totalTax}不能为负数`,
  RED_TOTAL_POSITIVE: `${TERMS.redInvoice}的${TERMS.totalAmount}、${TERMS.totalTax}和${TERMS.totalWithTax}不能大于0`,
  // conversions
  CAPITAL_RANGE: `${TERMS.amount}超出转换范围，须小于1000万亿（1e15）`,
  FRACTION_DIGITS: '小数位数须为0到4位',
} as const;
