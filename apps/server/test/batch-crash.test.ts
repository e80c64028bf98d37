import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, inject, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Issue 4's crash test (test/batch-crash.ts, also `npm run test:batch-crash`): the real server as
 * a child process on a database of its own, a 2,000-invoice batch, SIGKILL at 5 random points with
 * a restart after each; every row issued exactly once, numbers contiguous per device.
 */
it('issues every row of a 2,000-invoice batch exactly once through 5 SIGKILLs', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/test/batch-crash.ts'], {
    cwd: ROOT,
    env: { ...process.env, TEST_DATABASE_URL: inject('pgAdminUrl') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr.on('data', (b: Buffer) => {
    out += b.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) console.log(out);
  expect(code).toBe(0);
  expect(out).toMatch(/PASS: 2000 rows, 5 SIGKILLs/);
}, 300_000);
