import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO } from '../../../test/helper.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  t = await buildTestApp();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });
const paramsOf = (location: string) => new URL(location, 'http://x').searchParams;

describe('GET /sandbox/qr-login', () => {
  it('renders a Chinese page with the demo accounts and the scan and confirm buttons', async () => {
    const res = await get('/sandbox/qr-login?qr_id=abc');
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('扫码');
    expect(res.body).toContain('确认登录');
    expect(res.body).toContain(DEMO.admin.account);
    expect(res.body).toContain(DEMO.clerk.account);
  });

  it('runs its script from a file, not inline (the CSP allows no inline script)', async () => {
    const res = await get('/sandbox/qr-login?qr_id=abc');
    expect(res.body).toContain('<script src="/sandbox/qr-login.js"></script>');
    expect(res.body).not.toMatch(/<script>/);
    const js = await get('/sandbox/qr-login.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('text/javascript');
    expect(js.body).toContain('/v3/dev/qr-confirm');
  });

  it('escapes the qr_id it echoes', async () => {
    const res = await get(`/sandbox/qr-login?qr_id=${encodeURIComponent('"><script>x</script>')}`);
    expect(res.body).not.toContain('<script>x</script>');
    expect(res.body).toContain('&quot;&gt;&lt;script&gt;');
  });
});

describe('GET /sandbox/sso/login', () => {
  it('lists the accounts with sign-on links for the app', async () => {
    const res = await get('/sandbox/sso/login?app_id=1014');
    expect(res.body).toContain('合作方应用 1014');
    expect(res.body).toContain('account=kaipiao_clerk');
  });

  it('issues a ticket and redirects to /user/login with it, and the ticket signs in', async () => {
    const res = await get('/sandbox/sso/login?app_id=1003&account=kaipiao_clerk');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^\/user\/login\?ticket=[\w-]+&app_id=1003$/);
    const q = paramsOf(res.headers.location as string);
    const body = { ticket: q.get('ticket'), app_id: q.get('app_id') };
    const check = await call(t.app, 'POST', '/v3/multi-factor/check-secure-id', { body });
    expect(check.json.data).toMatchObject({ auth_status: 1, source: '1003' });
  });

  it('hands out a login token instead when asked', async () => {
    const res = await get('/sandbox/sso/login?app_id=22&account=kaipiao_clerk&kind=token');
    expect(res.headers.location).toMatch(/^\/user\/login\?token=[\w-]+&app_id=22$/);
  });
});

describe('GET /sandbox/sso/logout', () => {
  it('says the user has signed out and links back to the sign-on page', async () => {
    const res = await get('/sandbox/sso/logout?source=22');
    expect(res.body).toContain('已退出');
    expect(res.body).toContain('href="/sandbox/sso/login?app_id=22"');
  });
});

describe('GET /sandbox/wecom/login', () => {
  it('lists the seeded work-app members', async () => {
    const res = await get('/sandbox/wecom/login');
    expect(res.body).toContain(DEMO.wecom.clerk);
    expect(res.body).toContain(DEMO.wecom.newHire);
    expect(res.body).toContain('已绑定 kaipiao_clerk');
  });

  it('issues a code and redirects to /user/login with it, and the code signs in', async () => {
    const res = await get(`/sandbox/wecom/login?corp_id=${DEMO.wecom.corpId}&qw_user_id=${DEMO.wecom.clerk}`);
    expect(res.statusCode).toBe(302);
    const q = paramsOf(res.headers.location as string);
    expect(q.get('appid')).toBe('sandbox');
    const body = { code: q.get('code'), appid: q.get('appid') };
    const login = await call(t.app, 'POST', '/v3/enterprise-we-chat/get-qwuserid-and-corpid', { body });
    expect(login.json.data).toMatchObject({ is_register: 1, role: 2, token: expect.any(String) });
  });
});
