import { inArray, sql } from 'drizzle-orm';
import { StartupError } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { verifyPassword } from '../lib/crypto.ts';
import { DEMO } from './demo.ts';

/**
 * Production never runs with the demo accounts' published password (README: `Kaipiao@2026`): a
 * database seeded earlier outside production (or copied from a demo) refuses the start until
 * those accounts have other passwords or are gone. Returns how many accounts there are, so the
 * start can say that an empty production database has no login yet.
 */
export async function checkProductionAccounts(db: Db): Promise<{ users: number }> {
  const demo = await db
    .select({ account: users.account, passwordHash: users.passwordHash })
    .from(users)
    .where(inArray(users.account, [DEMO.admin.account, DEMO.clerk.account]));
  const published: string[] = [];
  for (const u of demo) {
    if (await verifyPassword(DEMO.password, u.passwordHash).catch(() => false)) published.push(u.account);
  }
  if (published.length) {
    throw new StartupError(
      `数据库里的演示账号 ${published.join('、')} 仍使用公开的演示密码，NODE_ENV=production 不能这样启动。` +
        '请先在非生产模式下登录这些账号修改密码（或删除这些账号），再以生产模式启动。\n' +
        `The demo accounts ${published.join(', ')} still have the published demo password: change it ` +
        '(log in once without NODE_ENV=production) or remove them, then start in production.',
    );
  }
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return { users: row?.n ?? 0 };
}
