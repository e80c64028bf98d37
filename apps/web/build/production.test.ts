import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'vite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import viteConfig from '../vite.config.ts';
import { DEV_ONLY, productionBuild } from './production.ts';

const WEB = path.resolve(import.meta.dirname, '..');
const TMP = path.resolve(WEB, '../../.tmp');

describe('the web build is always a production build (issue 11 item 1)', () => {
  let nodeEnv: string | undefined;
  beforeEach(() => {
    nodeEnv = process.env.NODE_ENV;
  });
  afterEach(() => {
    process.env.NODE_ENV = nodeEnv;
  });

  it("the console's Vite config builds with the production plugin and precompression", () => {
    const names = (viteConfig.plugins ?? []).flat().map((p) => (p as Plugin).name);
    expect(names).toContain('kaipiao:production-build');
    expect(names).toContain('kaipiao:precompress');
  });

  it('forces NODE_ENV=production for a build, whatever the shell set', () => {
    process.env.NODE_ENV = 'development';
    const plugin = productionBuild();
    expect(plugin.apply).toBe('build'); // the dev server keeps its development runtime
    (plugin.config as () => void)();
    expect(process.env.NODE_ENV).toBe('production');
  });

  it('NODE_ENV=development + vite.config.ts: React production runtime, .br/.gz twins', async () => {
    // a one-component app built with the console's own config file
    await fs.mkdir(TMP, { recursive: true });
    const root = await fs.mkdtemp(path.join(TMP, 'web-build-'));
    try {
      await fs.writeFile(
        path.join(root, 'index.html'),
        '<!doctype html><div id="root"></div><script type="module" src="/main.tsx"></script>',
      );
      await fs.writeFile(
        path.join(root, 'main.tsx'),
        "import { createRoot } from 'react-dom/client';\n" +
          "createRoot(document.getElementById('root')!).render(<ul>{[1, 2].map((n) => <li>{n}</li>)}</ul>);\n",
      );
      process.env.NODE_ENV = 'development';
      await build({
        configFile: path.join(WEB, 'vite.config.ts'),
        root,
        logLevel: 'silent',
        build: { outDir: path.join(root, 'dist'), emptyOutDir: true },
      });
      const assets = await fs.readdir(path.join(root, 'dist', 'assets'));
      const main = assets.find((f) => /^index-[\w-]+\.js$/.test(f))!;
      const code = await fs.readFile(path.join(root, 'dist', 'assets', main), 'utf8');
      for (const marker of DEV_ONLY) expect(code.includes(marker), marker).toBe(false);
      // React's production runtime is about 190 kB minified; the development one well over 500 kB
      expect(code.length).toBeLessThan(300_000);
      expect(existsSync(path.join(root, 'dist', 'assets', `${main}.br`))).toBe(true);
      expect(existsSync(path.join(root, 'dist', 'assets', `${main}.gz`))).toBe(true);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
