/**
 * Benchmark (issue 3): invoice PDF render time with the embedded CJK fonts (Noto Serif SC and the
 * AR PL UKai subset, subset again per document) against the same layout in the built-in Helvetica (Latin placeholder text: every non-ASCII
 * character printed as X), measured in the same run. Prints per-invoice times and the ratio
 * (target ≤ 10×), the PDF sizes, and writes a sample PDF (+ PNG when pdftoppm is installed) to
 * .tmp/shots/. Run with `npm run bench` (or `npx tsx bench/pdf-render.ts`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { InvoiceDocData } from '../apps/server/src/modules/documents/model.ts';
import { renderInvoicePdf } from '../apps/server/src/modules/documents/pdf.ts';
import { sampleInvoice } from '../apps/server/src/modules/documents/sample.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SHOTS = path.join(ROOT, '.tmp/shots');
const N = Number(process.env.BENCH_PDF_N ?? 60);

type Stats = { mean: number; p50: number; p95: number; size: number };

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

type Variant = 'cjk' | 'Helvetica';
const VARIANTS: Variant[] = ['cjk', 'Helvetica'];
const optionsOf = (v: Variant) => ({ font: v });

async function measure(inv: InvoiceDocData, v: Variant): Promise<number> {
  const t = performance.now();
  await renderInvoicePdf(inv, optionsOf(v));
  return performance.now() - t;
}

/** Interleaved rounds, so drift on a shared machine hits every variant alike. */
async function compare(label: string, inv: InvoiceDocData) {
  const times: Record<Variant, number[]> = { cjk: [], Helvetica: [] };
  // warm-up: font parse, JIT, glyph caches
  for (let i = 0; i < 5; i++) for (const v of VARIANTS) await measure(inv, v);
  for (let i = 0; i < N; i++) for (const v of VARIANTS) times[v].push(await measure(inv, v));
  const stats = async (v: Variant): Promise<Stats> => {
    const sorted = [...times[v]].sort((a, b) => a - b);
    const size = (await renderInvoicePdf(inv, optionsOf(v))).length;
    return {
      mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
      p50: pct(sorted, 0.5),
      p95: pct(sorted, 0.95),
      size,
    };
  };
  const cjk = await stats('cjk');
  const latin = await stats('Helvetica');
  const f = (v: number) => `${v.toFixed(1).padStart(6)} ms`;
  const row = (name: string, s: Stats) =>
    console.log(
      `  ${name.padEnd(44)} mean ${f(s.mean)}  p50 ${f(s.p50)}  p95 ${f(s.p95)}  ${(s.size / 1024).toFixed(1).padStart(5)} KB`,
    );
  console.log(`\n${label} (${N} renders each, interleaved)`);
  row('CJK, Noto Serif SC + UKai subsets (as shipped)', cjk);
  row('Helvetica, built-in (baseline)', latin);
  const ratio = cjk.p50 / latin.p50;
  console.log(
    `  ratio CJK / Helvetica: ${ratio.toFixed(2)}× (p50), ${(cjk.mean / latin.mean).toFixed(2)}× (mean)  target ≤ 10×  ${ratio <= 10 ? 'OK' : 'OVER'}`,
  );
  return { cjk, latin, ratio };
}

async function main() {
  const first = performance.now();
  const sample = sampleInvoice();
  const pdf = await renderInvoicePdf(sample);
  console.log(
    `first render (parses the 15 MB TTF once per process): ${(performance.now() - first).toFixed(0)} ms`,
  );

  await compare('normal invoice, 2 lines', sample);
  await compare('20 lines', sampleInvoice({}, 20));
  await compare('100 lines, 3 pages', sampleInvoice({}, 100));

  mkdirSync(SHOTS, { recursive: true });
  const pdfPath = path.join(SHOTS, 'invoice-sample.pdf');
  writeFileSync(pdfPath, pdf);
  console.log(
    `\nsample PDF: ${path.relative(ROOT, pdfPath)} (${(pdf.length / 1024).toFixed(1)} KB, < 200 KB: ${pdf.length < 200 * 1024 ? 'OK' : 'OVER'})`,
  );
  if (existsSync('/usr/bin/pdftoppm')) {
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '150',
      '-singlefile',
      pdfPath,
      path.join(SHOTS, 'invoice-sample'),
    ]);
    console.log(`sample PNG: ${path.relative(ROOT, path.join(SHOTS, 'invoice-sample.png'))}`);
  } else {
    console.log('sample PNG: skipped, pdftoppm not installed (apt-get install poppler-utils)');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
