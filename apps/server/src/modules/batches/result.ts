import { PassThrough } from 'node:stream';
import { BATCH_KIND_LABELS, BATCH_ROW_STATUS, BATCH_STATUS, beijingDateTime, TERMS } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { loadExcelJS } from '../../lib/heavy-modules.ts';
import { allRows, type BatchRecord } from './repo.ts';

export const RESULT_HEADERS = [
  '序号',
  '文件流水号',
  '发票信息行号',
  '拆分',
  '开票流水号',
  TERMS.invoiceKind,
  `${TERMS.buyer}名称`,
  TERMS.totalAmount,
  TERMS.totalWithTax,
  '状态',
  TERMS.invoiceCode,
  TERMS.invoiceNo,
  TERMS.issueTime,
  '失败原因',
] as const;

const WIDTHS = [8, 20, 12, 8, 22, 12, 32, 14, 14, 10, 14, 24, 20, 40];

const beijing = (d: Date | string | null) => (d ? beijingDateTime(d) : '');

/**
 * The result download (GET /v3/batch-invoice/result): one row per invoice of the batch with its
 * number, status and error, written with exceljs's streaming writer as the rows are read.
 */
export function resultWorkbook(db: Db, batch: BatchRecord): PassThrough {
  const out = new PassThrough();
  void (async () => {
    const { stream } = await loadExcelJS();
    const wb = new stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    wb.creator = '开票台';
    const ws = wb.addWorksheet('开票结果', { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = RESULT_HEADERS.map((h, i) => ({ header: h, width: WIDTHS[i] }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    for await (const rows of allRows(db, batch.id)) {
      for (const r of rows) {
        ws.addRow([
          r.seq,
          r.source_serial,
          r.source_row,
          r.part_count > 1 ? `${r.part_no}/${r.part_count}` : '',
          r.serial_no,
          BATCH_KIND_LABELS[r.invoice_type] ?? r.invoice_type,
          r.buyer_name,
          Number(r.total_amount).toFixed(2),
          Number(r.total_with_tax).toFixed(2),
          BATCH_ROW_STATUS[r.status] ?? r.status,
          r.invoice_code,
          r.invoice_no ?? '',
          beijing(r.issued_at),
          r.status === 'issued' ? '' : (r.error_message ?? ''),
        ]).commit();
      }
    }
    ws.commit();
    const summary = wb.addWorksheet('批次信息');
    summary.addRow(['批次号', batch.id]).commit();
    summary.addRow(['文件', batch.file_name]).commit();
    summary.addRow(['批次状态', BATCH_STATUS[batch.status] ?? batch.status]).commit();
    summary.addRow(['上传时间', beijing(batch.created_at)]).commit();
    summary.commit();
    await wb.commit();
  })().catch((err: unknown) => out.destroy(err as Error));
  return out;
}
