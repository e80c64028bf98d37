import type { WebSocket } from '@fastify/websocket';
import { AUTH_STATUS } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';

type Msg = { type: string; device_id?: number; auth_status?: number; qr_code?: string; auth_type?: number };

/** Collects a socket's messages; `next` waits for the first one matching. */
function collect(ws: WebSocket) {
  const seen: Msg[] = [];
  const waiters: Array<{ pick: (m: Msg) => boolean; resolve: (m: Msg) => void }> = [];
  ws.on('message', (raw: Buffer) => {
    const m = JSON.parse(raw.toString()) as Msg;
    seen.push(m);
    for (const w of [...waiters]) {
      if (w.pick(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const next = (pick: (m: Msg) => boolean, ms = 5000) =>
    new Promise<Msg>((resolve, reject) => {
      const found = seen.find(pick);
      if (found) {
        seen.splice(seen.indexOf(found), 1);
        return resolve(found);
      }
      const timer = setTimeout(
        () => reject(new Error(`no message in ${ms} ms; seen ${JSON.stringify(seen)}`)),
        ms,
      );
      waiters.push({
        pick,
        resolve: (m) => {
          clearTimeout(timer);
          seen.splice(seen.indexOf(m), 1);
          resolve(m);
        },
      });
    });
  return { seen, next };
}

describe('GET /ws/device-auth (device-authorisation socket)', () => {
  let a: Awaited<ReturnType<typeof buildTestApp>>;
  let b: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;

  beforeAll(async () => {
    a = await buildTestApp();
    // a second "process" on the same database: its own listener and sockets
    b = await buildTestApp({ reuse: a });
    f = await invoicingFixture(a.app, a.db);
  });

  const open = (app: typeof a.app, clientId: number, token = f.admin) =>
    app.injectWS(`/ws/device-auth?client_id=${clientId}`, { headers: { 'access-token': token } });

  it('answers the 20 s ping, and delivers a prompt raised through one process to a socket on the other', async () => {
    const ws = await open(b.app, f.ids.software);
    const inbox = collect(ws as unknown as WebSocket);
    ws.send(JSON.stringify({ type: 'ping' }));
    await inbox.next((m) => m.type === 'pong');
    expect(b.app.realName.hub.count(f.ids.software)).toBe(1);

    const raised = await call(a.app, 'POST', '/v3/dev/real-name/require', {
      body: { device_id: f.ids.digital },
    });
    expect(raised.json.code).toBe(0);
    const shown = await inbox.next((m) => m.type === 'auth' && m.auth_status === AUTH_STATUS.valid);
    expect(shown).toMatchObject({ device_id: f.ids.digital, auth_type: 0 });
    expect(shown.qr_code).toBe(raised.json.data.qrCode);

    await call(a.app, 'POST', '/v3/dev/real-name/app-relogin', { body: { device_id: f.ids.digital } });
    await inbox.next((m) => m.auth_status === AUTH_STATUS.appRelogin);

    await call(a.app, 'POST', '/v3/dev/real-name/require', { body: { device_id: f.ids.digital } });
    await inbox.next((m) => m.auth_status === AUTH_STATUS.valid);
    await call(a.app, 'POST', '/v3/dev/real-name/expire', { body: { device_id: f.ids.digital } });
    await inbox.next((m) => m.auth_status === AUTH_STATUS.expired && m.qr_code === '');

    await call(a.app, 'POST', '/v3/dev/real-name/require', { body: { device_id: f.ids.digital } });
    await inbox.next((m) => m.auth_status === AUTH_STATUS.valid);
    await call(a.app, 'POST', '/v3/dev/real-name/confirm', { body: { device_id: f.ids.digital } });
    await inbox.next((m) => m.auth_status === AUTH_STATUS.done);
    ws.terminate();
  });

  it('sends a pending prompt when the socket opens, and nothing about another business', async () => {
    await call(a.app, 'POST', '/v3/dev/real-name/require', { body: { device_id: f.ids.digital } });
    const hotel = collect((await open(a.app, f.ids.hotel)) as unknown as WebSocket);
    const ws = await open(a.app, f.ids.software);
    const inbox = collect(ws as unknown as WebSocket);
    const first = await inbox.next((m) => m.type === 'auth');
    expect(first).toMatchObject({ device_id: f.ids.digital, auth_status: AUTH_STATUS.valid });
    await call(b.app, 'POST', '/v3/dev/real-name/confirm', { body: { device_id: f.ids.digital } });
    await inbox.next((m) => m.auth_status === AUTH_STATUS.done);
    expect(hotel.seen.filter((m) => m.type === 'auth')).toEqual([]);
    ws.terminate();
  });

  it('does not push the person’s own QR (jc-get-qr-code) to the sockets, nor send it on open', async () => {
    const live = collect((await open(b.app, f.ids.software)) as unknown as WebSocket);
    const q = `client_id=${f.ids.software}&sid=${f.ids.hq}`;
    await a.db.execute(sql`update realname_sessions set qr_issued_at = now() - interval '2 minutes'`);
    const own = await call(a.app, 'POST', `/v3/equipment/jc-get-qr-code?${q}`, {
      token: f.admin,
      body: { device_id: f.ids.digital },
    });
    expect(own.json.data.authStatus).toBe(AUTH_STATUS.valid);
    const laterWs = await open(a.app, f.ids.software);
    const later = collect(laterWs as unknown as WebSocket);
    // a ping answered means the open-time messages were already sent
    laterWs.send(JSON.stringify({ type: 'ping' }));
    await later.next((m) => m.type === 'pong');
    await new Promise((r) => setTimeout(r, 300));
    // (a late "2" from the previous test may still arrive; no QR may)
    const qrs = [...live.seen, ...later.seen].filter(
      (m) => m.type === 'auth' && m.auth_status !== AUTH_STATUS.done,
    );
    expect(qrs).toEqual([]);
  });

  it('POST /v3/dev/real-name/drop-sockets closes this process’s sockets of the business (1012)', async () => {
    const ws = await open(a.app, f.ids.software);
    const other = await open(a.app, f.ids.hotel);
    const closed = new Promise<number>((resolve) => ws.on('close', (code: number) => resolve(code)));
    // (sockets of earlier tests left open on this process count too)
    const before = a.app.realName.hub.count(f.ids.software);
    const hotels = a.app.realName.hub.count(f.ids.hotel);
    const res = await call(a.app, 'POST', '/v3/dev/real-name/drop-sockets', {
      body: { client_id: f.ids.software },
    });
    expect(res.json).toMatchObject({ code: 0, data: { closed: before } });
    expect(await closed).toBe(1012);
    expect(a.app.realName.hub.count(f.ids.software)).toBe(0);
    expect(a.app.realName.hub.count(f.ids.hotel)).toBe(hotels);
    other.terminate();
  });
});
