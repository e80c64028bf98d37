import { CODE } from '@kaipiao/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, demoIds, login } from './helper.ts';

/**
 * Bad input gets a clear Chinese message (issue 21 / 11): every API route of the route table is sent
 * malformed requests — wrong types, an array for the body, numbers as text, NaN, huge strings — as a
 * signed-in administrator. None may answer 5xx, and every validation answer (10001) must be Chinese:
 * no zod English ("Invalid input: expected number, received NaN") reaches a user.
 */
const ENGLISH = /\b(Invalid|expected|received|Too (small|big)|Required|must)\b/;
const HAN = /[\u4e00-\u9fff]/;

describe('Chinese messages for every malformed request', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let token: string;
  let scope: string;

  beforeAll(async () => {
    t = await buildTestApp();
    token = await login(t.app, 'kaipiao_admin');
    const ids = await demoIds(t.app, token);
    scope = `client_id=${ids.software}&sid=-1`;
  });

  const BODIES: unknown[] = [
    [],
    [{ id: 1 }],
    { page: 'x', page_size: 'NaN', id: 'abc', invoice_id: -1, device_id: 1.5, store_ids: 'x' },
    { name: 'x'.repeat(5000), kind: 42, ids: [null], form_id: {}, batch_id: true },
    'just a string',
  ];
  const QUERIES = [
    'page=x&page_size=NaN&id=abc',
    'invoice_id=1e309&device_id=-3&batch_id=%20',
    `id=${'9'.repeat(40)}`,
  ];

  it('walks every API route: no 5xx, and every 10001 answer is Chinese', async () => {
    const routes = t.app.routeTable.filter(
      (r) => (r.method === 'GET' || r.method === 'POST') && r.url.startsWith('/v3/') && !r.url.includes(':'),
    );
    expect(routes.length).toBeGreaterThan(100);
    const problems: string[] = [];
    let validations = 0;
    for (const r of routes) {
      const sends =
        r.method === 'POST'
          ? BODIES.map((b) => ({ url: `${r.url}?${scope}`, payload: JSON.stringify(b) }))
          : QUERIES.map((q) => ({ url: `${r.url}?${scope}&${q}`, payload: undefined }));
      for (const s of sends) {
        const res = await t.app.inject({
          method: r.method as 'GET' | 'POST',
          url: s.url,
          headers: { 'access-token': token, 'content-type': 'application/json' },
          payload: s.payload,
        });
        if (res.statusCode >= 500) {
          problems.push(`${r.method} ${s.url}: HTTP ${res.statusCode}`);
          continue;
        }
        const type = String(res.headers['content-type'] ?? '');
        if (!type.includes('json')) continue;
        const json = res.json() as {
          code: number;
          message: string;
          data: { errors?: { message: string }[] };
        };
        if (json.code !== CODE.VALIDATION) continue;
        validations++;
        const messages = [json.message, ...(json.data?.errors ?? []).map((e) => e.message)];
        for (const m of messages) {
          if (!HAN.test(m) || ENGLISH.test(m)) problems.push(`${r.method} ${r.url}: “${m}”`);
        }
      }
    }
    // the walk must really reach the validators, not stop at permissions
    expect(validations).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  }, 180_000);
});
