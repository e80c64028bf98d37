import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isRunning, readPidFile } from '../src/db/embedded.ts';
import { answering, api, freePort, login, type Server, start } from './server-process.ts';

const servers: Server[] = [];
let dataDir = '';
afterAll(async () => {
  for (const s of servers) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      s.child.kill('SIGINT');
      await s.exited;
    }
  }
  if (dataDir) {
    // a postgres this test left behind (a failed assertion) is stopped before its files go
    const left = await readPidFile(path.join(dataDir, 'postgres', 'pg')).catch(() => null);
    if (left && (await isRunning(left.pid))) process.kill(left.pid, 'SIGINT');
    await new Promise((r) => setTimeout(r, 1000));
    await rm(dataDir, { recursive: true, force: true });
  }
});

/**
 * Issue 21 (M4): `kill -9` of the server leaves its embedded PostgreSQL running; the FIRST start
 * after it must come up (stop the orphan, start again) with the data of before.
 */
it('comes up on the first start after the server was killed with SIGKILL, data intact', async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'kp-crash-'));
  await chmod(dataDir, 0o755); // as root, the postgres user must be able to enter it
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;

  const first = start(dataDir, port);
  servers.push(first);
  await answering(first, url);
  const token = await login(url);
  const before = await api(url, '/v3/user/client-list', {}, token);
  expect(before.code).toBe(0);

  const pidFile = await readPidFile(path.join(dataDir, 'postgres', 'pg'));
  expect(pidFile).not.toBeNull();
  first.child.kill('SIGKILL'); // the node process only: its postgres stays behind
  await first.exited;
  expect(await isRunning(pidFile!.pid)).toBe(true);

  const second = start(dataDir, port);
  servers.push(second);
  await answering(second, url);
  expect(second.output()).toMatch(/PostgreSQL left running by a stopped server/);
  expect(await isRunning(pidFile!.pid)).toBe(false);
  // the session and the tenant of before: the same answer with the token issued before the kill
  const after = await api(url, '/v3/user/client-list', {}, token);
  expect(after).toEqual(before);

  second.child.kill('SIGINT');
  expect(await second.exited).toBe(0);
}, 240_000);
