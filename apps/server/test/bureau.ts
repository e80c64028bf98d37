import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll } from 'vitest';
import type { App } from '../src/app.ts';
import type { BureauFault, DeviceInput } from '../src/channels/bureau/server.ts';
import { isDigitalType } from '../src/channels/numbers.ts';

/** The sandbox bureau (src/channels/bureau/server.ts) as a process of its own, for a test file. */
const ROOT = path.resolve(import.meta.dirname, '../../..');

export type BureauProcess = {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  /** ends the process (SIGKILL: as sudden as a crash) and waits for it */
  kill: () => Promise<void>;
};

/**
 * Starts the bureau (on `port`, or any free one) and resolves once it prints BUREAU_LISTENING.
 * Call it from a hook (beforeAll): the process is killed after the file's tests (afterAll) unless
 * the test did it already. A test that starts one itself passes `afterAll: false` and kills it.
 */
export function startBureau(opts: { port?: number; afterAll?: boolean } = {}): Promise<BureauProcess> {
  // node itself, not the tsx CLI: the CLI would leave the bureau running as a grandchild
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/channels/bureau/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(opts.port ?? 0) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  if (opts.afterAll !== false) afterAll(kill);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the bureau did not start within 30 s:\n${out}`)),
      30_000,
    );
    child.stderr!.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /BUREAU_LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({ url: `http://127.0.0.1:${port}`, port, child, output: () => out, kill });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bureau exited (${code}) before listening:\n${out}`));
    });
  });
}

async function bureauCall(url: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}${p}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`bureau ${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Registers one of our devices at the bureau as our database describes it (the bureau keeps its own
 * copy from then on): state, kinds, limit, quota, and `stock` blanks of each older kind it issues
 * (default 100). Its 数电 numbers continue after the highest one our invoices of the device carry,
 * so they never meet the numbers the demo's history or an earlier bureau process gave out.
 */
export async function registerDevice(
  bureauUrl: string,
  db: App['db'],
  deviceId: number,
  overrides: Partial<DeviceInput> = {},
): Promise<any> {
  const row = (
    await db.execute<{
      client_id: number;
      area_code: string;
      invoice_types: string[];
      per_invoice_limit: string;
      monthly_quota: string | null;
      online: boolean;
      locked: boolean;
      status: string;
      last_seq: string | null;
    }>(sql`
      select d.client_id, d.area_code, d.invoice_types, d.per_invoice_limit, d.monthly_quota, d.online,
        d.locked, d.status,
        (select max(right(i.invoice_no, 15)::bigint) from invoices i
          where i.device_id = d.id and i.invoice_no ~ '^[0-9]{20}$') as last_seq
      from tax_devices d where d.id = ${deviceId}`)
  ).rows[0];
  if (!row) throw new Error(`registerDevice: no device ${deviceId}`);
  const older = row.invoice_types.filter((t) => !isDigitalType(t));
  const device: DeviceInput = {
    clientId: row.client_id,
    areaCode: row.area_code,
    invoiceTypes: row.invoice_types,
    perInvoiceLimit: row.per_invoice_limit,
    monthlyQuota: row.monthly_quota,
    online: row.online,
    locked: row.locked,
    active: row.status === 'active',
    quotaUsed: '0.00',
    firstSeq: Number(row.last_seq ?? 0) + 1,
    ...(older.length > 0 ? { stock: Object.fromEntries(older.map((t) => [t, 100])) } : {}),
    ...overrides,
  };
  return bureauCall(bureauUrl, 'PUT', `/devices/${deviceId}`, device);
}

/** The device's next issue requests at the bureau meet `fault` (see BureauFault for what each does). */
export function setFault(
  bureauUrl: string,
  deviceId: number,
  fault: BureauFault,
  opts: {
    count?: number | null;
    code?: string;
    message?: string;
    visibleAfterMs?: number;
    holdMs?: number;
    httpStatus?: number;
  } = {},
): Promise<unknown> {
  return bureauCall(bureauUrl, 'POST', '/faults', { deviceId, fault, ...opts });
}

/** What the bureau knows of a serial (its own answer, not the channel's reading of it). */
export const bureauSerial = (bureauUrl: string, clientId: number, serialNo: string): Promise<any> =>
  bureauCall(bureauUrl, 'GET', `/invoices/${clientId}/${encodeURIComponent(serialNo)}`);

/** The bureau's view of a device. */
export const bureauDevice = (bureauUrl: string, deviceId: number): Promise<any> =>
  bureauCall(bureauUrl, 'GET', `/devices/${deviceId}`);

/** An issued invoice by its numbers at the bureau: `{invoice, buyerUsed, voidedAt, voidReason}`. */
export const bureauNumbers = (
  bureauUrl: string,
  q: { clientId: number; invoiceCode: string; invoiceNo: string },
): Promise<any> =>
  bureauCall(
    bureauUrl,
    'GET',
    `/numbers?${new URLSearchParams({ clientId: String(q.clientId), invoiceCode: q.invoiceCode, invoiceNo: q.invoiceNo })}`,
  );

/** The buyer confirms use of (勾选) or books (入账) an invoice at the bureau, or takes it back. */
export const bureauBuyerUse = (
  bureauUrl: string,
  q: { clientId: number; invoiceCode: string; invoiceNo: string; used: boolean },
): Promise<any> => bureauCall(bureauUrl, 'POST', '/buyer-use', q);
