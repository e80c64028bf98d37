import { execFile } from 'node:child_process';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from './secret-box.ts';

const run = promisify(execFile);
const HERE = import.meta.dirname;

describe('secret box', () => {
  it('seals and opens with the key it creates, and the key file is whole', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kp-secret-'));
    const sealed = await sealSecret(dir, '税局密码123');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(await openSecret(dir, sealed)).toBe('税局密码123');
    const key = Buffer.from((await readFile(path.join(dir, 'secret.key'), 'utf8')).trim(), 'base64');
    expect(key.length).toBe(32);
    // no temporary files left behind
    expect(await readdir(dir)).toEqual(['secret.key']);
  });

  it('gives processes starting together one key (none reads a file still being written)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kp-secret-'));
    const script = `
      import { sealSecret } from ${JSON.stringify(path.join(HERE, 'secret-box.ts'))};
      process.stdout.write(await sealSecret(${JSON.stringify(dir)}, 'same'));`;
    const tsx = path.resolve(HERE, '../../../../node_modules/tsx/dist/esm/index.mjs');
    const outs = await Promise.all(
      Array.from({ length: 6 }, () =>
        run(process.execPath, ['--import', tsx, '--input-type=module', '-e', script]).then((r) => r.stdout),
      ),
    );
    // every process's sealed text opens with the key on disk
    for (const sealed of outs) expect(await openSecret(dir, sealed)).toBe('same');
  }, 60_000);

  it('waits for a key file another process is still writing', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kp-secret-'));
    const file = path.join(dir, 'secret.key');
    const key = randomBytes(32);
    await writeFile(file, ''); // created, content not written yet
    setTimeout(() => void writeFile(file, key.toString('base64')), 150);
    const sealed = await sealSecret(dir, 'later');
    // sealed with the key that arrived, not with an empty one
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.split('.')[1]!, 'base64url'));
    d.setAuthTag(Buffer.from(sealed.split('.')[2]!, 'base64url'));
    expect(
      Buffer.concat([d.update(Buffer.from(sealed.split('.')[3]!, 'base64url')), d.final()]).toString(),
    ).toBe('later');
  });

  it('refuses a key file that is not a 32-byte key instead of encrypting with it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kp-secret-'));
    await writeFile(path.join(dir, 'secret.key'), 'c2hvcnQ=');
    await expect(sealSecret(dir, 'x')).rejects.toThrow(/32-byte/);
  });
});
