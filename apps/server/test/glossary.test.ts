import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BUYER_TYPE_LABELS, BUYER_TYPE_OPTIONS, RETIRED_WORDINGS, retryIn, TERMS } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';

/**
 * Issue 24 item 4: one wording per term (packages/shared/src/glossary/terms.ts). Walks the product's source — the console and the buyer's H5
 * pages (apps/web/src), the server with its Excel templates, PDFs and messages (apps/server/src) and
 * the shared rules (packages/shared/src) — and fails on any retired wording outside a line marked
 * `glossary-allow` (parsers that still read old uploads). Tests are not product text and are skipped.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DIRS = ['apps/web/src', 'apps/server/src', 'packages/shared/src'];
const SELF = path.join('packages/shared/src/glossary/terms.ts');

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') yield* sourceFiles(p);
    } else if (/\.(ts|tsx|html|json)$/.test(name) && !/\.test\.tsx?$/.test(name)) {
      yield p;
    }
  }
}

describe('glossary', () => {
  it('no retired wording in the product’s text', () => {
    const found: string[] = [];
    let files = 0;
    for (const dir of DIRS) {
      for (const file of sourceFiles(path.join(ROOT, dir))) {
        const rel = path.relative(ROOT, file);
        if (rel === SELF) continue;
        files++;
        for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
          if (line.includes('glossary-allow')) continue;
          for (const w of RETIRED_WORDINGS) {
            if (w.pattern.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()} — use ${w.use}`);
          }
        }
      }
    }
    expect(files).toBeGreaterThan(300);
    expect(found).toEqual([]);
  });

  it('catches each retired wording, and not the glossary’s own', () => {
    const retired = (s: string) => RETIRED_WORDINGS.some((w) => w.pattern.test(s));
    for (const old of [
      '个人/政府事业单位',
      '个人/事业单位',
      '企业单位',
      '119 s后重试',
      '59秒后重试',
      '数电普票',
      '纸质专票',
      '托管数电账号',
      '冲红原因',
      '发票号：',
      '红字信息确认单',
      '商品名称',
      '货物名称',
      '店铺',
      '审核人',
    ]) {
      expect(retired(old), old).toBe(true);
    }
    for (const now of [
      ...Object.values(BUYER_TYPE_LABELS),
      retryIn(59),
      '非企业单位',
      '电子发票（普通发票）',
      ...Object.values(TERMS),
      // the bureau's own field of 货物运输服务 keeps its name
      '运输货物名称',
    ]) {
      expect(retired(now), now).toBe(false);
    }
  });

  it('words the buyer types and the countdown once', () => {
    expect(BUYER_TYPE_OPTIONS.map((o) => [o.value, o.label])).toEqual([
      [2, '企业'],
      [1, '个人/非企业单位'],
    ]);
    expect(retryIn(119)).toBe('119s后重试');
  });
});
