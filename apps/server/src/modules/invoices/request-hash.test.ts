import { createHash } from 'node:crypto';
import type { BlueInvoiceRequest } from '@kaipiao/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payload } from '../../../test/fixtures/invoices.ts';
import { requestHash } from './repo.ts';

/** The canonical form every stored request_hash was made with (the first implementation). */
function referenceCanonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(referenceCanonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${referenceCanonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

const referenceHash = (req: Record<string, unknown>) => {
  const { send_email: _ignored, ...rest } = req;
  return createHash('sha256').update(referenceCanonical(rest)).digest('hex');
};

describe('requestHash', () => {
  it('equals the hash stored by earlier versions, for any JSON-like payload', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.constant(undefined),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 5 }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), json.value, { maxKeys: 8 }), (req) => {
        expect(requestHash(req as unknown as BlueInvoiceRequest)).toBe(referenceHash(req));
      }),
      { numRuns: 500 },
    );
  });

  it('ignores key order and send_email, and sees every other change', () => {
    const body = payload(1) as unknown as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect(requestHash(reordered as unknown as BlueInvoiceRequest)).toBe(
      requestHash(body as unknown as BlueInvoiceRequest),
    );
    expect(requestHash({ ...body, send_email: !body.send_email } as unknown as BlueInvoiceRequest)).toBe(
      requestHash(body as unknown as BlueInvoiceRequest),
    );
    expect(requestHash({ ...body, remark: 'x' } as unknown as BlueInvoiceRequest)).not.toBe(
      requestHash(body as unknown as BlueInvoiceRequest),
    );
    expect(requestHash(body as unknown as BlueInvoiceRequest)).toBe(referenceHash(body));
  });
});

describe('requestHash shape cache', () => {
  it('tells apart objects whose keys join to the same text', () => {
    const a = { 'a\u0000b': 1, c: 2 } as unknown as Record<string, unknown>;
    const b = { a: 1, 'b\u0000c': 2 } as unknown as Record<string, unknown>;
    for (const req of [a, b, a, b]) {
      expect(requestHash(req as unknown as BlueInvoiceRequest)).toBe(referenceHash(req));
    }
  });
});

describe('requestHash key caches', () => {
  it('a key holding the separator never lends its cached key list to another shape', () => {
    // {"x\u0000y"} and {x, y} join their keys to the same text: each must still hash as itself
    const joined = { 'x\u0000y': 1 } as unknown as BlueInvoiceRequest;
    const split = { x: 1, y: 2 } as unknown as BlueInvoiceRequest;
    const also = { y: 2, x: 1, z: 3 } as unknown as BlueInvoiceRequest;
    const other = { x: 1, z: 3 } as unknown as BlueInvoiceRequest;
    for (const req of [joined, split, joined, split, also, other, also]) {
      expect(requestHash(req)).toBe(referenceHash(req as unknown as Record<string, unknown>));
    }
  });
});
