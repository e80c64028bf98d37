import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelopeOf } from './common.ts';

describe('envelopeOf (architecture.md §3)', () => {
  it('wraps data in { code, message, data } and checks all three', () => {
    const schema = envelopeOf(z.object({ id: z.number() }));
    expect(schema.parse({ code: 0, message: 'ok', data: { id: 1 } })).toEqual({
      code: 0,
      message: 'ok',
      data: { id: 1 },
    });
    expect(schema.safeParse({ code: 0, message: 'ok', data: { id: 'x' } }).success).toBe(false);
    expect(schema.safeParse({ message: 'ok', data: { id: 1 } }).success).toBe(false);
    expect(schema.safeParse({ code: 0, data: { id: 1 } }).success).toBe(false);
  });
});
