import { describe, expect, it } from 'vitest';
import { bigBatchFile } from '../../../test/fixtures/batches.ts';
import { handXlsx, sheetXml } from '../../../test/xlsx-helpers.ts';
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
      expect(r.values.kind).toBe('电子发票（普通发票）');
      expect(r.values.buyer_type).toBe('企业');
    }
    for (const r of parsed.lines) expect(r.values.name).toBe('软件开发服务');
  }, 60_000);
});

describe('parseBatchFile (earlier templates)', () => {
  it('still reads the 商品简称 column under the header of earlier templates (issue 24 item 4)', async () => {
    const invoices = ['流水号', '购买方类型', '购买方名称'];
    const lines = ['流水号', '项目名称', '税收分类编码', '分类简称', '税率']; // glossary-allow: the earlier header
    const file = handXlsx({
      sheets: [
        { name: '发票信息', xml: sheetXml([invoices, ['A1', '企业', '杭州测试客户有限公司']]) },
        {
          name: '商品明细',
          xml: sheetXml([lines, ['A1', '软件开发服务', '3040201010000000000', '软件', '6%']]),
        },
      ],
    });
    const parsed = await parseBatchFile('old.xlsx', file);
    expect(parsed.fatal).toBeNull();
    expect(parsed.lines.map((r) => r.values.short_name)).toEqual(['软件']);
  });
});
