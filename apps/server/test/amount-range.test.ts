import { AMOUNT_RANGE_INVERTED, CODE } from '@kaipiao/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO, demoIds, login } from './helper.ts';

/**
 * Issue 24 item 8: 价税合计 from above to matched nothing, silently. The shared filter schema
 * (invoiceFilterSchema) refuses it with a Chinese message under amount_max, in the library list
 * and in an export of what the filters match; an equal or open-ended range is still a range.
 */
describe('the library’s 价税合计 range', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: string;
  let client: number;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await login(t.app, DEMO.admin.account);
    client = (await demoIds(t.app, admin)).software;
  });

  const post = (route: string, body: unknown) =>
    call(t.app, 'POST', `/v3/${route}?client_id=${client}&sid=-1`, { token: admin, body });

  it('refuses a minimum above the maximum, in the list and the export, with a Chinese message', async () => {
    const inverted = { amount_min: '500.00', amount_max: '100' };
    for (const res of [
      await post('invoice-record/list', inverted),
      await post('invoice-export/create', { kind: 'excel', filters: inverted }),
    ]) {
      expect(res.json.code).toBe(CODE.VALIDATION);
      expect(res.json.data.errors).toContainEqual(
        expect.objectContaining({ message: AMOUNT_RANGE_INVERTED }),
      );
      expect(res.json.message).toMatch(/[\u4e00-\u9fff]/);
    }
    // decimals compared as decimals: 100.10 > 100.09
    expect(
      (await post('invoice-record/list', { amount_min: '100.10', amount_max: '100.09' })).json.code,
    ).toBe(CODE.VALIDATION);
  });

  it('takes an equal, an open-ended and a signed range', async () => {
    for (const body of [
      { amount_min: '100', amount_max: '100.00' },
      { amount_min: '500' },
      { amount_max: '-1' },
      { amount_min: '-200', amount_max: '-100' },
    ]) {
      expect((await post('invoice-record/list', body)).json.code, JSON.stringify(body)).toBe(0);
    }
  });
});
