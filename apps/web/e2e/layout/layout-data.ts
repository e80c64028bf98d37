import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expect, HOTEL, issueDigitalInvoice } from '../fixtures.ts';

// Rows for the layout specs (the e2e database has no demo history, so the clerk's tables start
// empty): text longer than any column gives it, six-figure amounts, 20-digit numbers.

/** A buyer name longer than any column gives it: a table must end it in …, not widen. */
export const LONG_BUYER = '杭州西湖畔超长名称酒店管理有限公司滨江区钱塘江南岸国际会议中心分公司';
/** A batch file name longer than the 文件 column. */
export const LONG_FILE = '2026年11月文三路总部客户批量开票数据（第一批次，已核对金额与税率）.xlsx';

/** A blue 数电 普票 of the signed-in store through the issuing API: ¥106,000.00 to LONG_BUYER. */
export async function issueLongBuyerInvoice(page: Page): Promise<void> {
  await issueDigitalInvoice(page, {
    serialPrefix: 'E2ELAYOUT',
    buyer: { title_type: 1, name: LONG_BUYER, tax_code: HOTEL.taxCode },
    amount: 100000,
  });
}

/**
 * On /invoice/batch: uploads the page's template filled with one invoice of ¥123,456.78 under
 * LONG_FILE and waits for its dry run (the batch stays in the records as 待开票).
 */
export async function uploadLongNamedBatch(page: Page): Promise<void> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: /下载模板/ }).click();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await fs.readFile((await (await downloading).path())!)) as unknown as ExcelJS.Buffer);
  const setter = (ws: ExcelJS.Worksheet) => {
    const at = new Map<string, number>();
    ws.getRow(1).eachCell((c, i) => at.set(String(c.value).replace(/\*$/, ''), i));
    return (header: string, value: string) => {
      ws.getRow(2).getCell(at.get(header)!).value = value;
    };
  };
  const invoice = setter(wb.getWorksheet('发票信息')!);
  invoice('流水号', 'E2ELAYOUT1');
  invoice('购买方类型', '个人');
  invoice('购买方名称', LONG_BUYER);
  const line = setter(wb.getWorksheet('商品明细')!);
  line('流水号', 'E2ELAYOUT1');
  line('项目名称', '软件开发服务');
  line('税收分类编码', '3040201010000000000');
  line('金额', '123456.78');
  line('税率', '6%');
  await page.locator('input[type="file"]').setInputFiles({
    name: LONG_FILE,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await wb.xlsx.writeBuffer()),
  });
  await page.getByRole('button', { name: '上传并校验' }).click();
  await expect(page.getByLabel('开票预览')).toBeVisible();
}
