import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { derivedKey } from '../../lib/code-hash.ts';
import { randomToken } from '../../lib/crypto.ts';
import * as repo from './repo.ts';

/** How long the phone-verification dialog may take after the password was accepted. */
export const MFA_TICKET_MINUTES = 10;

const mac = (key: Buffer, payload: string, passwordHash: string) =>
  createHmac('sha256', key).update(`mfa|${payload}|${passwordHash}`).digest();

/**
 * Proof that this account's password and a picture code were accepted a moment ago, handed out with
 * 11007 so the phone-verification dialog (POST /v3/multi-factor/login) never checks a password
 * itself. Stateless: `<user id>.<expiry ms>.<nonce>.<HMAC>` with a key derived from the server
 * secret; bound to the current password hash, so a password change voids it.
 */
export async function issueMfaTicket(dataDir: string, user: repo.UserRow): Promise<string> {
  const payload = `${user.id}.${Date.now() + MFA_TICKET_MINUTES * 60_000}.${randomToken(12)}`;
  const key = await derivedKey(dataDir, 'mfa-ticket');
  return `${payload}.${mac(key, payload, user.passwordHash).toString('base64url')}`;
}

/** The ticket's user if the ticket is genuine, unexpired and names `account`; else null. */
export async function readMfaTicket(db: Db, dataDir: string, ticket: string, account: string) {
  const parts = ticket.split('.');
  if (parts.length !== 4) return null;
  const [id, expires, nonce, sig] = parts as [string, string, string, string];
  if (!/^\d{1,10}$/.test(id) || !/^\d{1,15}$/.test(expires) || Number(expires) <= Date.now()) return null;
  const user = await repo.findUserById(db, Number(id));
  if (!user || user.account !== account) return null;
  const key = await derivedKey(dataDir, 'mfa-ticket');
  const expected = mac(key, `${id}.${expires}.${nonce}`, user.passwordHash);
  const given = Buffer.from(sig, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? user : null;
}
