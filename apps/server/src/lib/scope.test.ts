import { CODE, messageFor, SESSION_CODE, SUMMARY_STORE_ID } from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { clientStores, clients, deviceStores, orgs, taxDevices } from '../db/schema/index.ts';
import {
  assertDeviceInScope,
  assertStore,
  assertStores,
  buildScope,
  canReachStore,
  deviceSql,
  employeeScope,
  issuingActor,
  readableStores,
  refuseIfOtherStore,
  scopeOf as requestScope,
  type Scope,
  storeArraySql,
  storeSql,
} from './scope.ts';

// The store-scope rule (issue 21 item 1) piece by piece, its SQL run on real PostgreSQL against
// literal values: one store, several stores (the summary of an employee with two), none, every one.
// test/scope-matrix.test.ts walks every route with it; this pins each piece's answer.

let t: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  t = await buildTestApp({ seed: false });
});

const scopeOf = (sid: number, permitted: number[] | null): Scope =>
  buildScope({
    orgId: 1,
    clientId: 1,
    userId: 1,
    employeeId: 1,
    isAdmin: permitted === null,
    permittedStoreIds: permitted === null ? null : new Set(permitted),
    permissions: new Set(),
    sid,
  });
const truth = async (cond: SQL): Promise<boolean> =>
  (await t.db.execute<{ ok: boolean }>(sql`select (${cond}) as ok`)).rows[0]!.ok;
const refusal = { code: SESSION_CODE.STORE_NOT_PERMITTED };

describe('buildScope', () => {
  it('narrows to the selected store, or in the summary to every store the employee may use', () => {
    expect(scopeOf(7, [7, 9]).storeIds).toEqual([7]);
    expect(scopeOf(SUMMARY_STORE_ID, [7, 9]).storeIds).toEqual([7, 9]);
    expect(scopeOf(SUMMARY_STORE_ID, null).storeIds).toBeNull();
    expect(scopeOf(7, null).storeIds).toEqual([7]);
    expect(scopeOf(SUMMARY_STORE_ID, [7]).storeId).toBeNull();
    expect(employeeScope(scopeOf(7, [7, 9])).storeIds).toEqual([7, 9]);
    expect(employeeScope(scopeOf(7, null)).storeIds).toBeNull();
  });

  it('reads the requested stores within the scope only', () => {
    expect(readableStores(scopeOf(SUMMARY_STORE_ID, [7, 9]))).toEqual([7, 9]);
    expect(readableStores(scopeOf(SUMMARY_STORE_ID, [7, 9]), [9, 9, 11])).toEqual([9]);
    expect(readableStores(scopeOf(SUMMARY_STORE_ID, null))).toBeNull();
    expect(readableStores(scopeOf(SUMMARY_STORE_ID, null), [3, 3, 4])).toEqual([3, 4]);
    expect(readableStores(scopeOf(7, [7, 9]), [])).toEqual([7]);
  });
});

describe('scopeOf / issuingActor', () => {
  it("hands a route the request's scope; without one it refuses as the auth hook does (10688, no message)", () => {
    const s = scopeOf(7, [7, 9]);
    expect(requestScope({ scope: s })).toBe(s);
    expect(() => requestScope({ scope: null })).toThrow(
      expect.objectContaining({ code: CODE.SWITCH_STORE, message: '' }),
    );
  });

  it('issues for the selected store as the session user; the summary is refused (10688 choose a store)', () => {
    expect(issuingActor(scopeOf(7, [7, 9]))).toEqual({ clientId: 1, storeId: 7, userId: 1 });
    expect(() => issuingActor(scopeOf(SUMMARY_STORE_ID, null))).toThrow(
      expect.objectContaining({ code: CODE.SWITCH_STORE, message: messageFor(CODE.SWITCH_STORE) }),
    );
  });
});

describe('canReachStore / assertStore / assertStores', () => {
  it('a store in the scope is reached; another store, or no store unless the scope is every store, is not', () => {
    const two = scopeOf(SUMMARY_STORE_ID, [7, 9]);
    expect([7, 9, 8].map((id) => canReachStore(two, id))).toEqual([true, true, false]);
    expect(canReachStore(two, null)).toBe(false);
    expect(canReachStore(two, undefined)).toBe(false);
    const all = scopeOf(SUMMARY_STORE_ID, null);
    expect([7, null, undefined].map((id) => canReachStore(all, id))).toEqual([true, true, true]);
    expect(() => assertStore(two, 9)).not.toThrow();
    expect(() => assertStore(two, 8)).toThrow(expect.objectContaining(refusal));
    expect(() => assertStores(two, [7, 9])).not.toThrow();
    expect(() => assertStores(two, [7, 8])).toThrow(expect.objectContaining(refusal));
    expect(() => assertStores(two, [])).not.toThrow();
  });
});

describe('storeSql / storeArraySql / deviceSql on PostgreSQL', () => {
  it('storeSql: the column is one of the scope’s stores (several, one, none, every store)', async () => {
    const two = scopeOf(SUMMARY_STORE_ID, [7, 19]);
    expect(await truth(storeSql(two, sql`19`))).toBe(true);
    expect(await truth(storeSql(two, sql`7`))).toBe(true);
    expect(await truth(storeSql(two, sql`9`))).toBe(false);
    expect(await truth(storeSql(two, sql`719`))).toBe(false);
    expect(await truth(storeSql([], sql`7`))).toBe(false);
    expect(await truth(storeSql(null, sql`7`))).toBe(true);
    expect(await truth(storeSql(scopeOf(SUMMARY_STORE_ID, null), sql`123`))).toBe(true);
  });

  it('storeArraySql: a row covering stores is visible when all of them are in the scope; every-store rows need every store', async () => {
    const two = [7, 19];
    expect(await truth(storeArraySql(two, sql`array[7,19]::int[]`))).toBe(true);
    expect(await truth(storeArraySql(two, sql`array[19]::int[]`))).toBe(true);
    expect(await truth(storeArraySql(two, sql`array[7,8]::int[]`))).toBe(false);
    expect(await truth(storeArraySql(two, sql`array[719]::int[]`))).toBe(false);
    expect(await truth(storeArraySql(two, sql`null::int[]`))).toBe(false);
    expect(await truth(storeArraySql([], sql`array[7]::int[]`))).toBe(false);
    expect(await truth(storeArraySql(null, sql`null::int[]`))).toBe(true);
  });

  it('deviceSql: a device bound to one of the scope’s stores', async () => {
    // literal device ids against empty binding tables: nothing bound, so only "every store" reaches
    expect(await truth(deviceSql([7, 19], sql`1`))).toBe(false);
    expect(await truth(deviceSql([], sql`1`))).toBe(false);
    expect(await truth(deviceSql(null, sql`1`))).toBe(true);
  });
});

describe('refuseIfOtherStore', () => {
  it('refuses when the query finds the row in another store, and leaves a missing row to the caller', async () => {
    await expect(refuseIfOtherStore(t.db, sql`select 5 as store_id`)).rejects.toMatchObject(refusal);
    await expect(refuseIfOtherStore(t.db, sql`select 5 as store_id where false`)).resolves.toBeUndefined();
  });
});

describe('assertDeviceInScope / deviceSql with bound devices', () => {
  it('a device bound or granted to one of the employee’s stores passes; another store’s is refused (12003); an unknown id is left to the caller', async () => {
    const [o] = await t.db.insert(orgs).values({ name: '设备集团' }).returning();
    const [c] = await t.db
      .insert(clients)
      .values({ orgId: o!.id, name: '设备公司', taxCode: '91330100MA2X9Y8Z7K' })
      .returning();
    const [a, b] = await t.db
      .insert(clientStores)
      .values([
        { clientId: c!.id, name: '甲店', code: 'A' },
        { clientId: c!.id, name: '乙店', code: 'B' },
      ])
      .returning();
    const device = async (name: string) =>
      (
        await t.db
          .insert(taxDevices)
          .values({ clientId: c!.id, kind: 'digital', name, deviceNo: name })
          .returning()
      )[0]!.id;
    const ofA = await device('A1');
    const ofB = await device('B1');
    await t.db.insert(deviceStores).values([
      { deviceId: ofA, storeId: a!.id, clientId: c!.id },
      { deviceId: ofB, storeId: b!.id, clientId: c!.id },
    ]);
    const scope = (permitted: number[] | null) =>
      buildScope({
        orgId: o!.id,
        clientId: c!.id,
        userId: 1,
        employeeId: 1,
        isAdmin: permitted === null,
        permittedStoreIds: permitted === null ? null : new Set(permitted),
        permissions: new Set(),
        sid: SUMMARY_STORE_ID,
      });
    const clerkA = scope([a!.id]);
    await expect(assertDeviceInScope(t.db, clerkA, ofA)).resolves.toBeUndefined();
    await expect(assertDeviceInScope(t.db, clerkA, ofB)).rejects.toMatchObject(refusal);
    await expect(assertDeviceInScope(t.db, clerkA, 999_999)).resolves.toBeUndefined();
    for (const id of [ofA, ofB]) {
      await expect(assertDeviceInScope(t.db, scope(null), id)).resolves.toBeUndefined();
    }
    expect(await truth(deviceSql([a!.id], sql`${ofA}`))).toBe(true);
    expect(await truth(deviceSql([a!.id], sql`${ofB}`))).toBe(false);
    expect(await truth(deviceSql([b!.id, a!.id], sql`${ofB}`))).toBe(true);
  });
});
