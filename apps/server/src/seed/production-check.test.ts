import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildTestApp, DEMO } from '../../test/helper.ts';
import { users } from '../db/schema/index.ts';
import { hashPassword } from '../lib/crypto.ts';
import { checkProductionAccounts } from './production-check.ts';

describe('checkProductionAccounts', () => {
  it('refuses a production start while demo accounts keep the published password', async () => {
    const t = await buildTestApp();
    await expect(checkProductionAccounts(t.db)).rejects.toThrow(
      new RegExp(`${DEMO.admin.account}、${DEMO.clerk.account} 仍使用公开的演示密码`),
    );
    await t.db
      .update(users)
      .set({ passwordHash: await hashPassword('Another#Pass2026') })
      .where(eq(users.account, DEMO.admin.account));
    await expect(checkProductionAccounts(t.db)).rejects.toThrow(new RegExp(`账号 ${DEMO.clerk.account} 仍`));
    await t.db
      .update(users)
      .set({ passwordHash: await hashPassword('Another#Pass2026') })
      .where(eq(users.account, DEMO.clerk.account));
    expect((await checkProductionAccounts(t.db)).users).toBeGreaterThanOrEqual(2);
  });

  it('counts no account in an empty database', async () => {
    const t = await buildTestApp({ seed: false });
    expect(await checkProductionAccounts(t.db)).toEqual({ users: 0 });
  });
});
