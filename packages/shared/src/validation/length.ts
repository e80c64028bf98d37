// spec §5 length rule: non-Latin characters count 2, whitespace trimmed.
export function displayLength(value: string): number {
  let n = 0;
  for (const ch of value.trim()) n += (ch.codePointAt(0) ?? 0) <= 0xff ? 1 : 2;
  return n;
}

export type LengthRule = { required?: boolean; min?: number; max?: number };

export function checkLength(
  value: string | undefined | null,
  rule: LengthRule,
): 'required' | 'min' | 'max' | null {
  const v = (value ?? '').trim();
  if (!v) return rule.required ? 'required' : null;
  const n = displayLength(v);
  // Stryker disable next-line ConditionalExpression: without a min, n < undefined is false anyway
  if (rule.min !== undefined && n < rule.min) return 'min';
  // Stryker disable next-line ConditionalExpression: without a max, n > undefined is false anyway
  if (rule.max !== undefined && n > rule.max) return 'max';
  return null;
}
