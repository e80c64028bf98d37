import fs from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { CLERK, expect, loginAs, openFromMenu, screenshot, test } from '../fixtures.ts';

const INVOICES = 24;

/** Fills the downloaded template: INVOICES invoices, two lines each, one of them over the limit. */
async function fill(template: Buffer): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ExcelJS.Buffer);
  const col = (ws: ExcelJS.Worksheet) => {
    const map = new Map<string, number>();
    ws.getRow(1).eachCell((c, i) => map.set(String(c.value).replace(/\*$/, ''), i));
    return (row: number, header: string, value: string) => {
      ws.getRow(row).getCell(map.get(header)!).value = value;
    };
  };
  const inv = wb.getWorksheet('发票信息')!;
  const lines = wb.getWorksheet('商品明细')!;
  const setInv = col(inv);
  const setLine = col(lines);
  let lineRow = 2;
  for (let i = 1; i <= INVOICES; i++) {
    const serial = `E2E${i}`;
    setInv(i + 1, '流水号', serial);
    setInv(i + 1, '购买方类型', '个人');
    setInv(i + 1, '购买方名称', `测试客户${i}`);
    for (const [name, amount] of [
      ['软件开发服务', i === 1 ? '1100000' : '1060'],
      ['运维服务', '99.99'],
    ] as const) {
      setLine(lineRow, '流水号', serial);
      setLine(lineRow, '项目名称', name);
      setLine(lineRow, '税收分类编码', '3040201010000000000');
      setLine(lineRow, '金额', amount);
      setLine(lineRow, '税率', '6%');
      lineRow++;
    }
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test.describe('batch issuing (/invoice/batch)', () => {
  test('a clerk uploads a filled template, sees the report of a bad file, and watches the batch to done', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    await loginAs(page, CLERK.account);
    const equipment = page.waitForRequest(/\/v3\/client-store\/get-tax-equipment/);
    await openFromMenu(page, /\/invoice\/batch$/, '批量开票', '开票管理');
    // the store's 数电 account, as the page lists it (the sandbox is slowed down on it below)
    const devices = (await (await page.request.get((await equipment).url())).json()) as {
      data: { device_id: number; kind: string }[];
    };
    const deviceId = devices.data.find((d) => d.kind === 'digital')!.device_id;
    await expect(page.getByRole('heading', { name: '批量开票', level: 1 })).toBeVisible();
    await expect(
      page.locator('.ant-select:has(input[aria-label="开票设备"]) .ant-select-selection-item'),
    ).toHaveText('数电账户（电子发票服务平台）在线');
    await expect(page.getByRole('radio', { name: '电子发票（普通发票）' })).toBeChecked();

    // the template from the page
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: /下载模板/ }).click();
    const template = await fs.readFile((await (await downloading).path())!);
    const good = await fill(template);

    // a broken file first: the report, nothing issued
    const bad = await fill(template);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bad as unknown as ExcelJS.Buffer);
    wb.getWorksheet('商品明细')!.getCell('I3').value = 'abc';
    const upload = page.locator('input[type="file"]');
    await upload.setInputFiles({
      name: '批量开票.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await wb.xlsx.writeBuffer()),
    });
    await page.getByRole('button', { name: '上传并校验' }).click();
    const report = page.getByLabel('校验报告');
    await expect(report.getByText('金额须为数字')).toBeVisible();
    await screenshot(page, 'batch-report');

    // the good file: dry run with the split
    await upload.setInputFiles({
      name: '批量开票.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: good,
    });
    await page.getByRole('button', { name: '上传并校验' }).click();
    const preview = page.getByLabel('开票预览');
    await expect(preview).toBeVisible();
    await expect(page.getByText(`文件校验通过：${INVOICES} 张发票`)).toBeVisible();
    await expect(page.getByLabel('拆分明细').getByText('E2E1', { exact: true })).toBeVisible();
    await screenshot(page, 'batch-dry-run');

    // slow the sandbox down a little so the run can be watched
    await request.post('/v3/dev/channel/control', { data: { device_id: deviceId, latency_ms: 150 } });
    await page.getByRole('button', { name: '开始开票' }).click();
    await page.getByRole('button', { name: '开始开票' }).last().click();
    const progress = page.getByLabel('开票进度', { exact: true });
    await expect(progress.getByText('开票中')).toBeVisible();
    await screenshot(page, 'batch-running');
    await expect(progress.getByText('已完成', { exact: true })).toBeVisible({ timeout: 120_000 });
    await request.post('/v3/dev/channel/control', { data: { device_id: deviceId, latency_ms: 0 } });
    await expect(progress.getByRole('progressbar')).toBeVisible();
    await screenshot(page, 'batch-done');

    // the result file
    const result = page.waitForEvent('download');
    await progress.getByRole('button', { name: /下载开票结果/ }).click();
    const rows = new ExcelJS.Workbook();
    await rows.xlsx.readFile((await (await result).path())!);
    expect(rows.worksheets[0]!.rowCount).toBeGreaterThan(INVOICES);
  });
});
