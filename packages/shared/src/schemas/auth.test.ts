import { describe, expect, it } from 'vitest';
import { checkSecureIdBodySchema } from './auth.ts';

describe('checkSecureIdBodySchema (spec §4 login routing)', () => {
  it('takes a token or a ticket, exactly one of them', () => {
    expect(checkSecureIdBodySchema.safeParse({ token: 't0k3n' }).success).toBe(true);
    expect(checkSecureIdBodySchema.safeParse({ ticket: 't1ck3t', app_id: '1003' }).success).toBe(true);
    for (const body of [{}, { token: '', ticket: '' }, { token: 't0k3n', ticket: 't1ck3t' }]) {
      const r = checkSecureIdBodySchema.safeParse(body);
      expect(r.error?.issues.map((i) => i.message)).toEqual(['缺少登录凭证']);
    }
  });
});
