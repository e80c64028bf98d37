import { describe, expect, it } from 'vitest';
import { bigBatchFile } from '../../../test/fixtures/batches.ts';
import { parseBatchFile } from './parse.ts';

describe('parseBatchFile (streaming)', () => {
  it('keeps Chinese text intact across the compressed chunks of a large sheet', async () => {
    // exceljs's streaming reader alone turns a character cut by a chunk boundary into U+FFFD
    const file = await bigBatchFile({ invoices: 6000, serialPrefix: 'P' });
    const parsed = await parseBatchFile('big.xlsx', file);
    expect(parsed.fatal).toBeNull();
    expect(parsed.invoices).toHaveLength(6000);
    expect(parsed.lines).toHaveLength(6000);
    for (const [i, r] of parsed.invoices.entries()) {
      expect(r.values.buyer_name).toBe(`杭州测试客户P${i + 1}有限公司`);
      expect(r.values.kind).toBe('数电普票');
      expect(r.values.buyer_type).toBe('企业');
    }
    for (const r of parsed.lines) expect(r.values.name).toBe('软件开发服务');
  }, 60_000);
});
