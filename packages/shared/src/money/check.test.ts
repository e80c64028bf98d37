import { describe, expect, it } from 'vitest';
import { type CheckInvoiceInput, type CheckLine, checkInvoiceAmounts } from './check.ts';
import { computeLine, computeTotals, makeDiscountLine } from './compute.ts';

function line(amount: string, taxRate = '0.13', extra: Partial<CheckLine> = {}): CheckLine {
  return {
    lineKind: 0,
    taxClassCode: '1090511030000000000',
    zeroRateFlag: '',
    preferentialCode: '',
    ...computeLine({ priceIncludesTax: true, taxRate, amount }),
    taxRate,
    ...extra,
  };
}

function invoice(lines: CheckLine[], direction: 'blue' | 'red' = 'blue'): CheckInvoiceInput {
  return { direction, lines, ...computeTotals(lines) };
}

const fields = (input: CheckInvoiceInput) => checkInvoiceAmounts(input).map((i) => i.field);

describe('checkInvoiceAmounts — a correct invoice', () => {
  it('passes with quantities, several rates, a discount pair and 0%/免税/不征税 lines', () => {
    const discounted = line('100', '0.13', { lineKind: 2 });
    const lines: CheckLine[] = [
      {
        ...line('33.33', '0.06'),
        ...computeLine({ priceIncludesTax: true, taxRate: '0.06', quantity: '3', price: '11.11' }),
      },
      discounted,
      makeDiscountLine(
        { ...discounted, ...computeLine({ priceIncludesTax: true, taxRate: '0.13', amount: '100' }) },
        '20',
        { priceIncludesTax: true },
      ),
      line('50', '0', { zeroRateFlag: '1', preferentialCode: '03' }),
      line('50', '0', { zeroRateFlag: '1', preferentialCode: '' }),
      line('500', '0', { zeroRateFlag: '2', preferentialCode: '04', taxClassCode: '6010000000000000000' }),
      line('10', '0', { zeroRateFlag: '3' }),
      line('10', '0'),
      line('105', '0.05', { preferentialCode: '09' }),
      line('101.5', '0.015', { preferentialCode: '10' }),
    ];
    expect(checkInvoiceAmounts(invoice(lines))).toEqual([]);
  });
});

describe('checkInvoiceAmounts — line tolerances (domain.md §2.2)', () => {
  it('|单价×数量−金额| ≤ 0.01', () => {
    const ok = { ...line('100'), quantity: '3', unitPrice: '29.50' }; // 88.50 exactly
    expect(checkInvoiceAmounts(invoice([ok]))).toEqual([]);
    const edge = { ...line('100'), quantity: '3', unitPrice: '29.4967' }; // 88.4901 → error 0.0099
    expect(checkInvoiceAmounts(invoice([edge]))).toEqual([]);
    const bad = { ...line('100'), quantity: '3', unitPrice: '29.4966' }; // 88.4898 → error 0.0102
    expect(checkInvoiceAmounts(invoice([line('1'), bad]))).toEqual([
      { field: 'goods_info.1.amount', message: '第2行单价×数量与金额的误差超过0.01' },
    ]);
  });

  it('|金额×税率−税额| ≤ 0.06: 0.06 passes, 0.07 fails, with the row number in the message', () => {
    // 100.00 × 13% = 13.00
    const at = (tax: string) => ({
      ...line('1'),
      amount: '100.00',
      taxAmount: tax,
      amountWithTax: (100 + Number(tax)).toFixed(2),
    });
    expect(checkInvoiceAmounts(invoice([at('13.06')]))).toEqual([]);
    expect(checkInvoiceAmounts(invoice([at('12.94')]))).toEqual([]);
    expect(checkInvoiceAmounts(invoice([line('1'), line('2'), at('13.07')]))).toEqual([
      { field: 'goods_info.2.tax_amount', message: '第3行税额与金额×税率的误差超过0.06' },
    ]);
  });

  it('line 价税合计 must equal 金额 + 税额', () => {
    const bad = { ...line('100'), amountWithTax: '100.01' };
    expect(checkInvoiceAmounts({ ...invoice([bad]), totalWithTax: '100.00' })).toContainEqual({
      field: 'goods_info.0.amount_with_tax',
      message: '第1行价税合计须等于金额与税额之和',
    });
  });

  it('0% lines carry no tax; quantity and price go together; no negative price', () => {
    const zeroTax = { ...line('10', '0'), taxAmount: '0.05', amountWithTax: '10.05' };
    expect(checkInvoiceAmounts(invoice([zeroTax]))).toEqual([
      { field: 'goods_info.0.tax_amount', message: '第1行税率为0时税额须为0' },
    ]);
    expect(fields(invoice([{ ...line('10'), quantity: '1', unitPrice: null }]))).toEqual([
      'goods_info.0.quantity',
    ]);
    const negPrice = { ...line('-10'), quantity: '1', unitPrice: '-8.85' };
    expect(checkInvoiceAmounts(invoice([negPrice], 'red'))).toEqual([
      { field: 'goods_info.0.price', message: '第1行单价不能为负数' },
    ]);
  });

  it('format: amounts with more than 2 decimals, unknown rates, bad numbers', () => {
    const issues = checkInvoiceAmounts({
      ...invoice([line('10'), line('10'), line('10'), line('10')]),
      lines: [
        { ...line('10'), amount: '8.850' },
        { ...line('10'), taxRate: '0.07' },
        { ...line('10'), taxAmount: 'abc' },
        { ...line('10'), quantity: '1.123456789', unitPrice: '8.85' },
      ],
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        { field: 'goods_info.0.amount', message: '第1行金额格式不正确，最多两位小数' },
        { field: 'goods_info.1.tax_rate', message: '第2行税率不正确' },
        { field: 'goods_info.2.tax_amount', message: '第3行税额格式不正确，最多两位小数' },
        { field: 'goods_info.3.quantity', message: '第4行数量格式不正确' },
      ]),
    );
    expect(
      checkInvoiceAmounts({
        direction: 'blue',
        lines: [],
        totalAmount: '0',
        totalTax: '0',
        totalWithTax: '0',
      }),
    ).toContainEqual({
      field: 'goods_info',
      message: '请至少添加一行项目',
    });
  });

  it('accepts rates written differently ("0.130", ".06")', () => {
    expect(
      checkInvoiceAmounts(
        invoice([
          { ...line('100'), taxRate: '0.130' },
          { ...line('106', '0.06'), taxRate: '.06' },
        ]),
      ),
    ).toEqual([]);
  });
});

describe('checkInvoiceAmounts — totals', () => {
  const lines = [line('100'), line('200', '0.06')];

  it('|Σ行金额 − 合计金额| ≤ 0.01, 合计税额 = Σ税额, 合计金额 + 合计税额 = 价税合计 exactly', () => {
    const base = invoice(lines); // 88.50 + 188.68 = 277.18, tax 11.50 + 11.32 = 22.82, 300.00
    expect(base).toMatchObject({ totalAmount: '277.18', totalTax: '22.82', totalWithTax: '300.00' });
    expect(checkInvoiceAmounts({ ...base, totalAmount: '277.19', totalWithTax: '300.01' })).toEqual([]);
    expect(checkInvoiceAmounts({ ...base, totalAmount: '277.20', totalWithTax: '300.02' })).toEqual([
      { field: 'invoice_info.total_amount', message: '合计金额与各行金额之和的误差超过0.01' },
    ]);
    expect(checkInvoiceAmounts({ ...base, totalWithTax: '300.01' })).toEqual([
      { field: 'invoice_info.total_price_with_tax', message: '价税合计须等于合计金额与合计税额之和' },
    ]);
    expect(checkInvoiceAmounts({ ...base, totalTax: '22.83', totalWithTax: '300.01' })).toEqual([
      { field: 'invoice_info.total_tax', message: '合计税额须等于各行税额之和' },
    ]);
    expect(fields({ ...base, totalTax: '22.8' })).toEqual([
      'invoice_info.total_price_with_tax',
      'invoice_info.total_tax',
    ]);
    expect(fields({ ...base, totalTax: 'x' })).toEqual(['invoice_info.total_tax']);
  });

  it('blue totals must be positive', () => {
    const red = [line('-100')].map((l) => ({ ...l, lineKind: 0 as const }));
    expect(fields(invoice(red))).toEqual([
      'goods_info.0.amount',
      'goods_info.0.tax_amount',
      'invoice_info.total_amount',
      'invoice_info.total_tax',
      'invoice_info.total_price_with_tax',
    ]);
  });
});

describe('checkInvoiceAmounts — discount lines (domain.md §2.4)', () => {
  const pair = (discount = '10', rate = '0.13') => {
    const d = line('100', rate, { lineKind: 2 });
    return [
      d,
      makeDiscountLine({ ...d, lineKind: 2 as const } as never, discount, { priceIncludesTax: true }),
    ] as CheckLine[];
  };

  it('a discount pair passes; a 100% discount passes', () => {
    expect(checkInvoiceAmounts(invoice([...pair(), line('1')]))).toEqual([]);
    expect(checkInvoiceAmounts(invoice([...pair('100'), line('1')]))).toEqual([]);
  });

  it('discount larger than its line', () => {
    const [d, disc] = pair('100');
    const tooBig = {
      ...disc,
      ...computeLine({ priceIncludesTax: true, taxRate: '0.13', amount: '-100.01', lineKind: 1 }),
    };
    expect(checkInvoiceAmounts(invoice([d, tooBig, line('10')]))).toEqual([
      { field: 'goods_info.1.amount', message: '第2行折扣金额不能大于被折扣行金额' },
    ]);
  });

  it('discount line not after a discounted line, and a discounted line without its discount', () => {
    const [d, disc] = pair();
    expect(checkInvoiceAmounts(invoice([line('200'), disc]))).toEqual([
      { field: 'goods_info.1.line_kind', message: '第2行折扣行须紧跟在被折扣行之后' },
    ]);
    expect(checkInvoiceAmounts(invoice([d, line('5'), disc]))).toEqual([
      { field: 'goods_info.0.line_kind', message: '第1行为被折扣行，其后须紧跟折扣行' },
      { field: 'goods_info.2.line_kind', message: '第3行折扣行须紧跟在被折扣行之后' },
    ]);
    expect(checkInvoiceAmounts(invoice([disc, line('500')]))).toContainEqual({
      field: 'goods_info.0.line_kind',
      message: '第1行折扣行须紧跟在被折扣行之后',
    });
  });

  it('discount must be negative, without quantity or price, same rate/code/policy', () => {
    const [d, disc] = pair();
    const positive = {
      ...disc,
      ...computeLine({ priceIncludesTax: true, taxRate: '0.13', amount: '10', lineKind: 1 }),
    };
    expect(checkInvoiceAmounts(invoice([d, positive]))).toEqual([
      { field: 'goods_info.1.amount', message: '第2行折扣行金额须小于0' },
      { field: 'goods_info.1.tax_amount', message: '第2行折扣行税额不能大于0' },
    ]);
    expect(checkInvoiceAmounts(invoice([d, { ...disc, quantity: '1', unitPrice: '-8.85' }]))).toEqual([
      { field: 'goods_info.1.quantity', message: '第2行折扣行不能填写数量和单价' },
    ]);
    const otherRate = {
      ...disc,
      taxRate: '0.09',
      ...computeLine({ priceIncludesTax: true, taxRate: '0.09', amount: '-10', lineKind: 1 }),
    };
    expect(checkInvoiceAmounts(invoice([d, otherRate]))).toEqual([
      { field: 'goods_info.1.tax_rate', message: '第2行折扣行的税率须与被折扣行一致' },
    ]);
    expect(checkInvoiceAmounts(invoice([d, { ...disc, taxClassCode: '1090511040000000000' }]))).toEqual([
      { field: 'goods_info.1.tax_class_code', message: '第2行折扣行的税收分类编码须与被折扣行一致' },
    ]);
    expect(checkInvoiceAmounts(invoice([d, { ...disc, preferentialCode: '05' }]))).toEqual([
      { field: 'goods_info.1.preferential_code', message: '第2行折扣行的优惠政策须与被折扣行一致' },
    ]);
  });
});

describe('checkInvoiceAmounts — red invoices', () => {
  it('all amounts ≤ 0, normal lines only', () => {
    const red = [line('-100'), line('-50', '0.06')];
    expect(checkInvoiceAmounts(invoice(red, 'red'))).toEqual([]);
    expect(checkInvoiceAmounts(invoice([line('-100'), line('10')], 'red'))).toEqual([
      { field: 'goods_info.1.amount', message: '第2行：红字发票的金额和税额不能大于0' },
    ]);
    expect(checkInvoiceAmounts(invoice([line('100')], 'red'))).toEqual([
      { field: 'goods_info.0.amount', message: '第1行：红字发票的金额和税额不能大于0' },
      { field: 'invoice_info.total_amount', message: '红字发票的合计金额、合计税额和价税合计不能大于0' },
    ]);
    expect(checkInvoiceAmounts(invoice([{ ...line('-100'), lineKind: 2 }], 'red'))).toEqual([
      { field: 'goods_info.0.line_kind', message: '第1行：红字发票只能包含正常行，折扣须先并入被折扣行' },
    ]);
  });
});

describe('checkInvoiceAmounts — 0%, 免税, 不征税 flags (domain.md §2.5)', () => {
  const check = (extra: Partial<CheckLine>, rate = '0') =>
    checkInvoiceAmounts(invoice([line('100', rate, extra)]));

  it('免税 needs flag 1 and policy 03 (or the legacy flag alone)', () => {
    expect(check({ zeroRateFlag: '1', preferentialCode: '03' })).toEqual([]);
    expect(check({ zeroRateFlag: '1' })).toEqual([]);
    expect(check({ zeroRateFlag: '3', preferentialCode: '03' })).toEqual([
      {
        field: 'goods_info.0.zero_rate_flag',
        message: '第1行免税须使用税率0、零税率标识“免税”及优惠政策“免税”',
      },
    ]);
    expect(check({ zeroRateFlag: '1', preferentialCode: '04' })).toEqual([
      {
        field: 'goods_info.0.preferential_code',
        message: '第1行免税须使用税率0、零税率标识“免税”及优惠政策“免税”',
      },
      {
        field: 'goods_info.0.zero_rate_flag',
        message: '第1行不征税须使用税率0、零税率标识“不征税”及优惠政策“不征税”',
      },
    ]);
    expect(check({ preferentialCode: '03' }, '0.06')).toContainEqual({
      field: 'goods_info.0.zero_rate_flag',
      message: '第1行免税须使用税率0、零税率标识“免税”及优惠政策“免税”',
    });
  });

  it('不征税 needs flag 2 and policy 04 (or the legacy flag alone)', () => {
    expect(check({ zeroRateFlag: '2', preferentialCode: '04' })).toEqual([]);
    expect(check({ zeroRateFlag: '2' })).toEqual([]);
    expect(check({ preferentialCode: '04' })).toEqual([
      {
        field: 'goods_info.0.zero_rate_flag',
        message: '第1行不征税须使用税率0、零税率标识“不征税”及优惠政策“不征税”',
      },
    ]);
    expect(check({ zeroRateFlag: '2', preferentialCode: '01' })).toContainEqual({
      field: 'goods_info.0.preferential_code',
      message: '第1行不征税须使用税率0、零税率标识“不征税”及优惠政策“不征税”',
    });
  });

  it('a zero-rate flag needs rate 0', () => {
    expect(check({ zeroRateFlag: '1' }, '0.06')).toEqual([
      { field: 'goods_info.0.zero_rate_flag', message: '第1行税率不为0时不能选择零税率标识' },
    ]);
  });

  it('tax class codes starting with 6 must be 不征税', () => {
    const code = '6010000000000000000';
    expect(check({ taxClassCode: code, zeroRateFlag: '2', preferentialCode: '04' })).toEqual([]);
    const expected = {
      field: 'goods_info.0.zero_rate_flag',
      message: '第1行税收分类编码以6开头（未发生销售行为的不征税项目），须选择不征税',
    };
    expect(check({ taxClassCode: code, zeroRateFlag: '1', preferentialCode: '03' })).toEqual([expected]);
    expect(check({ taxClassCode: code }, '0.06')).toEqual([expected]);
  });

  it('simplified-levy policies need their rate', () => {
    expect(check({ preferentialCode: '08' }, '0.03')).toEqual([]);
    expect(check({ preferentialCode: '01' }, '0.05')).toEqual([]);
    expect(check({ preferentialCode: '08' }, '0.05')).toEqual([
      { field: 'goods_info.0.tax_rate', message: '第1行优惠政策“按3%简易征收”与税率不符' },
    ]);
    expect(check({ preferentialCode: '10' }, '0.05')).toEqual([
      { field: 'goods_info.0.tax_rate', message: '第1行优惠政策“按5%简易征收减按1.5%计征”与税率不符' },
    ]);
    expect(check({ preferentialCode: '11' }, '0.13')).toEqual([]);
  });
});

describe('checkInvoiceAmounts — what the payload may leave out or pad', () => {
  it('a line without quantity, price, code, flag or policy keys passes', () => {
    const bare: CheckLine = {
      amount: '100.00',
      taxRate: '0.13',
      taxAmount: '13.00',
      amountWithTax: '113.00',
    };
    expect(checkInvoiceAmounts(invoice([bare]))).toEqual([]);
  });

  it('empty or blank quantity and price count as not given', () => {
    for (const blank of ['', '  ', null]) {
      expect(
        checkInvoiceAmounts(invoice([{ ...line('100'), quantity: blank, unitPrice: blank }])),
        String(blank),
      ).toEqual([]);
    }
  });

  it('amounts, quantities and prices with spaces around them are read', () => {
    const l = line('113');
    const padded = {
      ...l,
      amount: ` ${l.amount} `,
      taxAmount: ` ${l.taxAmount} `,
      amountWithTax: ` ${l.amountWithTax} `,
      quantity: ' 2 ',
      unitPrice: ' 50 ',
    };
    expect(checkInvoiceAmounts({ direction: 'blue', lines: [padded], ...computeTotals([l]) })).toEqual([]);
  });

  it('numbers where strings are expected are format errors, not crashes', () => {
    const l = line('113');
    expect(
      checkInvoiceAmounts(
        invoice([
          { ...l, amount: 100 as unknown as string, quantity: 2 as unknown as string, unitPrice: '50' },
        ]),
      ),
    ).toEqual([{ field: 'goods_info.0.amount', message: '第1行金额格式不正确，最多两位小数' }]);
    expect(
      checkInvoiceAmounts(invoice([{ ...l, quantity: 2 as unknown as string, unitPrice: '50' }])),
    ).toEqual([{ field: 'goods_info.0.quantity', message: '第1行数量格式不正确' }]);
  });
});

describe('checkInvoiceAmounts — format errors name each field', () => {
  it('a bad 价税合计 is named; the line is then left out of the totals checks', () => {
    const good = line('113');
    const bad = { ...line('113'), amountWithTax: '113.0x' };
    // totals as if both lines were fine: no total error is reported on top of the format error
    const totals = computeTotals([good, line('113')]);
    expect(checkInvoiceAmounts({ direction: 'blue', lines: [good, bad], ...totals })).toEqual([
      { field: 'goods_info.1.amount_with_tax', message: '第2行价税合计格式不正确，最多两位小数' },
    ]);
  });

  it('a bad unit price is named, with a good quantity', () => {
    expect(checkInvoiceAmounts(invoice([{ ...line('113'), quantity: '2', unitPrice: '5o' }]))).toEqual([
      { field: 'goods_info.0.price', message: '第1行单价格式不正确' },
    ]);
  });

  it('bad totals are each named', () => {
    const l = line('113');
    expect(
      checkInvoiceAmounts({
        direction: 'blue',
        lines: [l],
        totalAmount: 'x',
        totalTax: '13.00',
        totalWithTax: '113.00',
      }),
    ).toEqual([{ field: 'invoice_info.total_amount', message: '合计金额格式不正确，最多两位小数' }]);
    expect(
      checkInvoiceAmounts({
        direction: 'blue',
        lines: [l],
        totalAmount: '100.00',
        totalTax: '13.00',
        totalWithTax: '1.131',
      }),
    ).toEqual([{ field: 'invoice_info.total_price_with_tax', message: '价税合计格式不正确，最多两位小数' }]);
  });

  it('no lines: only that is said, whatever the totals', () => {
    expect(
      checkInvoiceAmounts({
        direction: 'blue',
        lines: [],
        totalAmount: '100.00',
        totalTax: '13.00',
        totalWithTax: '113.00',
      }),
    ).toEqual([{ field: 'goods_info', message: '请至少添加一行项目' }]);
  });
});

describe('checkInvoiceAmounts — signs line by line', () => {
  // 金额 10, 税额 −11, 价税合计 −1: the identity holds, the signs do not
  const mixed = { amount: '10.00', taxAmount: '-11.00', amountWithTax: '-1.00', taxRate: '0.13' };

  it('a red line with any positive part is refused', () => {
    expect(
      checkInvoiceAmounts({
        direction: 'red',
        lines: [{ ...mixed }],
        totalAmount: '10.00',
        totalTax: '-11.00',
        totalWithTax: '-1.00',
      }),
    ).toContainEqual({
      field: 'goods_info.0.amount',
      message: '第1行：红字发票的金额和税额不能大于0',
    });
  });

  it('red totals with any positive part are refused', () => {
    const red = line('-113');
    expect(
      checkInvoiceAmounts({
        direction: 'red',
        lines: [red],
        totalAmount: '10.00',
        totalTax: '-11.00',
        totalWithTax: '-1.00',
      }),
    ).toContainEqual({
      field: 'invoice_info.total_amount',
      message: '红字发票的合计金额、合计税额和价税合计不能大于0',
    });
  });

  it('a blue normal line needs 金额 and 价税合计 above 0', () => {
    expect(checkInvoiceAmounts(invoice([{ ...mixed }]))).toContainEqual({
      field: 'goods_info.0.amount',
      message: '第1行金额须大于0',
    });
  });

  it('a blue discount line needs 金额 and 价税合计 below 0', () => {
    const d = line('100', '0.13', { lineKind: 2 });
    const disc = { ...d, lineKind: 1 as const, amount: '-10.00', taxAmount: '11.00', amountWithTax: '1.00' };
    expect(checkInvoiceAmounts(invoice([d, disc]))).toContainEqual({
      field: 'goods_info.1.amount',
      message: '第2行折扣行金额须小于0',
    });
  });

  it('a discount line with only a quantity, or only a price, is refused', () => {
    const d = line('100', '0.13', { lineKind: 2 });
    const disc = makeDiscountLine({ ...d, lineKind: 2 as const } as never, '10', {
      priceIncludesTax: true,
    }) as unknown as CheckLine;
    for (const extra of [{ quantity: '1' }, { unitPrice: '8.85' }]) {
      expect(checkInvoiceAmounts(invoice([d, { ...disc, ...extra }]))).toEqual([
        { field: 'goods_info.1.quantity', message: '第2行折扣行不能填写数量和单价' },
      ]);
    }
  });

  it('a discounted line at the very end has no discount after it', () => {
    expect(checkInvoiceAmounts(invoice([line('5'), line('100', '0.13', { lineKind: 2 })]))).toEqual([
      { field: 'goods_info.1.line_kind', message: '第2行为被折扣行，其后须紧跟折扣行' },
    ]);
  });
});

describe('checkInvoiceAmounts — discount pairs, field by field', () => {
  const pair = () => {
    const d = line('100', '0', { lineKind: 2, zeroRateFlag: '3' });
    const disc = makeDiscountLine({ ...d, lineKind: 2 as const } as never, '10', {
      priceIncludesTax: true,
    }) as unknown as CheckLine;
    return [d, disc] as const;
  };

  it('a discount line may leave the code empty', () => {
    const [d, disc] = pair();
    expect(checkInvoiceAmounts(invoice([d, { ...disc, taxClassCode: '' }]))).toEqual([]);
    expect(checkInvoiceAmounts(invoice([{ ...d, taxClassCode: null }, disc]))).toEqual([]);
  });

  it('the zero-rate flag must match too', () => {
    const [d, disc] = pair();
    expect(checkInvoiceAmounts(invoice([d, { ...disc, zeroRateFlag: '' }]))).toEqual([
      { field: 'goods_info.1.preferential_code', message: '第2行折扣行的优惠政策须与被折扣行一致' },
    ]);
  });

  it('a discounted line with a malformed amount is reported, its discount is not compared', () => {
    const [d, disc] = pair();
    for (const broken of [{ amount: '1OO.00' }, { amountWithTax: '1OO.00' }]) {
      const issues = checkInvoiceAmounts({
        direction: 'blue',
        lines: [{ ...d, ...broken }, disc],
        ...computeTotals([d, disc]),
      });
      expect(issues.map((i) => i.field)).toContain(
        `goods_info.0.${'amount' in broken ? 'amount' : 'amount_with_tax'}`,
      );
      expect(issues.map((i) => i.message)).not.toContain('第2行折扣金额不能大于被折扣行金额');
    }
  });
});

describe('checkInvoiceAmounts — flags and policies on lines that leave them out', () => {
  it('免税 by the legacy flag alone, 不征税 likewise, a 6… code with 不征税 and no policy', () => {
    const l = (extra: Partial<CheckLine>) => {
      const { zeroRateFlag: _f, preferentialCode: _p, ...rest } = line('50', '0');
      return { ...rest, ...extra };
    };
    expect(checkInvoiceAmounts(invoice([l({ zeroRateFlag: '1' })]))).toEqual([]);
    expect(
      checkInvoiceAmounts(invoice([l({ zeroRateFlag: '2', taxClassCode: '6010000000000000000' })])),
    ).toEqual([]);
    expect(
      checkInvoiceAmounts(
        invoice([l({ zeroRateFlag: '2', preferentialCode: '', taxClassCode: '6010000000000000000' })]),
      ),
    ).toEqual([]);
  });

  it('a 6… code: 0% without the 不征税 flag, or with another policy, is refused', () => {
    const code6 = { taxClassCode: '6010000000000000000' };
    expect(checkInvoiceAmounts(invoice([line('50', '0', { ...code6, zeroRateFlag: '' })]))).toEqual([
      {
        field: 'goods_info.0.zero_rate_flag',
        message: '第1行税收分类编码以6开头（未发生销售行为的不征税项目），须选择不征税',
      },
    ]);
    expect(
      checkInvoiceAmounts(
        invoice([line('50', '0', { ...code6, zeroRateFlag: '2', preferentialCode: '03' })]),
      ),
    ).toContainEqual({
      field: 'goods_info.0.zero_rate_flag',
      message: '第1行税收分类编码以6开头（未发生销售行为的不征税项目），须选择不征税',
    });
  });

  it('免税 or 不征税 policies on a taxed line are reported once, as flag errors', () => {
    expect(
      checkInvoiceAmounts(invoice([line('106', '0.06', { zeroRateFlag: '', preferentialCode: '03' })])),
    ).toEqual([
      {
        field: 'goods_info.0.zero_rate_flag',
        message: '第1行免税须使用税率0、零税率标识“免税”及优惠政策“免税”',
      },
    ]);
    expect(
      checkInvoiceAmounts(invoice([line('106', '0.06', { zeroRateFlag: '', preferentialCode: '04' })])),
    ).toEqual([
      {
        field: 'goods_info.0.zero_rate_flag',
        message: '第1行不征税须使用税率0、零税率标识“不征税”及优惠政策“不征税”',
      },
    ]);
  });
});
