// spec §5 shared patterns. Kept as RegExp so both zod (server) and antd rules (web) use them.
export const PATTERNS = {
  // 8-20 characters, not all digits
  account: /^(?!\d+$)[\s\S]{8,20}$/,
  // 8-15 characters, not all digits
  accountName: /^(?!\d+$)[\s\S]{8,15}$/,
  email: /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/,
  // 8-18 characters with at least two of digits, lowercase, uppercase, symbols
  password: /^(?![0-9]+$)(?![a-z]+$)(?![A-Z]+$)(?![^0-9A-Za-z]+$)[\x21-\x7e]{8,18}$/,
  mobile: /^1\d{10}$/,
  landline: /^(\d{3,4}-?)?\d{7,8}(-\d{2,8})?$/,
  taxCode: /^([0-9A-Z]{15}|[0-9A-Z]{18}|[0-9A-Z]{20})$/,
  bankAccount: /^\d{1,30}$/,
  enterprisePhone: /^\d[\d-]{5,18}\d$/,
  identityCard: /^[1-9]\d{5}(18|19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{3}[\dX]$/,
  smsCode: /^\d{6}$/,
  pictureCode: /^[0-9A-Za-z]{4}$/,
} as const;

// Weak = valid but only two character classes and no symbol, or a run of a repeated char.
export function isWeakPassword(password: string): boolean {
  const classes = [/[0-9]/, /[a-z]/, /[A-Z]/, /[^0-9A-Za-z]/].filter((re) => re.test(password)).length;
  return classes < 3 || /(.)\1{3,}/.test(password);
}

// spec §5 phone masking: first 3 and last 4 shown (176****2696), the one masking of every phone the
// console shows or logs: the real-name dialog (spec §2 "characters 4 to 7 as stars", the same on an
// 11-digit number), user info, tax accounts, the SMS gateway's log lines.
export function maskPhone(mobile: string): string {
  // Stryker disable next-line EqualityOperator: a 7-character number has no middle to mask: the same string either way
  if (mobile.length < 7) return mobile;
  return `${mobile.slice(0, 3)}${'*'.repeat(mobile.length - 7)}${mobile.slice(-4)}`;
}
