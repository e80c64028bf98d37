// The goods form's rate select: one option per rate and zero-rate flag. The form's field checks
// are the shared goods schema's (zodRules in goods-form-modal.tsx).

/** A rate option is identified by rate and zero-rate flag (0% 免税 and 0% 不征税 differ). */
export const rateKey = (value: string, zeroRateFlag: string) => `${value}|${zeroRateFlag}`;
export function parseRateKey(key: string): { value: string; zeroRateFlag: string } {
  const [value = '', zeroRateFlag = ''] = key.split('|');
  return { value, zeroRateFlag };
}
