import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helper.ts';
import type { IssuedFacts } from './hooks.ts';

describe('invoice-issued hooks belong to their app instance', () => {
  it('a hook registered on one app runs for that app only; each app drains its own', async () => {
    const a = await buildTestApp({ seed: false });
    const b = await buildTestApp({ seed: false, reuse: a });
    expect(a.app.invoiceHooks).not.toBe(b.app.invoiceHooks);
    const seen: Array<[string, number]> = [];
    const onA = async (_app: unknown, id: number, _f: IssuedFacts) => {
      seen.push(['a', id]);
    };
    a.app.invoiceHooks.add(onA);
    try {
      b.app.invoiceHooks.run(b.app, 2, { sendEmail: false });
      await b.app.invoiceHooks.drain();
      expect(seen).toEqual([]);
      a.app.invoiceHooks.run(a.app, 1, { sendEmail: false });
      await a.app.invoiceHooks.drain();
      expect(seen).toEqual([['a', 1]]);
      // a failing hook is logged, never thrown at the issuing path
      a.app.invoiceHooks.add(async () => {
        throw new Error('hook broke');
      });
      expect(() => a.app.invoiceHooks.run(a.app, 3, { sendEmail: false })).not.toThrow();
      await a.app.invoiceHooks.drain();
      expect(seen).toEqual([
        ['a', 1],
        ['a', 3],
      ]);
    } finally {
      a.app.invoiceHooks.delete(onA);
    }
  });
});
