import { describe, expect, it } from 'vitest';
import { BATCH_CODE, CATALOG_CODE } from '../errors/codes.ts';
import { messageFor } from '../errors/messages.ts';
import { BATCH_LIMITS } from '../schemas/batch.ts';
import { IMPORT_LIMITS } from '../schemas/goods.ts';
import { INVOICE_TYPES } from '../schemas/invoice.ts';
import { INVOICE_LINE_LIMITS, lineLimitIssue, maxInvoiceLines, tooManyLinesMessage } from './line-limits.ts';

describe('invoice line limits', () => {
  it('数电 2000, paper 8, the other electronic kinds 100', () => {
    expect(INVOICE_LINE_LIMITS).toEqual({ digital: 2000, paper: 8, electronic: 100 });
    const byKind = Object.fromEntries(Object.keys(INVOICE_TYPES).map((t) => [t, maxInvoiceLines(t)]));
    expect(byKind).toEqual({
      '81': 2000,
      '82': 2000,
      '004': 8,
      '007': 8,
      '025': 8,
      '026': 100,
      '028': 100,
      '032': 100,
    });
    expect(maxInvoiceLines('999')).toBe(100);
  });

  it('says the limit, paper kinds by name', () => {
    expect(tooManyLinesMessage(8)).toBe('纸质发票最多8行项目明细，请拆分开具');
    expect(tooManyLinesMessage(100)).toBe('该票种最多100行项目明细，请拆分开具');
    expect(tooManyLinesMessage(2000)).toBe('该票种最多2000行项目明细，请拆分开具');
  });

  it('an issue on goods_info only past the limit', () => {
    expect(lineLimitIssue('007', 8)).toBeNull();
    expect(lineLimitIssue('007', 9)).toEqual({
      field: 'goods_info',
      message: '纸质发票最多8行项目明细，请拆分开具',
    });
    expect(lineLimitIssue('026', 100)).toBeNull();
    expect(lineLimitIssue('026', 101)?.message).toBe('该票种最多100行项目明细，请拆分开具');
    expect(lineLimitIssue('82', 2000)).toBeNull();
    expect(lineLimitIssue('82', 2001)?.message).toBe('该票种最多2000行项目明细，请拆分开具');
  });

  it('the upload limits the error messages name are the constants', () => {
    expect(messageFor(CATALOG_CODE.IMPORT_TOO_MANY_ROWS)).toBe(
      `单次最多导入${IMPORT_LIMITS.rows}行，请拆分文件后再导入`,
    );
    expect(messageFor(CATALOG_CODE.IMPORT_TOO_MANY_ROWS)).toContain('5000');
    expect(messageFor(BATCH_CODE.TOO_MANY)).toBe(
      '单次最多上传10000张发票、100000行商品明细，请拆分文件后再上传',
    );
    expect(messageFor(BATCH_CODE.FILE_TOO_LARGE)).toBe(
      `文件不能超过${BATCH_LIMITS.fileMb}MB，请拆分后再上传`,
    );
  });
});
