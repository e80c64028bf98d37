import { randomBytes, scryptSync } from 'node:crypto';
import { AUTH_CODE, CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountLogin, loginBody } from '../../../test/auth-helpers.ts';
import { testClock } from '../../../test/clock.ts';
import { buildTestApp, call, DEMO, encryptPassword, login, pictureCode } from '../../../test/helper.ts';
import { raceBehindLock } from '../../../test/race.ts';
import { loginAttempts, sessions, users } from '../../db/schema/index.ts';
import { hashPassword, passwordCost, passwordNeedsRehash, sha256, verifyPassword } from '../../lib/crypto.ts';
import { LOCK_AFTER_FAILURES } from './repo.ts';
import { LOGIN_IP_LIMIT } from './service.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
// the per-IP limit counts in fixed 15-minute windows: its tests stand the clock still inside one
const clock = testClock();
const WINDOW_START = '2026-06-01T08:00:00Z';
beforeAll(async () => {
  // behind a trusted proxy at 127.0.0.1, as deployed: X-Forwarded-For names the client
  // a pool of 12: the race below holds 8 requests in PostgreSQL at once
  t = await buildTestApp({ env: { KAIPIAO_TRUST_PROXY: '127.0.0.1' }, clock, poolMax: 12 });
});
afterEach(() => clock.release());

const attempts = async (account: string) =>
  (await t.db.select().from(loginAttempts).where(eq(loginAttempts.account, account)))[0];

describe('POST /v3/user/account-login', () => {
  it('signs the clerk in with a token and her user info when everything is right', async () => {
    const res = await accountLogin(t.app, DEMO.clerk.account);
    expect(res.json).toMatchObject({ code: 0, message: '登录成功' });
    expect(res.json.data).toMatchObject({ expires_in: 7200, user: { account: 'kaipiao_clerk', source: '' } });
    const stored = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(res.json.data.token)));
    expect(stored).toHaveLength(1);
  });

  it('refuses a wrong password with 11002', async () => {
    const res = await accountLogin(t.app, DEMO.clerk.account, 'Wrong@2026');
    expect(res.json).toEqual({ code: AUTH_CODE.BAD_CREDENTIALS, message: '账号或密码错误', data: null });
  });

  it('answers an unknown account exactly like a wrong password', async () => {
    const unknown = await accountLogin(t.app, 'nobody_here_2026', DEMO.password);
    const wrong = await accountLogin(t.app, DEMO.clerk.account, 'Wrong@2026');
    expect(unknown.json).toEqual(wrong.json);
  });

  it('locks the account after 5 failures in a row and then refuses the right password too', async () => {
    const account = DEMO.admin.account;
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await accountLogin(t.app, account, `Wrong@${i}x`)).json.code);
    expect(codes).toEqual([...Array(4).fill(AUTH_CODE.BAD_CREDENTIALS), AUTH_CODE.ACCOUNT_LOCKED]);
    const right = await accountLogin(t.app, account, DEMO.password);
    expect(right.json.code).toBe(AUTH_CODE.ACCOUNT_LOCKED);
    expect((await attempts(account))!.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
  });

  it('lets the account try again from scratch when the lock has run out', async () => {
    const account = DEMO.admin.account;
    await t.db
      .update(loginAttempts)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(loginAttempts.account, account));
    const slip = await accountLogin(t.app, account, 'Wrong@2026');
    expect(slip.json.code).toBe(AUTH_CODE.BAD_CREDENTIALS);
    expect(await attempts(account)).toMatchObject({ failures: 1, lockedUntil: null });
  });

  it(`refuses an IP with 10029 after ${LOGIN_IP_LIMIT.failures} failed logins in its 15 minutes, whatever the account`, async () => {
    clock.set(WINDOW_START);
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    const password = await encryptPassword(t.app, 'Wrong@2026');
    for (let i = 0; i < LOGIN_IP_LIMIT.failures; i++) {
      const body = {
        account: `guess_${i}`,
        password,
        picture_code: '1234',
        unique_code: await pictureCode(t.app),
      };
      const res = await call(t.app, 'POST', '/v3/user/account-login', { body, headers });
      expect(res.json.code).toBe(AUTH_CODE.BAD_CREDENTIALS);
    }
    clock.set('2026-06-01T08:14:59.999Z'); // the window's last millisecond
    const body = await loginBody(t.app, DEMO.clerk.account);
    const limited = await call(t.app, 'POST', '/v3/user/account-login', { body, headers });
    expect(limited.json).toMatchObject({ code: CODE.RATE_LIMITED, data: null });
    const elsewhere = await call(t.app, 'POST', '/v3/user/account-login', {
      body: await loginBody(t.app, DEMO.clerk.account),
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    expect(elsewhere.json.code).toBe(0);
    clock.advance(1); // 08:15: the next window lets the address try again
    const next = await call(t.app, 'POST', '/v3/user/account-login', {
      body: await loginBody(t.app, DEMO.clerk.account),
      headers,
    });
    expect(next.json.code).toBe(0);
  });

  it('ignores X-Forwarded-For when no proxy is trusted, so a spoofed header cannot dodge the limit', async () => {
    clock.set(WINDOW_START);
    // own database: this test uses up 127.0.0.1's allowance
    const direct = await buildTestApp({ clock });
    const password = await encryptPassword(direct.app, 'Wrong@2026');
    for (let i = 0; i < LOGIN_IP_LIMIT.failures; i++) {
      const body = {
        account: `spoof_${i}`,
        password,
        picture_code: '1234',
        unique_code: await pictureCode(direct.app),
      };
      const headers = { 'x-forwarded-for': `198.51.100.${i}` };
      await call(direct.app, 'POST', '/v3/user/account-login', { body, headers });
    }
    const body = await loginBody(direct.app, DEMO.clerk.account);
    const res = await call(direct.app, 'POST', '/v3/user/account-login', {
      body,
      headers: { 'x-forwarded-for': '198.51.100.250' },
    });
    expect(res.json.code).toBe(CODE.RATE_LIMITED);
  });
});

/** `n` login bodies prepared beforehand (own picture code each), so the requests really overlap. */
async function bodies(n: number, body: (i: number) => { account: string; password: string }) {
  await encryptPassword(t.app, 'warm-up'); // the server's key pair exists before the parallel calls
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const b = body(i);
      return {
        account: b.account,
        password: await encryptPassword(t.app, b.password),
        picture_code: '1234',
        unique_code: await pictureCode(t.app),
      };
    }),
  );
}
const burst = (prepared: object[], ip: string) =>
  Promise.all(
    prepared.map((body) =>
      call(t.app, 'POST', '/v3/user/account-login', { body, headers: { 'x-forwarded-for': ip } }),
    ),
  );

describe('login limits under bursts (issue 21 M1)', () => {
  it('refuses the right password sent with 60 wrong ones in parallel, then locks the account like 60 in a row', {
    timeout: 60_000,
  }, async () => {
    const account = DEMO.clerk.account;
    const wrong = await bodies(60, (i) => ({ account, password: `Wrong@${i}x` }));
    const [right] = await bodies(1, () => ({ account, password: DEMO.password }));
    // every request from an address of its own (a botnet): only the account lock stands in the way.
    // The right password goes last; the requests start in order, so 5 wrong ones reserve the 5
    // attempts first (the old code let all 61 reach scrypt and signed this one in).
    const all = [...wrong, right!];
    const codes = (
      await Promise.all(
        all.map((body, i) =>
          call(t.app, 'POST', '/v3/user/account-login', {
            body,
            headers: { 'x-forwarded-for': `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}` },
          }),
        ),
      )
    ).map((r) => r.json.code);
    expect(codes).not.toContain(0);
    expect(codes.at(-1)).toBe(AUTH_CODE.ACCOUNT_LOCKED);
    // exactly 5 passwords were checked (reserved before scrypt); every other guess was refused unseen
    expect(codes.filter((c) => c === AUTH_CODE.BAD_CREDENTIALS)).toHaveLength(4);
    expect(await attempts(account)).toMatchObject({ failures: 5 });
    const after = await call(t.app, 'POST', '/v3/user/account-login', {
      body: await loginBody(t.app, account),
      headers: { 'x-forwarded-for': '203.0.113.60' },
    });
    expect(after.json).toEqual({
      code: AUTH_CODE.ACCOUNT_LOCKED,
      message: '密码错误次数过多，账号已锁定15分钟，请稍后再试',
      data: null,
    });
    await t.db.delete(loginAttempts).where(eq(loginAttempts.account, account));
  });

  it('reserves attempts one statement at a time: 8 guesses let go together behind a held lock get 5 checks', async () => {
    const account = 'racing_guesser';
    // the name's row exists (no failure yet) so the test can hold it; every guess queues at its
    // reservation, after decrypting and counting its IP, and all are released at once
    await t.db.insert(loginAttempts).values({ account, failures: 0 });
    const prepared = await bodies(8, (i) => ({ account, password: `Wrong@${i}r` }));
    const results = await raceBehindLock({
      url: t.url,
      lock: 'select account from login_attempts where account = $1 for update',
      params: [account],
      calls: prepared.map(
        (body, i) => () =>
          call(t.app, 'POST', '/v3/user/account-login', {
            body,
            headers: { 'x-forwarded-for': `198.19.7.${i + 1}` },
          }),
      ),
    });
    const codes = results.map((r) => r.json.code);
    expect(codes.filter((c) => c === AUTH_CODE.BAD_CREDENTIALS)).toHaveLength(LOCK_AFTER_FAILURES - 1);
    expect(codes.filter((c) => c === AUTH_CODE.ACCOUNT_LOCKED)).toHaveLength(8 - (LOCK_AFTER_FAILURES - 1));
    // exactly 5 reserved (and so 5 passwords checked): the other 3 found the name locked
    const row = await attempts(account);
    expect(row?.failures).toBe(LOCK_AFTER_FAILURES);
    expect(row?.lockedUntil).not.toBeNull();
  });

  it('lets the right password in among 4 wrong ones sent together, and leaves the account open', async () => {
    const account = DEMO.clerk.account;
    const prepared = await bodies(5, (i) => ({ account, password: i === 2 ? DEMO.password : `Wrong@${i}y` }));
    const codes = (await burst(prepared, '203.0.113.61')).map((r) => r.json.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect((await accountLogin(t.app, account)).json.code).toBe(0);
  });

  it(`refuses an IP after ${LOGIN_IP_LIMIT.failures} failures sent in parallel across accounts, and checks no more passwords than that`, {
    timeout: 60_000,
  }, async () => {
    clock.set(WINDOW_START);
    const ip = '203.0.113.62';
    const sprayed = await bodies(LOGIN_IP_LIMIT.failures + 10, (i) => ({
      account: `spray_${i}`,
      password: 'Wrong@2026',
    }));
    const codes = (await burst(sprayed, ip)).map((r) => r.json.code);
    expect(codes.filter((c) => c === AUTH_CODE.BAD_CREDENTIALS)).toHaveLength(LOGIN_IP_LIMIT.failures);
    expect(codes.filter((c) => c === CODE.RATE_LIMITED)).toHaveLength(10);
    const right = await call(t.app, 'POST', '/v3/user/account-login', {
      body: await loginBody(t.app, DEMO.clerk.account),
      headers: { 'x-forwarded-for': ip },
    });
    expect(right.json.code).toBe(CODE.RATE_LIMITED);
  });

  it('keeps the IP limit softer than the account lock: one office IP with a locked account still signs the others in', async () => {
    clock.set(WINDOW_START); // all in one window, or the allowance could renew halfway
    const ip = '203.0.113.63';
    const locked = 'office_typo_user';
    for (let i = 0; i < 5; i++) {
      await call(t.app, 'POST', '/v3/user/account-login', {
        body: await loginBody(t.app, locked, `Wrong@${i}z`),
        headers: { 'x-forwarded-for': ip },
      });
    }
    // the locked account keeps trying: refused unchecked, which does not use up the office's allowance
    for (let i = 0; i < LOGIN_IP_LIMIT.failures; i++) {
      const again = await call(t.app, 'POST', '/v3/user/account-login', {
        body: await loginBody(t.app, locked, 'Wrong@again'),
        headers: { 'x-forwarded-for': ip },
      });
      expect(again.json.code).toBe(AUTH_CODE.ACCOUNT_LOCKED);
    }
    const colleague = await call(t.app, 'POST', '/v3/user/account-login', {
      body: await loginBody(t.app, DEMO.clerk.account),
      headers: { 'x-forwarded-for': ip },
    });
    expect(colleague.json.code).toBe(0);
    expect(LOGIN_IP_LIMIT.failures).toBeGreaterThanOrEqual(10 * LOCK_AFTER_FAILURES);
  });
});

describe('unknown accounts answer like known ones (issue 21 L4)', () => {
  it('locks an unknown name after 5 failures exactly like a known account, with the same answers', async () => {
    const run = async (account: string, ip: string) => {
      const out = [];
      for (let i = 0; i < 6; i++) {
        const res = await call(t.app, 'POST', '/v3/user/account-login', {
          body: await loginBody(t.app, account, `Wrong@${i}w`),
          headers: { 'x-forwarded-for': ip },
        });
        out.push(res.json);
      }
      return out;
    };
    await t.db.delete(loginAttempts).where(eq(loginAttempts.account, DEMO.admin.account));
    const known = await run(DEMO.admin.account, '203.0.113.70');
    const unknown = await run('nobody_like_admin', '203.0.113.71');
    expect(unknown).toEqual(known);
    expect(known.map((j) => j.code)).toEqual([
      ...Array(4).fill(AUTH_CODE.BAD_CREDENTIALS),
      AUTH_CODE.ACCOUNT_LOCKED,
      AUTH_CODE.ACCOUNT_LOCKED,
    ]);
    await t.db.delete(loginAttempts).where(eq(loginAttempts.account, DEMO.admin.account));
  });
});

describe('passwords at rest (issue 21 §7)', () => {
  it('stores scrypt with its cost and a salt of its own per demo user', async () => {
    const rows = await t.db.select().from(users);
    const admin = rows.find((u) => u.account === DEMO.admin.account)!;
    const clerk = rows.find((u) => u.account === DEMO.clerk.account)!;
    const format = /^scrypt\$(\d+)\$8\$1\$([A-Za-z0-9+/=]{24})\$([A-Za-z0-9+/=]{44})$/;
    expect(admin.passwordHash).toMatch(format);
    expect(clerk.passwordHash).toMatch(format);
    expect(admin.passwordHash.split('$')[4]).not.toBe(clerk.passwordHash.split('$')[4]);
  });

  it("uses OWASP's scrypt cost (N=2^17, r=8, p=1) in production and development", async () => {
    expect(passwordCost('production')).toEqual({ logN: 17, r: 8, p: 1 });
    expect(passwordCost('development')).toEqual({ logN: 17, r: 8, p: 1 });
    const stored = await hashPassword('Kaipiao@2026', passwordCost('production'));
    expect(stored).toMatch(/^scrypt\$17\$8\$1\$/);
    expect(await verifyPassword('Kaipiao@2026', stored)).toBe(true);
    expect(passwordNeedsRehash(stored, passwordCost('production'))).toBe(false);
  });

  it('still accepts a hash of the first format (scrypt$salt$hash) and upgrades it on the next login', async () => {
    const salt = randomBytes(16);
    const legacy = `scrypt$${salt.toString('base64')}$${scryptSync(DEMO.password, salt, 32).toString('base64')}`;
    await t.db.update(users).set({ passwordHash: legacy }).where(eq(users.account, DEMO.clerk.account));
    expect((await accountLogin(t.app, DEMO.clerk.account)).json.code).toBe(0);
    const [row] = await t.db.select().from(users).where(eq(users.account, DEMO.clerk.account));
    expect(row!.passwordHash).toMatch(new RegExp(`^scrypt\\$${passwordCost().logN}\\$8\\$1\\$`));
    expect((await accountLogin(t.app, DEMO.clerk.account)).json.code).toBe(0);
  });
});

describe('GET /v3/user/picture-code', () => {
  it('returns a base64 picture and a unique_code', async () => {
    const res = await call(t.app, 'GET', '/v3/user/picture-code');
    expect(res.json.data.picture).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(res.json.data.unique_code).toMatch(/^[\w-]{16,}$/);
  });

  it('refuses a picture code used a second time', async () => {
    const body = await loginBody(t.app, DEMO.clerk.account);
    expect((await call(t.app, 'POST', '/v3/user/account-login', { body })).json.code).toBe(0);
    const again = await call(t.app, 'POST', '/v3/user/account-login', { body });
    expect(again.json.code).toBe(AUTH_CODE.BAD_CAPTCHA);
  });

  it('uses the picture code up when the answer is wrong', async () => {
    const body = await loginBody(t.app, DEMO.clerk.account);
    const wrong = await call(t.app, 'POST', '/v3/user/account-login', {
      body: { ...body, picture_code: 'abcd' },
    });
    expect(wrong.json.code).toBe(AUTH_CODE.BAD_CAPTCHA);
    const right = await call(t.app, 'POST', '/v3/user/account-login', { body });
    expect(right.json.code).toBe(AUTH_CODE.BAD_CAPTCHA);
  });
});

describe('GET /v3/user/info', () => {
  it('answers 401 when the session has expired', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256(token)));
    const res = await call(t.app, 'GET', '/v3/user/info', { token });
    expect(res.json).toEqual({ code: 401, message: '登录已失效，请重新登录', data: null });
  });

  it('describes the signed-in user with the masked mobile', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const res = await call(t.app, 'GET', '/v3/user/info', { token });
    expect(res.json.data).toMatchObject({ account: 'kaipiao_clerk', mobile: '138****0002', platform: '' });
  });
});
