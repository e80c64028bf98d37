import { and, desc, eq, notExists } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { noticeReads, notices } from '../../db/schema/index.ts';

export async function findUnreadNotice(db: Db, userId: number) {
  const rows = await db
    .select({ id: notices.id, title: notices.title, content: notices.content })
    .from(notices)
    .where(
      and(
        eq(notices.active, 1),
        notExists(
          db
            .select()
            .from(noticeReads)
            .where(and(eq(noticeReads.noticeId, notices.id), eq(noticeReads.userId, userId))),
        ),
      ),
    )
    .orderBy(desc(notices.id))
    .limit(1);
  return rows[0] ?? null;
}

export async function markNoticeRead(db: Db, noticeId: number, userId: number) {
  await db.insert(noticeReads).values({ noticeId, userId }).onConflictDoNothing();
}

/** Sandbox control: the user has read no notice (the demo and the tests show it again). */
export async function forgetNoticeReads(db: Db, userId: number) {
  await db.delete(noticeReads).where(eq(noticeReads.userId, userId));
}
