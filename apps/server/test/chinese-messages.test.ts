import { CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { badCases, bodyText, type Case, queryText, rootBodies } from './bad-inputs.ts';
import { buildTestApp, demoIds, login } from './helper.ts';

/**
 * Bad input gets a clear Chinese message and changes nothing (issue 21 / 11 item 4): every API
 * route of the route table is sent bad bodies and query strings generated from its own zod schemas
 * (test/bad-inputs.ts: each field missing, null, of the wrong type, over/under its bounds, huge,
 * NaN/Infinity/negative/fractional, outside its enum, deeply nested), as a signed-in administrator
 * and, on store routes, a clerk of one store. None may answer 5xx; every validation answer (10001)
 * is Chinese with no zod English ("Invalid input: expected number, received NaN"); and no table
 * changes across a route's whole batch of bad requests.
 */
const ENGLISH = /\b(Invalid|expected|received|Too (small|big)|Required|must|input|option)\b/i;
const HAN = /[\u4e00-\u9fff]/;
/** how a message names a field the shared label map (FIELD_LABELS) has no Chinese name for */
const UNNAMED = /字段“/;
/** generated cases per field: the first kinds of badValues (missing, null, bounds, wrong type …) */
const CAP_PER_FIELD = 12;

/** Whether a zod schema refuses the value (no schema: nothing to refuse). */
const refuses = (schema: unknown, value: unknown) =>
  Boolean(schema) &&
  !(schema as { safeParse: (v: unknown) => { success: boolean } }).safeParse(value).success;

/** The query object Fastify hands the validator: repeated keys become lists. */
function parseQuery(url: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(url.split('?')[1])) {
    const had = out[k];
    out[k] = had === undefined ? v : [had, v].flat();
  }
  return out;
}

/**
 * Routes that write on every call, whatever its input, with the tables they write: left out of
 * that route's own snapshot only (every other table still has to stay unchanged):
 * - the picture code: each call makes a new captcha;
 * - the QR log-in page's code: each call opens a new QR log-in;
 * - log-out: it ends the session (the route takes no input);
 * - the scan page's title search: the public rate limit counts every call, refused ones included;
 * - the device check: it opens the real-name session of a device whose bureau log-in lapsed;
 * - closing the tax-rate tip: its body is any object (nothing in it is read), the call closes the tip.
 */
const WRITES_ON_ANY_CALL: Record<string, string[]> = {
  'GET /v3/user/picture-code': ['captchas'],
  'GET /v3/user/qr-code': ['qr_logins'],
  'GET /v3/user/logout': ['sessions'],
  'POST /v3/user/logout': ['sessions'],
  'GET /v3/scan/title-search': ['rate_counters'],
  'GET /v3/equipment/check-tax': ['realname_sessions'],
  'POST /v3/system/clone-tax-rate-tips': ['home_prompt_states'],
};

/** Routes that end the session whatever their input (the walk's own would be gone after them). */
const ENDS_SESSION = new Set(['GET /v3/user/logout', 'POST /v3/user/logout']);

type Actor = { name: string; token: string; query: string };

describe('Chinese messages and nothing written for every bad request', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Actor;
  let adminStore: Actor;
  let clerk: Actor;
  let tables: string[];
  /** sessions for the routes that end theirs, signed in before the walk (sign-in writes) */
  const spare: string[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    const adminToken = await login(t.app, 'kaipiao_admin');
    const clerkToken = await login(t.app, 'kaipiao_clerk');
    for (let i = 0; i < 30; i++) spare.push(await login(t.app, 'kaipiao_admin'));
    const ids = await demoIds(t.app, adminToken);
    // the clerk's own store (a clerk sees only the stores of its scope)
    const own = await t.db.execute(
      sql.raw(
        `select s.store_id as id from employee_scopes s join employees e on e.id = s.employee_id
           join users u on u.id = e.user_id where u.account = 'kaipiao_clerk' and s.store_id is not null`,
      ),
    );
    const sid = (own.rows[0] as { id: number }).id;
    admin = { name: 'admin', token: adminToken, query: `client_id=${ids.software}&sid=-1` };
    adminStore = { name: 'admin', token: adminToken, query: `client_id=${ids.software}&sid=${sid}` };
    clerk = { name: 'clerk', token: clerkToken, query: `client_id=${ids.software}&sid=${sid}` };
    const r = await t.db.execute(
      sql.raw(
        `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
      ),
    );
    tables = (r.rows as { name: string }[]).map((x) => x.name);
  });

  /** Row count and md5 of the rows of every table (one statement). */
  async function snapshot(): Promise<Map<string, string>> {
    const r = await t.db.execute(
      sql.raw(
        tables
          .map(
            (n) =>
              `select '${n}' as t, count(*)::int || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${n}" x`,
          )
          .join(' union all '),
      ),
    );
    return new Map((r.rows as { t: string; h: string }[]).map((x) => [x.t, x.h]));
  }

  it('walks every API route with bad input generated from its schemas', async () => {
    // every API route but the device-authorisation WebSocket (/ws), which takes no body or query
    const routes = t.app.routeTable.filter(
      (r) => (r.method === 'GET' || r.method === 'POST') && r.url.startsWith('/v3/'),
    );
    expect(routes.length).toBeGreaterThan(140);
    const problems: string[] = [];
    let requests = 0;
    let validations = 0;
    let refusedBySchema = 0;
    const started = Date.now();
    for (const r of routes) {
      const actors = r.scope === 'store' ? [adminStore, clerk] : [admin];
      const body = r.schema?.body;
      const query = r.schema?.querystring;
      // bodies: the schema's fields one by one, then whole bodies of the wrong type
      const bodies: Case[] =
        r.method === 'POST'
          ? [
              ...(body ? badCases(body, CAP_PER_FIELD) : []),
              ...rootBodies(body).map((b) => ({ field: '(body)', ...b })),
            ]
          : [];
      // query strings: the same, as text; a route without a query schema gets stray parameters
      const queries: Case[] = query
        ? badCases(query, CAP_PER_FIELD)
        : r.method === 'GET'
          ? [{ field: '(query)', kind: 'stray', value: { page: 'x', id: 'NaN', ids: ['1', 'x'] } }]
          : [];
      // a route that ends the session gets a session of its own for each request
      const fresh =
        ENDS_SESSION.has(`${r.method} ${r.url}`) && spare.splice(0, bodies.length + queries.length);
      if (fresh && fresh.length < bodies.length + queries.length)
        throw new Error('sign in more spare sessions');
      const before = await snapshot();
      for (const a of actors) {
        const sends = [
          ...bodies.map((c) => {
            const payload = c.raw ?? bodyText(c.value);
            // a body the parser refuses (empty or truncated JSON, too large, an unknown type)
            // never reaches the schema; text/plain reaches it as a string
            const refused =
              c.raw === undefined
                ? refuses(body, JSON.parse(payload))
                : c.type === 'text/plain'
                  ? refuses(body, c.raw)
                  : true;
            return { c, url: `${r.url}?${a.query}`, payload, refused };
          }),
          ...queries.map((c) => {
            const url = `${r.url}?${a.query}&${queryText(c.value)}`;
            return {
              c,
              url,
              payload: undefined as string | undefined,
              refused: refuses(query, parseQuery(url)),
            };
          }),
        ];
        for (const [i, s] of sends.entries()) {
          requests++;
          if (s.refused) refusedBySchema++;
          const res = await t.app.inject({
            method: r.method as 'GET' | 'POST',
            url: s.url,
            // a query case of a POST (the upload's) goes without a body, as a browser's would
            headers: {
              'access-token': fresh ? fresh[i]! : a.token,
              ...(s.payload === undefined ? {} : { 'content-type': s.c.type ?? 'application/json' }),
            },
            payload: s.payload,
          });
          const what = `${r.method} ${r.url} [${a.name}] ${s.c.field}: ${s.c.kind}`;
          if (res.statusCode >= 500) {
            problems.push(`${what}: HTTP ${res.statusCode}`);
            continue;
          }
          if (!String(res.headers['content-type'] ?? '').includes('json')) continue;
          const json = res.json() as {
            code: number;
            message: string;
            data: { errors?: { message: string }[] };
          };
          // what the route's own schema refuses never gets past validation
          if (s.refused && json.code !== CODE.VALIDATION) {
            problems.push(`${what}: refused by the schema, answered ${json.code} ${json.message}`);
          }
          if (json.code === 0) continue;
          if (json.code === CODE.VALIDATION) validations++;
          // every refusal a user reads is Chinese: validation answers with each field's message
          const messages = [json.message, ...(json.data?.errors ?? []).map((e) => e.message)];
          for (const m of messages) {
            if (!HAN.test(m) || ENGLISH.test(m)) problems.push(`${what}: ${json.code} “${m}”`);
            // a console field is named in Chinese (the sandbox controls have no form)
            else if (UNNAMED.test(m) && !r.url.startsWith('/v3/dev/'))
              problems.push(`${what}: no Chinese name for the field in “${m}”`);
          }
        }
      }
      const after = await snapshot();
      const own = WRITES_ON_ANY_CALL[`${r.method} ${r.url}`] ?? [];
      const changed = [...before].filter(([n, h]) => after.get(n) !== h && !own.includes(n)).map(([n]) => n);
      if (changed.length) problems.push(`${r.method} ${r.url}: bad input wrote to ${changed.join(', ')}`);
    }
    console.info(
      `walked ${routes.length} routes, ${requests} requests (${refusedBySchema} refused by the route's schema), ${validations} answered 10001, ${Date.now() - started} ms`,
    );
    if (problems.length) console.info(problems.join('\n'));
    // the walk must really reach the validators, not stop at permissions
    expect(validations).toBeGreaterThan(requests / 2);
    expect(problems).toEqual([]);
  }, 300_000);

  it('names the field in Chinese where the message does not, and keeps the spec’s messages', async () => {
    const message = async (url: string, body: unknown) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `${url}?${adminStore.query}`,
          headers: { 'access-token': admin.token, 'content-type': 'application/json' },
          payload: body as object,
        })
      ).json() as { code: number; message: string; data: { errors: { field: string; message: string }[] } };
    // a schema's own words that do not name the field get its name from the label map …
    const dated = await message('/v3/invoice-record/list', { date_from: '2024/01/01' });
    expect(dated.code).toBe(CODE.VALIDATION);
    expect(dated.message).toBe('开始日期：日期格式须为YYYY-MM-DD');
    // … while the field's own error keeps them (the form shows it at the field)
    expect(dated.data.errors[0]).toEqual({ field: 'date_from', message: '日期格式须为YYYY-MM-DD' });
    // words that name the field already stay as they are (text('门店名称'))
    const store = await message('/v3/client-store/save', { name: '门'.repeat(51), code: 'A1' });
    expect(store.message).toBe('门店名称最多50个字');
    // zod's words, when a schema gives none, name the field (packages/shared zod-zh.ts)
    const device = await message('/v3/invoice-manage/apply', {
      device_id: 'x',
      invoice_type: '004',
      count: 1,
    });
    expect(device.message).toBe('开票设备须为数字');
    // the spec's own messages (spec §5) are never changed
    const login = await message('/v3/user/account-login', {
      account: 'kaipiao_admin',
      password: 'x'.repeat(16),
      picture_code: '12',
      unique_code: 'u',
    });
    expect(login.message).toBe('请输入4位验证码');
  });
});
