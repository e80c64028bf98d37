import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ssoTickets } from '../db/schema/index.ts';
import { randomToken, sha256 } from '../lib/crypto.ts';

export type TicketKind = 'ticket' | 'token' | 'wecom_code';
export type TicketRow = typeof ssoTickets.$inferSelect;

const TTL_SECONDS: Record<TicketKind, number> = { ticket: 300, token: 300, wecom_code: 300 };

/**
 * The sandbox partners' and work app's own store of what they issued: single-use credentials
 * with an expiry, kept as hashes.
 */
export async function issueTicket(
  db: Db,
  kind: TicketKind,
  fields: { userId?: number | null; appId: string; payload?: Record<string, string> },
): Promise<string> {
  const value = randomToken(24);
  await db.insert(ssoTickets).values({
    ticket: sha256(value),
    kind,
    userId: fields.userId ?? null,
    appId: fields.appId,
    payload: fields.payload ?? {},
    expiresAt: new Date(Date.now() + TTL_SECONDS[kind] * 1000),
  });
  if (Math.random() < 0.05) {
    await db.delete(ssoTickets).where(lt(ssoTickets.expiresAt, sql`now() - interval '1 day'`));
  }
  return value;
}

const live = (kind: TicketKind, value: string) =>
  and(
    eq(ssoTickets.ticket, sha256(value)),
    eq(ssoTickets.kind, kind),
    isNull(ssoTickets.usedAt),
    gt(ssoTickets.expiresAt, new Date()),
  );

/** The unused, unexpired credential, without using it up. */
export async function peekTicket(db: Db, kind: TicketKind, value: string): Promise<TicketRow | null> {
  const rows = await db.select().from(ssoTickets).where(live(kind, value)).limit(1);
  return rows[0] ?? null;
}

/** Uses the credential up; null when it was unknown, expired or already used (by a racing request too). */
export async function consumeTicket(db: Db, kind: TicketKind, value: string): Promise<TicketRow | null> {
  const rows = await db.update(ssoTickets).set({ usedAt: new Date() }).where(live(kind, value)).returning();
  return rows[0] ?? null;
}
