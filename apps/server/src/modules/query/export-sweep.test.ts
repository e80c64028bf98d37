import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { QUERY_CODE } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { holdLock } from '../../../test/race.ts';
import { clients, exportRecords, users } from '../../db/schema/index.ts';
import { EXPORT_SWEEP_CRON, EXPORT_SWEEP_JOB, sweepExpiredExports } from './export-sweep.ts';

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;
type Rec = { id: number; clientId: number; abs: string; content: string };

const exists = (p: string) =>
  fs.access(p).then(
    () => true,
    () => false,
  );

/** A finished Excel export of `clientId` with its file on disk; `expired` moves its expiry into the past. */
async function addRecord(
  t: TestApp,
  dataDir: string,
  clientId: number,
  opts: { expired: boolean; fileOnDisk?: boolean },
): Promise<Rec> {
  const [admin] = await t.db.select().from(users).where(eq(users.account, DEMO.admin.account));
  const rel = path.join('exports', String(clientId), `sweep-${randomBytes(4).toString('hex')}.xlsx`);
  const abs = path.join(dataDir, rel);
  const content = `export of ${clientId} ${rel}`;
  if (opts.fileOnDisk !== false) {
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, content);
  }
  const [rec] = await t.db
    .insert(exportRecords)
    .values({
      clientId,
      kind: 'excel',
      status: 'done',
      progress: 100,
      rowCount: 1,
      fileName: '发票明细_20260101_000000.xlsx',
      filePath: rel,
      fileSize: Buffer.byteLength(content),
      createdBy: admin!.id,
      finishedAt: new Date(),
      expiresAt: new Date(Date.now() + 7 * 86_400_000),
    })
    .returning({ id: exportRecords.id });
  if (opts.expired) {
    await t.db.execute(
      sql`update export_records set expires_at = now() - interval '1 minute' where id = ${rec!.id}`,
    );
  }
  return { id: rec!.id, clientId, abs, content };
}

async function filePathOf(t: TestApp, id: number): Promise<string | null> {
  const [row] = await t.db
    .select({ filePath: exportRecords.filePath })
    .from(exportRecords)
    .where(eq(exportRecords.id, id));
  return row!.filePath;
}

async function demoClients(t: TestApp) {
  const [software] = await t.db.select().from(clients).where(eq(clients.taxCode, DEMO.software.taxCode));
  const [hotel] = await t.db.select().from(clients).where(eq(clients.taxCode, DEMO.hotel.taxCode));
  return { software: software!.id, hotel: hotel!.id };
}

describe('expired export sweep', () => {
  let t: TestApp;
  let admin: string;
  let dataDir: string;
  let ids: { software: number; hotel: number };

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-export-sweep-'));
    t = await buildTestApp({ env: { KAIPIAO_DATA_DIR: dataDir } });
    admin = await login(t.app, DEMO.admin.account);
    ids = await demoClients(t);
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const list = async (clientId: number) => {
    const res = await call(t.app, 'POST', `/v3/invoice-export/list?client_id=${clientId}&sid=-1`, {
      token: admin,
      body: {},
    });
    expect(res.json.code).toBe(0);
    return res.json.data.list as Array<{ record_id: number; status: string; status_name: string }>;
  };
  const download = (rec: Rec) =>
    t.app.inject({
      method: 'GET',
      url: `/v3/invoice-export/download?client_id=${rec.clientId}&sid=-1&record_id=${rec.id}`,
      headers: { 'access-token': admin },
    });

  it("removes every business's expired files, keeps the rest, and the records still list", async () => {
    const softwareOld = await addRecord(t, dataDir, ids.software, { expired: true });
    const softwareNew = await addRecord(t, dataDir, ids.software, { expired: false });
    const hotelOld = await addRecord(t, dataDir, ids.hotel, { expired: true });
    const hotelNew = await addRecord(t, dataDir, ids.hotel, { expired: false });
    // expired, and its file already gone: the sweep clears the record all the same
    const missing = await addRecord(t, dataDir, ids.software, { expired: true, fileOnDisk: false });
    for (const r of [softwareOld, softwareNew, hotelOld, hotelNew]) expect(await exists(r.abs)).toBe(true);

    // chunks of two: three expired records take two statements
    expect(await sweepExpiredExports({ db: t.db, dataDir }, { chunk: 2 })).toBe(3);

    for (const r of [softwareOld, hotelOld, missing]) {
      expect(await exists(r.abs)).toBe(false);
      expect(await filePathOf(t, r.id)).toBeNull();
    }
    for (const r of [softwareNew, hotelNew]) {
      expect(await fs.readFile(r.abs, 'utf8')).toBe(r.content);
      expect(await filePathOf(t, r.id)).not.toBeNull();
    }
    // nothing left to do
    expect(await sweepExpiredExports({ db: t.db, dataDir })).toBe(0);

    for (const [clientId, old, kept] of [
      [ids.software, softwareOld, softwareNew],
      [ids.hotel, hotelOld, hotelNew],
    ] as const) {
      const rows = await list(clientId);
      expect(rows.find((r) => r.record_id === old.id)).toMatchObject({ status: 'expired' });
      expect(rows.find((r) => r.record_id === kept.id)).toMatchObject({ status: 'done' });
      expect((await download(old)).json()).toMatchObject({ code: QUERY_CODE.EXPORT_EXPIRED });
      const ok = await download(kept);
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toBe(kept.content);
    }
  });

  it('skips the records another sweep holds (shares the work): it neither waits for them nor removes them', async () => {
    const held = await addRecord(t, dataDir, ids.software, { expired: true });
    const free = await addRecord(t, dataDir, ids.software, { expired: true });
    // another sweep's chunk in flight: its transaction has claimed `held` and not yet committed
    const other = await holdLock(t.url, 'select id from export_records where id = $1 for update', [held.id]);
    try {
      const swept = await Promise.race([
        sweepExpiredExports({ db: t.db, dataDir }, { clientId: ids.software }),
        other.waiters(1).then(() => 'waited for the other sweep'),
      ]);
      expect(swept).toBe(1);
      expect(await exists(free.abs)).toBe(false);
      expect(await filePathOf(t, free.id)).toBeNull();
      expect(await fs.readFile(held.abs, 'utf8')).toBe(held.content);
      expect(await filePathOf(t, held.id)).not.toBeNull();
    } finally {
      await other.release();
    }
    expect(await sweepExpiredExports({ db: t.db, dataDir }, { clientId: ids.software })).toBe(1);
    expect(await exists(held.abs)).toBe(false);
  });

  it('a file that cannot be removed is logged with its record, which is cleared anyway; a missing file is not an error', async () => {
    const stuck = await addRecord(t, dataDir, ids.software, { expired: true });
    // a non-empty directory where the file should be: rm without `recursive` refuses it
    await fs.rm(stuck.abs);
    await fs.mkdir(stuck.abs);
    await fs.writeFile(path.join(stuck.abs, 'inside'), 'x');
    const gone = await addRecord(t, dataDir, ids.software, { expired: true, fileOnDisk: false });
    const logged: Array<{ obj: unknown; msg?: string }> = [];
    const log = { error: (obj: unknown, msg?: string) => logged.push({ obj, msg }) };
    expect(await sweepExpiredExports({ db: t.db, dataDir, log }, { clientId: ids.software })).toBe(2);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ obj: { recordId: stuck.id }, msg: 'expired export file not removed' });
    expect(await exists(path.join(stuck.abs, 'inside'))).toBe(true);
    expect(await filePathOf(t, stuck.id)).toBeNull();
    expect(await filePathOf(t, gone.id)).toBeNull();
    await fs.rm(stuck.abs, { recursive: true });
  });

  it('with no logger given, a file that cannot be removed still leaves its record cleared', async () => {
    const stuck = await addRecord(t, dataDir, ids.software, { expired: true });
    await fs.rm(stuck.abs);
    await fs.mkdir(stuck.abs);
    await fs.writeFile(path.join(stuck.abs, 'inside'), 'x');
    try {
      expect(await sweepExpiredExports({ db: t.db, dataDir }, { clientId: ids.software })).toBe(1);
      expect(await filePathOf(t, stuck.id)).toBeNull();
    } finally {
      await fs.rm(stuck.abs, { recursive: true });
    }
  });

  it('limited to one business, leaves the others', async () => {
    const softwareOld = await addRecord(t, dataDir, ids.software, { expired: true });
    const hotelOld = await addRecord(t, dataDir, ids.hotel, { expired: true });
    expect(await sweepExpiredExports({ db: t.db, dataDir }, { clientId: ids.software })).toBe(1);
    expect(await exists(softwareOld.abs)).toBe(false);
    expect(await filePathOf(t, softwareOld.id)).toBeNull();
    expect(await exists(hotelOld.abs)).toBe(true);
    expect(await filePathOf(t, hotelOld.id)).not.toBeNull();
  });
});

describe('expired export sweep (pg-boss)', () => {
  let base: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-export-sweep-job-'));
    base = await buildTestApp({ env: { KAIPIAO_DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('does nothing on schedule with jobs off; a worker schedules it hourly and sweeps once on start', async () => {
    const { software, hotel } = await demoClients(base);
    const softwareOld = await addRecord(base, dataDir, software, { expired: true });
    const hotelOld = await addRecord(base, dataDir, hotel, { expired: true });
    const kept = await addRecord(base, dataDir, hotel, { expired: false });

    // another process with jobs off (as in tests): no sweep when it starts
    const off = await buildTestApp({ reuse: base, env: { KAIPIAO_DATA_DIR: dataDir } });
    expect(off.app.jobs.enabled).toBe(false);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await exists(softwareOld.abs)).toBe(true);
    expect(await exists(hotelOld.abs)).toBe(true);

    // a worker: the cron is registered and the start-up run sweeps every business
    const worker = await buildTestApp({
      reuse: base,
      env: { KAIPIAO_DATA_DIR: dataDir, KAIPIAO_JOBS: 'on', KAIPIAO_ROLE: 'all' },
    });
    await worker.app.jobs.started();
    let cron: string | undefined;
    for (let i = 0; i < 40 && !cron; i++) {
      cron = (await worker.app.boss.getSchedules()).find((s) => s.name === EXPORT_SWEEP_JOB)?.cron;
      if (!cron) await new Promise((r) => setTimeout(r, 125));
    }
    expect(cron).toBe(EXPORT_SWEEP_CRON);
    // a chunk commits (file_path null) only after its files are removed
    const swept = async () =>
      (await filePathOf(base, softwareOld.id)) === null && (await filePathOf(base, hotelOld.id)) === null;
    for (let i = 0; i < 60 && !(await swept()); i++) await new Promise((r) => setTimeout(r, 250));
    expect(await exists(softwareOld.abs)).toBe(false);
    expect(await exists(hotelOld.abs)).toBe(false);
    expect(await filePathOf(base, softwareOld.id)).toBeNull();
    expect(await filePathOf(base, hotelOld.id)).toBeNull();
    expect(await fs.readFile(kept.abs, 'utf8')).toBe(kept.content);
  });
});
