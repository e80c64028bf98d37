import { TITLE_MSG, taxCodeProblem } from '@kaipiao/shared/schemas/titles';
import { PATTERNS } from '@kaipiao/shared/validation/patterns';
import type { FormInstance, FormRule } from 'antd';

// antd rules for the title form: spec §5 patterns and the same messages the server sends.
const optionalPattern = (pattern: RegExp, message: string): FormRule => ({
  validator: (_r, value: string | undefined) =>
    !value?.trim() || pattern.test(value.trim()) ? Promise.resolve() : Promise.reject(new Error(message)),
});

export const TITLE_RULES = {
  title_type: [{ required: true, message: TITLE_MSG.TYPE_REQUIRED }],
  name: [
    { required: true, whitespace: true, message: TITLE_MSG.NAME_REQUIRED },
    { max: 100, message: TITLE_MSG.NAME_MAX },
  ],
  address: [{ max: 100, message: TITLE_MSG.ADDRESS_MAX }],
  phone: [optionalPattern(PATTERNS.enterprisePhone, TITLE_MSG.PHONE_FORMAT)],
  bank_name: [{ max: 60, message: TITLE_MSG.BANK_NAME_MAX }],
  bank_account: [optionalPattern(PATTERNS.bankAccount, TITLE_MSG.BANK_ACCOUNT_FORMAT)],
  email: [optionalPattern(PATTERNS.email, TITLE_MSG.EMAIL_FORMAT)],
  mobile: [optionalPattern(PATTERNS.mobile, TITLE_MSG.MOBILE_FORMAT)],
} satisfies Record<string, FormRule[]>;

/** Tax code: required for enterprises (title_type 2); pattern + USCC checksum when given. */
export const taxCodeRules = (form: FormInstance): FormRule[] => [
  {
    validator: (_r, value: string | undefined) => {
      const v = (value ?? '').trim().toUpperCase();
      if (!v) {
        return form.getFieldValue('title_type') === 2
          ? Promise.reject(new Error(TITLE_MSG.TAX_CODE_REQUIRED))
          : Promise.resolve();
      }
      const problem = taxCodeProblem(v);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  },
];
