import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { LeftJoined, RawRow } from '../../db/rows.ts';
import type { deviceFilings, taxDevices } from '../../db/schema/index.ts';

/**
 * The SQL of the filing locks (filing-locks.ts; the rest of the devices' is in repo.ts): the active,
 * unlocked devices that may be due a lock with their filing of the period, and the lock itself.
 */

const textArray = (xs: readonly string[]) => `{${xs.join(',')}}`;

export type FilingLockCandidate = Pick<RawRow<typeof taxDevices>, 'id' | 'created_at'> &
  LeftJoined<Pick<RawRow<typeof deviceFilings>, 'copied_at' | 'cleared_at'>>;

/**
 * Active, unlocked devices of the `kinds` (every business's, or `clientId`'s), with when they were
 * created and their 抄报 / 清卡 of `period`, if any.
 */
export async function filingLockCandidates(
  db: Db,
  period: string,
  kinds: readonly string[],
  clientId: number | undefined,
): Promise<FilingLockCandidate[]> {
  const candidates =
    await db.execute<FilingLockCandidate>(sql`select d.id, d.created_at, f.copied_at, f.cleared_at
    from tax_devices d left join device_filings f on f.device_id = d.id and f.period = ${period}
    where d.status = 'active' and not d.locked and d.kind = any(${textArray(kinds)}::text[])
      ${clientId === undefined ? sql`` : sql`and d.client_id = ${clientId}`}`);
  return candidates.rows;
}

/**
 * Locks the devices `due` not yet locked, except those cleared (清卡) for `period` since they were
 * read: a 清卡 committed meanwhile must not be undone. Answers the business of each device it locked.
 */
export async function lockDevices(db: Db, due: readonly number[], period: string): Promise<number[]> {
  const locked = await db.execute<{ client_id: number }>(sql`update tax_devices d set locked = true
    where d.id = any(${`{${due.join(',')}}`}::int[]) and not d.locked
      and not exists (select 1 from device_filings f
        where f.device_id = d.id and f.period = ${period} and f.cleared_at is not null)
    returning d.client_id`);
  return locked.rows.map((r) => r.client_id);
}
