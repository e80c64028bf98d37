import {
  dec,
  PREFERENTIAL_RATES,
  type RateOption,
  rateLabel,
  ratesFor,
  type TaxRateResult,
} from '@kaipiao/shared';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { type Dispatch, useEffect } from 'react';
import { taxRatesQuery } from '../../../api/projects.ts';
import type { DraftAction } from '../utils/draft.ts';
import type { DraftLine, ZeroRateFlag } from '../utils/types.ts';
import { CellError, useFirstError, useTouch } from './field.tsx';

// 税率: the rates the goods code admits for this business (POST tax-rate), 免税 / 不征税 with their
// flags (domain.md §2.5); the general list until a code is chosen.

/** The server's options for the code, or the general list while there is none (no code yet, failed call). */
export function toRateOptions(result: TaxRateResult | undefined): RateOption[] {
  if (!result?.rates.length) return ratesFor({ taxpayerType: result?.taxpayer_type ?? 'general' });
  return result.rates.map((r) => ({
    value: r.value,
    label: r.label,
    zeroRateFlag: r.zero_rate_flag as RateOption['zeroRateFlag'],
    preferentialCode: r.preferential_code as RateOption['preferentialCode'],
    needsReason: r.needs_reason,
  }));
}

const keyOf = (rate: string, flag: string) => `${rate}|${flag}`;

function sameRate(a: string, b: string) {
  try {
    return dec(a).equals(dec(b));
  } catch {
    return false;
  }
}

type Props = { line: DraftLine; index: number; dispatch: Dispatch<DraftAction>; readOnly: boolean };

export function RateCell({ line, index, dispatch, readOnly }: Props) {
  const rates = useQuery(taxRatesQuery(line.tax_class_code));
  const options = toRateOptions(rates.data);
  const error = useFirstError([`goods_info.${index}.tax_rate`]);
  const touch = useTouch();
  const current = options.find(
    (o) => sameRate(o.value, line.tax_rate) && o.zeroRateFlag === line.zero_rate_flag,
  );
  const value = line.tax_rate
    ? current
      ? keyOf(current.value, current.zeroRateFlag)
      : 'current'
    : undefined;
  const items = options.map((o) => ({ value: keyOf(o.value, o.zeroRateFlag), label: o.label }));
  if (value === 'current') {
    let label = line.tax_rate;
    try {
      label = rateLabel(line.tax_rate, line.zero_rate_flag, line.preferential_code);
    } catch {
      // shown as typed
    }
    items.unshift({ value: 'current', label });
  }

  // a code chosen by hand preselects its normal rate (1% for small-scale while it runs)
  const preset = line.tax_class_code && !line.tax_rate && !readOnly ? rates.data?.default_rate : null;
  useEffect(() => {
    if (!preset) return;
    const o = options.find((x) => x.value === preset);
    if (o) {
      dispatch({
        type: 'updateLine',
        key: line.key,
        patch: {
          tax_rate: o.value,
          zero_rate_flag: o.zeroRateFlag as ZeroRateFlag,
          preferential_code: o.preferentialCode,
        },
      });
    }
  }, [preset, options, line.key, dispatch]);

  function pick(key: string) {
    const o = options.find((x) => keyOf(x.value, x.zeroRateFlag) === key);
    if (!o) return;
    // a policy tied to a rate (简易征收 3%/5% …) stays while the rate still fits it
    const kept =
      line.preferential_code && PREFERENTIAL_RATES[line.preferential_code as keyof typeof PREFERENTIAL_RATES];
    const keep = !o.preferentialCode && kept && kept.some((r) => sameRate(r, o.value));
    dispatch({
      type: 'updateLine',
      key: line.key,
      patch: {
        tax_rate: o.value,
        zero_rate_flag: o.zeroRateFlag as ZeroRateFlag,
        preferential_code: keep ? line.preferential_code : o.preferentialCode,
      },
    });
  }

  return (
    <div>
      <Select
        aria-label={`${TERMS.taxRate} 第${index + 1}行`}
        value={value}
        disabled={readOnly}
        status={error ? 'error' : undefined}
        onBlur={() => touch(`goods_info.${index}.tax_rate`)}
        placeholder={TERMS.taxRate}
        style={{ width: '100%' }}
        options={items}
        onChange={pick}
      />
      <CellError message={error} />
    </div>
  );
}
