import { TERMS } from '../glossary/terms.ts';
import { beijingDay } from '../time/beijing.ts';
import { type DecimalInput, dec } from './decimal.ts';

/** Every rate the invoice form offers (domain.md §2.6): 税率 13/9/6/0, 征收率 5/3, reduced 1.5/1/0.5. */
export const TAX_RATES = [
  { value: '0.13', label: '13%' },
  { value: '0.09', label: '9%' },
  { value: '0.06', label: '6%' },
  { value: '0.05', label: '5%' },
  { value: '0.03', label: '3%' },
  { value: '0.015', label: '1.5%' },
  { value: '0.01', label: '1%' },
  { value: '0.005', label: '0.5%' },
  { value: '0', label: '0%' },
] as const satisfies readonly { value: string; label: string }[];
export type TaxRateValue = (typeof TAX_RATES)[number]['value'];

/** Last day of the small-scale 3% → 1% reduction (domain.md §2.6; verify newer notices). */
export const SMALL_SCALE_REDUCED_RATE_END = '2027-12-31';

/** 零税率标识 (old-style `lslbs` / zero_rate_flag; domain.md §2.5). '' = not zero-rated. */
export const ZERO_RATE_FLAGS = {
  '0': '出口零税率',
  '1': '免税',
  '2': '不征税',
  '3': '普通零税率',
} as const;
export type ZeroRateFlag = '' | keyof typeof ZERO_RATE_FLAGS;

/** 数电 优惠政策标识 (domain.md §2.5). */
export const PREFERENTIAL_POLICIES = {
  '01': '简易征收',
  '02': '稀土产品',
  '03': '免税',
  '04': '不征税',
  '05': '先征后退',
  '06': '100%先征后退',
  '07': '50%先征后退',
  '08': '按3%简易征收',
  '09': '按5%简易征收',
  '10': '按5%简易征收减按1.5%计征',
  '11': '即征即退30%',
  '12': '即征即退50%',
  '13': '即征即退70%',
  '14': '即征即退100%',
  '15': '超税负3%即征即退',
  '16': '超税负8%即征即退',
  '17': '超税负12%即征即退',
  '18': '超税负6%即征即退',
} as const;
export type PreferentialCode = '' | keyof typeof PREFERENTIAL_POLICIES;

/** Rates a 优惠政策标识 admits (policies not listed keep the goods code's normal rate). */
export const PREFERENTIAL_RATES: Partial<Record<keyof typeof PREFERENTIAL_POLICIES, readonly string[]>> = {
  '01': ['0.03', '0.05'],
  '03': ['0'],
  '04': ['0'],
  '08': ['0.03'],
  '09': ['0.05'],
  '10': ['0.015'],
};

/**
 * Why a small-scale taxpayer issues 3% while the 1% reduction runs (`slsm`, domain.md §2.6).
 */
export const SMALL_SCALE_3_PERCENT_REASONS = {
  '1': `前期已开具3%征收率的发票，发生销售折让、中止、退回或开票有误等情形需开具${TERMS.redInvoice}或重新开具`,
  '2': '自愿放弃享受减按1%征收率征收增值税政策',
} as const;
export type SmallScaleReason = keyof typeof SMALL_SCALE_3_PERCENT_REASONS;

/**
 * Display label of a rate: '6%', '1.5%', and for rate 0 '免税' / '不征税' / '0%' from the zero-rate flag
 * (or the 数电 优惠政策标识 03/04 when no flag is given).
 */
export function rateLabel(
  rate: DecimalInput,
  zeroRateFlag?: string | null,
  preferentialCode?: string | null,
): string {
  const r = dec(rate, TERMS.taxRate);
  if (r.isZero()) {
    if (zeroRateFlag === '1' || (!zeroRateFlag && preferentialCode === '03')) return '免税';
    if (zeroRateFlag === '2' || (!zeroRateFlag && preferentialCode === '04')) return '不征税';
    return '0%';
  }
  return `${r.times(100).toFixed()}%`;
}

/** Normalises a rate to its TAX_RATES value ("0.060" → "0.06"), or null if it is not one of them. */
export function normalizeRate(rate: DecimalInput): TaxRateValue | null {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BlockStatement: the cache of string rates only saves work: bypassing it gives the same answers
  if (typeof rate === 'string') {
    // the same few strings every line of every invoice: parsed once (the issue path calls this per line)
    const hit = normalized.get(rate);
    // Stryker disable next-line ConditionalExpression: a cache miss recomputes the same answer
    if (hit !== undefined) return hit;
    const value = normalizeParsed(rate);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: when the cache is emptied changes memory use, not answers
    if (normalized.size >= 256) normalized.clear();
    normalized.set(rate, value);
    return value;
  }
  return normalizeParsed(rate);
}
const normalized = new Map<string, TaxRateValue | null>();
const RATE_DECIMALS = TAX_RATES.map((t) => ({ value: t.value, d: dec(t.value) }));
function normalizeParsed(rate: DecimalInput): TaxRateValue | null {
  let r: ReturnType<typeof dec>;
  try {
    // Stryker disable next-line StringLiteral: the error is caught and becomes null: its label is never seen
    r = dec(rate, TERMS.taxRate);
  } catch {
    return null;
  }
  return RATE_DECIMALS.find((t) => r.equals(t.d))?.value ?? null;
}

export interface RateOption {
  /** "0.13" */
  value: string;
  /** '13%' | '免税' | '不征税' | '0%' */
  label: string;
  zeroRateFlag: ZeroRateFlag;
  preferentialCode: PreferentialCode;
  /** small-scale 3% while the 1% reduction runs: ask for one of SMALL_SCALE_3_PERCENT_REASONS */
  needsReason?: boolean;
}

const ZERO_OPTIONS: readonly RateOption[] = [
  { value: '0', label: '免税', zeroRateFlag: '1', preferentialCode: '03' },
  { value: '0', label: '不征税', zeroRateFlag: '2', preferentialCode: '04' },
];

function opt(value: string, extra: Partial<RateOption> = {}): RateOption {
  return { value, label: rateLabel(value), zeroRateFlag: '', preferentialCode: '', ...extra };
}

/** The small-scale 3% → 1% reduction runs on `date` (a Beijing day 'YYYY-MM-DD', or an instant). */
export function smallScaleReductionRuns(date: string | Date = new Date()): boolean {
  const day = date instanceof Date ? beijingDay(date) : date.slice(0, 10);
  return day <= SMALL_SCALE_REDUCED_RATE_END;
}

/**
 * Whether an invoice must say why it is issued at 3% (`slsm`, domain.md §2.6): the seller is
 * small-scale, the reduction runs on `date` and some line's rate is 3%.
 */
export function needsSmallScaleReason(opts: {
  taxpayerType: 'general' | 'small' | null | undefined;
  rates: Iterable<DecimalInput>;
  date?: string | Date;
}): boolean {
  if (opts.taxpayerType !== 'small' || !smallScaleReductionRuns(opts.date)) return false;
  for (const rate of opts.rates) if (normalizeRate(rate) === '0.03') return true;
  return false;
}

/**
 * The rates a taxpayer may pick on `date` (domain.md §2.6). Small-scale: 1% (until
 * SMALL_SCALE_REDUCED_RATE_END, then 3%), 3% with a reason, 5%, 免税/不征税. General: 13 9 6 5 3 1.5 0.5,
 * 0% (普通零税率), 免税, 不征税. The goods code may narrow this further.
 */
export function ratesFor(opts: { taxpayerType: 'general' | 'small'; date?: string | Date }): RateOption[] {
  const day = opts.date instanceof Date ? beijingDay(opts.date) : (opts.date ?? beijingDay()).slice(0, 10);
  if (opts.taxpayerType === 'small') {
    const reduced = day <= SMALL_SCALE_REDUCED_RATE_END;
    return reduced
      ? [opt('0.01'), opt('0.03', { needsReason: true }), opt('0.05'), ...ZERO_OPTIONS]
      : [opt('0.03'), opt('0.05'), ...ZERO_OPTIONS];
  }
  return [
    ...['0.13', '0.09', '0.06', '0.05', '0.03', '0.015', '0.005'].map((v) => opt(v)),
    opt('0', { zeroRateFlag: '3' }),
    ...ZERO_OPTIONS,
  ];
}
