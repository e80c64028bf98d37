import { createHmac, randomBytes, scryptSync } from 'node:crypto';
import { AUTH_CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountLogin } from '../../../test/auth-helpers.ts';
import { buildTestApp, DEMO } from '../../../test/helper.ts';
import { users } from '../../db/schema/index.ts';
import { derivedKey } from '../../lib/code-hash.ts';
import { issueMfaTicket, MFA_TICKET_MINUTES, readMfaTicket } from './mfa-ticket.ts';
import * as repo from './repo.ts';

// The phone-verification ticket (`<user id>.<expiry ms>.<nonce>.<HMAC>`) read field by field: a
// ticket is genuine only when every field has its form, it names the account, it has not expired
// and its HMAC (bound to the current password hash) matches. Tickets are signed here with the same
// key the server derives, so each field can be made wrong on its own while the HMAC stays right.

let t: Awaited<ReturnType<typeof buildTestApp>>;
let admin: repo.UserRow;
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await repo.findUserByAccount(t.db, DEMO.admin.account))!;
});
afterEach(() => {
  vi.restoreAllMocks();
});

const dataDir = () => t.app.env.dataDir;
async function sign(payload: string, passwordHash = admin.passwordHash): Promise<string> {
  const key = await derivedKey(dataDir(), 'mfa-ticket');
  const mac = createHmac('sha256', key).update(`mfa|${payload}|${passwordHash}`).digest('base64url');
  return `${payload}.${mac}`;
}
const read = (ticket: string, account: string = DEMO.admin.account) =>
  readMfaTicket(t.db, dataDir(), ticket, account);
const later = () => String(Date.now() + 60_000);

describe('readMfaTicket', () => {
  it('accepts the ticket it issued, for its own account only', async () => {
    const ticket = await issueMfaTicket(dataDir(), admin);
    expect((await read(ticket))?.id).toBe(admin.id);
    expect(await read(ticket, DEMO.clerk.account)).toBeNull();
    // and one signed here the same way (so the cases below differ from a good ticket in one field)
    expect((await read(await sign(`${admin.id}.${later()}.n0nce`)))?.id).toBe(admin.id);
  });

  it('expires MFA_TICKET_MINUTES after issue: valid 1 ms before, refused at the very millisecond', async () => {
    const issuedAt = 1_900_000_000_000;
    vi.spyOn(Date, 'now').mockReturnValue(issuedAt);
    const ticket = await issueMfaTicket(dataDir(), admin);
    const expiry = issuedAt + MFA_TICKET_MINUTES * 60_000;
    expect(ticket.split('.')[1]).toBe(String(expiry));
    vi.spyOn(Date, 'now').mockReturnValue(expiry - 1);
    expect((await read(ticket))?.id).toBe(admin.id);
    vi.spyOn(Date, 'now').mockReturnValue(expiry);
    expect(await read(ticket)).toBeNull();
  });

  it('takes an id of 1 to 10 digits (leading zeros allowed) and nothing else', async () => {
    const exp = later();
    const id = String(admin.id);
    expect((await read(await sign(`0${id}.${exp}.n`)))?.id).toBe(admin.id);
    expect((await read(await sign(`${id.padStart(10, '0')}.${exp}.n`)))?.id).toBe(admin.id);
    for (const bad of [id.padStart(11, '0'), `x${id}`, `${id}x`, `-${id}`, '', `${id}.5`]) {
      await expect(read(await sign(`${bad}.${exp}.n`)), bad).resolves.toBeNull();
    }
  });

  it('takes an expiry of 1 to 15 digits and nothing else', async () => {
    const id = admin.id;
    expect((await read(await sign(`${id}.999999999999999.n`)))?.id).toBe(admin.id);
    const exp = later();
    for (const bad of [`0${'9'.repeat(15)}`, `x${exp}`, `${exp}x`, `${exp}.0`, '']) {
      await expect(read(await sign(`${id}.${bad}.n`)), bad).resolves.toBeNull();
    }
  });

  it('refuses a ticket of more or fewer than four parts, and a signature of the wrong length', async () => {
    const good = await sign(`${admin.id}.${later()}.n`);
    await expect(read(`${good}.more`)).resolves.toBeNull();
    await expect(read(good.split('.').slice(0, 3).join('.'))).resolves.toBeNull();
    const short = good.slice(0, -4);
    await expect(read(short)).resolves.toBeNull();
    await expect(read(`${good}AAAA`)).resolves.toBeNull();
  });

  it('is void once the password changes (the HMAC covers the hash)', async () => {
    const ticket = await sign(`${admin.id}.${later()}.n`, `${admin.passwordHash}x`);
    await expect(read(ticket)).resolves.toBeNull();
  });
});

describe('a ticket handed out by a login that upgraded the password hash', () => {
  it('is bound to the upgraded hash, so the phone dialog accepts it', async () => {
    // the first hash format (scrypt$salt$hash) is upgraded on the login that hands out the ticket
    const salt = randomBytes(16);
    const legacy = `scrypt$${salt.toString('base64')}$${scryptSync(DEMO.password, salt, 32).toString('base64')}`;
    await t.db.update(users).set({ passwordHash: legacy }).where(eq(users.id, admin.id));
    const res = await accountLogin(t.app, DEMO.admin.account);
    expect(res.json.code).toBe(AUTH_CODE.MFA_REQUIRED);
    const stored = (await repo.findUserById(t.db, admin.id))!.passwordHash;
    expect(stored).not.toBe(legacy);
    expect((await read(res.json.data.mfa_ticket))?.id).toBe(admin.id);
  });
});
