import { GOODS_MSG } from '@kaipiao/shared/schemas/goods';
import type { FormRule as Rule } from 'antd';

// antd rules for the goods form, from the same messages the server sends (packages/shared).
const PRICE = /^\d{1,16}(\.\d{1,8})?$/;

export const GOODS_RULES = {
  name: [
    { required: true, whitespace: true, message: GOODS_MSG.NAME_REQUIRED },
    { max: 300, message: GOODS_MSG.NAME_MAX },
  ],
  tax_class_code: [
    { required: true, message: GOODS_MSG.TAX_CLASS_REQUIRED },
    { pattern: /^\d{19}$/, message: GOODS_MSG.TAX_CLASS_FORMAT },
  ],
  spec: [{ max: 150, message: GOODS_MSG.SPEC_MAX }],
  unit: [{ max: 20, message: GOODS_MSG.UNIT_MAX }],
  price: [
    {
      validator: (_rule, value: string | undefined) => {
        const v = (value ?? '').trim();
        if (v === '' || (PRICE.test(v) && /[1-9]/.test(v))) return Promise.resolve();
        return Promise.reject(new Error(GOODS_MSG.PRICE_FORMAT));
      },
    },
  ],
  rate_key: [{ required: true, message: GOODS_MSG.RATE_REQUIRED }],
} satisfies Record<string, Rule[]>;

/** A rate option is identified by rate and zero-rate flag (0% 免税 and 0% 不征税 differ). */
export const rateKey = (value: string, zeroRateFlag: string) => `${value}|${zeroRateFlag}`;
export function parseRateKey(key: string): { value: string; zeroRateFlag: string } {
  const [value = '', zeroRateFlag = ''] = key.split('|');
  return { value, zeroRateFlag };
}
