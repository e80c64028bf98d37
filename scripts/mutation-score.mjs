// The mutation score of a module from its reports (whole-module and per-file ones, the newest per
// file): node scripts/mutation-score.mjs <module>. Score = (killed + timeout) / (all − ignored − errors),
// Stryker's "total" (no-coverage mutants count as survivors).
import fs from 'node:fs';
import path from 'node:path';

const name = process.argv[2];
const dir = 'reports/mutation';
const reports = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.json') && !f.endsWith('.incremental.json'))
  .filter((f) => f === `${name}.json` || f.startsWith(`${name}.`))
  .map((f) => ({ f, at: fs.statSync(path.join(dir, f)).mtimeMs }))
  .sort((a, b) => a.at - b.at);
const files = new Map();
for (const { f } of reports) {
  const json = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  for (const [file, r] of Object.entries(json.files)) files.set(file, r.mutants);
}
const count = (ms, ...s) => ms.filter((m) => s.includes(m.status)).length;
let tk = 0;
let tv = 0;
for (const [file, ms] of [...files].sort()) {
  const k = count(ms, 'Killed', 'Timeout');
  const valid = ms.length - count(ms, 'Ignored', 'CompileError', 'RuntimeError');
  tk += k;
  tv += valid;
  const sv = count(ms, 'Survived');
  const nc = count(ms, 'NoCoverage');
  console.log(
    `${path.basename(file).padEnd(22)} ${((100 * k) / valid).toFixed(1).padStart(5)}%  ${k}/${valid} (survived ${sv}, no coverage ${nc})`,
  );
}
console.log(`${'all'.padEnd(22)} ${((100 * tk) / tv).toFixed(1).padStart(5)}%  ${tk}/${tv}`);
