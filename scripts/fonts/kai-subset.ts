/**
 * Makes the committed 楷 font (apps/server/src/modules/documents/fonts/ukai-subset.ttf): the glyphs of
 * AR PL UKai CN (Debian's fonts-arphic-ukai, Arphic Public License) for the characters of every fixed
 * text the invoice prints in 楷 (pdf-labels.ts KAI_TEXTS). Run after adding a label:
 * `npm run fonts:kai` (installs fonts-arphic-ukai and python3-fonttools with apt when missing).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KAI_TEXTS } from '../../apps/server/src/modules/documents/pdf-labels.ts';

const SOURCE = '/usr/share/fonts/truetype/arphic/ukai.ttc';
const OUT = path.resolve(
  import.meta.dirname,
  '../../apps/server/src/modules/documents/fonts/ukai-subset.ttf',
);

if (!existsSync(SOURCE) || !existsSync('/usr/lib/python3/dist-packages/fontTools')) {
  execFileSync('apt-get', ['install', '-y', 'fonts-arphic-ukai', 'python3-fonttools'], { stdio: 'inherit' });
}
const chars = [...new Set([...KAI_TEXTS.join('')])].sort().join('');
const dir = mkdtempSync(path.join(tmpdir(), 'kai-'));
writeFileSync(path.join(dir, 'chars.txt'), chars);
execFileSync(
  '/usr/bin/python3',
  [
    '-m',
    'fontTools.subset',
    SOURCE,
    '--font-number=0',
    `--text-file=${path.join(dir, 'chars.txt')}`,
    '--layout-features=',
    '--no-hinting',
    '--name-IDs=*',
    `--output-file=${OUT}`,
  ],
  { stdio: 'inherit' },
);
console.log(`${chars.length} characters → ${OUT}`);
