import { formatAmount, toChineseCapital } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import { redOf } from '../../../test/fixtures/documents.ts';
import { normalizeSpecific, showBankOf } from './model.ts';
import { renderInvoicePdf } from './pdf.ts';
import { KAI_TEXTS, sealBureau } from './pdf-labels.ts';
import { planPages, rowsFor } from './pdf-layout.ts';
import { KAI_FONT_PATH, loadFont } from './pdf-pen.ts';
import { extractPdfText, pdfTextItems } from './pdf-text.ts';
import { assembleRemark, REMARK_SEPARATOR, remarkLines } from './remark.ts';
import { SAMPLE_SPECIFIC, sampleInvoice } from './sample.ts';

const pageSizes = async (pdf: Buffer) => {
  const latin = pdf.toString('latin1');
  return [...latin.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) =>
    [Number(m[1]), Number(m[2])].map((v) => Math.round((v / 72) * 25.4 * 100) / 100),
  );
};

describe('pages (§三 1.5)', () => {
  it('grows the single page by 17.5 mm per 4 lines past 8, by 8.75 mm for 41-42, and pages beyond', () => {
    expect([1, 8, 9, 12, 13, 40, 41, 42].map(rowsFor)).toEqual([8, 8, 12, 12, 16, 40, 42, 42]);
    expect(planPages(42)).toEqual([42]);
    // 43-47 lines: the last line and 备注 go to a second page
    expect(planPages(43)).toEqual([42, 1]);
    expect(planPages(47)).toEqual([46, 1]);
    expect(planPages(48)).toEqual([47, 1]);
    expect(planPages(100)).toEqual([47, 47, 6]);
    expect(planPages(88)).toEqual([47, 40, 1]);
  });

  it('draws 140 mm for 8 lines, 157.5 mm for 9, 288.75 mm for 42 and for every page of more', async () => {
    expect(await pageSizes(await renderInvoicePdf(sampleInvoice({}, 8)))).toEqual([[210, 140]]);
    expect(await pageSizes(await renderInvoicePdf(sampleInvoice({}, 9)))).toEqual([[210, 157.5]]);
    expect(await pageSizes(await renderInvoicePdf(sampleInvoice({}, 42)))).toEqual([[210, 288.75]]);
    expect(await pageSizes(await renderInvoicePdf(sampleInvoice({}, 100)))).toEqual([
      [210, 288.75],
      [210, 288.75],
      [210, 288.75],
    ]);
  });

  it('prints 共X页 第X页 and 小 计 on every page; 合 计, 价税合计 and 备注 on the last only', async () => {
    const inv = sampleInvoice({}, 100);
    const pages = (await extractPdfText(await renderInvoicePdf(inv))).split('\n\f\n');
    expect(pages).toHaveLength(3);
    pages.forEach((p, i) => {
      expect(p).toContain(`共3页 第${i + 1}页`);
      expect(p).toMatch(/^小 计 ¥[\d.]+ ¥[\d.]+$/m);
      expect(p).toContain(`购 名称：${inv.buyer.name}`);
    });
    const count = (p: string) => (p.match(/\*信息技术服务\*/g) ?? []).length;
    expect(pages.map(count)).toEqual([47, 47, 6]);
    expect(pages[0]).not.toContain('价税合计');
    expect(pages[0]).not.toContain('合 计');
    expect(pages[0]).not.toContain('项目编号');
    expect(pages[2]).toContain(`合 计 ¥${inv.totalAmount} ¥${inv.totalTax}`);
    expect(pages[2]).toContain(toChineseCapital(inv.totalWithTax));
    expect(pages[2]).toContain('项目编号');
    // page 1 小计: 24 × 9433.96 + 23 × 566.04
    expect(pages[0]).toContain(`小 计 ¥${formatAmount(((24 * 943396 + 23 * 56604) / 100).toFixed(2))}`);
    const one = await extractPdfText(await renderInvoicePdf(sampleInvoice({}, 42)));
    expect(one).not.toContain('\f');
    expect(one).not.toContain('共1页');
    expect(one).not.toContain('小 计');
  });
});

describe('备注 (§三 1.6)', () => {
  const base = sampleInvoice({
    buyer: { ...sampleInvoice().buyer, bankName: '工商银行', bankAccount: '6222' },
  });

  it('prints bank details only when asked for, each side on its own line', () => {
    expect(remarkLines(base).join('\n')).not.toContain('开户银行');
    expect(remarkLines({ ...base, showBank: { buyer: true, seller: false } })).toContain(
      `购方开户银行:工商银行;${REMARK_SEPARATOR}银行账号:6222;`,
    );
    const both = remarkLines({ ...base, showBank: { buyer: true, seller: true } });
    expect(both.filter((l) => l.includes('开户银行'))).toEqual([
      '购方开户银行:工商银行;    银行账号:6222;',
      '销方开户银行:招商银行杭州分行;    银行账号:571908765410001;',
    ]);
    expect(showBankOf({ show_bank: { buyer: true } })).toEqual({ buyer: true, seller: false });
    expect(showBankOf(null)).toEqual({ buyer: false, seller: false });
  });

  it("keeps the bureau's order, one item per line, 收款人 and 复核人 together on the last", () => {
    const inv = redOf({
      ...base,
      showBank: { buyer: true, seller: true },
      specific: normalizeSpecific('06', {
        real_static_rent: [
          {
            province: '浙江省',
            city: '杭州市',
            detail_address: '文三路90号',
            lease_period: '2026-01-01 2026-12-31',
            cross_city: 'Y',
            certificate_no: '无',
            plate_no: '',
            area_unit: '平方米',
          },
        ],
      }),
    });
    expect(remarkLines(inv).map((l) => l.slice(0, 5))).toEqual([
      '被红冲蓝字',
      '不动产地址',
      '购方开户银',
      '销方开户银',
      '项目编号：',
      '收款人:李',
    ]);
    expect(remarkLines(inv).at(-1)).toBe('收款人:李娜;    复核人:张伟;');
    expect(assembleRemark(inv)).toContain(';    不动产地址');
  });

  it('names the blue invoice once: the reference the red-letter service stored in the remark is not repeated', () => {
    const red = redOf(sampleInvoice());
    const stored = {
      ...red,
      remark: `被红冲蓝字数电发票号码：${red.original!.invoiceNo} 红字发票信息确认单编号：${red.original!.redFormNo}`,
    };
    const lines = remarkLines(stored);
    expect(lines.join('\n').split(red.original!.invoiceNo)).toHaveLength(2);
    expect(lines[0]).toBe(
      `被红冲蓝字数电发票号码：${red.original!.invoiceNo} 红字发票信息确认单编号：${red.original!.redFormNo};`,
    );
    expect(lines.join('\n')).not.toContain('数电票号码');
  });

  it('prints each line of the 备注 box on its own text line', async () => {
    const inv = { ...base, showBank: { buyer: true, seller: false } };
    const text = await extractPdfText(await renderInvoicePdf(inv));
    expect(text).toMatch(/^购方开户银行:工商银行; +银行账号:6222;$/m);
    expect(text).toMatch(/^项目编号：YZ-2026-118$/m);
    expect(text).toMatch(/^收款人:李娜; +复核人:张伟;$/m);
  });
});

describe('cells and special businesses', () => {
  it('shows 免税 with *** tax and 不征税 with a blank tax', async () => {
    const s = sampleInvoice();
    const inv = sampleInvoice({
      lines: [
        { ...s.lines[0]!, zeroRateFlag: '1', taxRate: '0', taxAmount: '0.00' },
        { ...s.lines[1]!, zeroRateFlag: '2', taxRate: '0', taxAmount: '0.00' },
      ],
    });
    const text = await extractPdfText(await renderInvoicePdf(inv));
    expect(text).toMatch(/软件开发服务 V2\.0 项 1 9433\.96226415 9433\.96 免税 \*\*\*$/m);
    expect(text).toMatch(/软件运维服务 月 3 188\.67924528 566\.04 不征税$/m);
  });

  it('prints the 04 transport table and the 09 travellers (ID numbers other than 身份证 masked), no 合计', async () => {
    const s = sampleInvoice();
    const t04 = await extractPdfText(
      await renderInvoicePdf(
        sampleInvoice({
          specific: SAMPLE_SPECIFIC.freight(),
          lines: [{ ...s.lines[0]!, name: '*运输服务*国内道路货物运输服务' }],
        }),
      ),
    );
    expect(t04).toContain('项目名称 单位 数量 单价 金额 税率/征收率 税额');
    expect(t04).toContain('运输工具种类 运输工具牌号 起运地 到达地 运输货物名称');
    expect(t04).toContain('公路运输 浙A12345 杭州市 上海市 服务器');
    expect(t04).not.toContain('规格型号');
    expect(t04).not.toContain('合 计');
    const t09 = await extractPdfText(
      await renderInvoicePdf(
        sampleInvoice({
          specific: SAMPLE_SPECIFIC.passenger(),
        }),
      ),
    );
    expect(t09).toContain('项目名称 单价 数量 金额 税率/征收率 税额');
    expect(t09).toContain('李四 E12***678 2026-11-21 宁波 舟山 二等舱 船舶');
    expect(t09).not.toContain('E12345678');
  });

  it('prints the 06 certificate per line and the lease in 备注', async () => {
    const s = sampleInvoice();
    const t06 = await extractPdfText(
      await renderInvoicePdf(
        sampleInvoice({
          specific: SAMPLE_SPECIFIC.rent(),
          lines: [{ ...s.lines[0]!, name: '*经营租赁*房屋租赁费' }],
        }),
      ),
    );
    expect(t06).toContain('项目名称 产权证书/不动产权证号 面积单位 数量 单价 金额 税率/征收率 税额');
    expect(t06).toContain('*经营租赁*房屋租赁费 浙(2020)0012345号 平方米');
    expect(t06).toContain('租赁期起止：2026-01-01 至 2026-12-31');
    expect(t06).toContain('不动产经营租赁');
  });
});

describe('the old tax-control form (026)', () => {
  it('prints 发票代码, 校验码, 机器编号 and 收款人 / 复核 / 开票人, without padding characters', async () => {
    const inv = sampleInvoice({
      invoiceType: '026',
      title: '增值税电子普通发票',
      digital: false,
      invoiceCode: '033002100111',
      invoiceNo: '01234567',
      checkCode: '12345678901234567890',
      machineNo: '661234567890',
      qrString: '',
    });
    const text = await extractPdfText(await renderInvoicePdf(inv));
    expect(text).toContain('增值税电子普通发票');
    expect(text).toContain('发票代码：033002100111');
    expect(text).toContain('发票号码：01234567');
    expect(text).toContain('校验码：12345 67890 12345 67890');
    expect(text).toContain('机器编号：661234567890');
    expect(text).toMatch(/收款人：李娜 复核：张伟 开票人：王小明 销售方：（章）/);
    expect(text).not.toContain('复核人');
    expect(text).toMatch(/名 称：上海明远贸易有限公司/);
    expect(text).toContain('招商银行杭州分行 571908765410001');
    expect(text).not.toMatch(/[⊗ⓧ\u3000]/);
  });
});

describe('the old form over eight lines', () => {
  it('pages at 8 lines with 共X页 第X页 and 小 计; 合 计 and the capitals on the last page', async () => {
    const inv = sampleInvoice(
      {
        invoiceType: '026',
        title: '增值税电子普通发票',
        digital: false,
        invoiceCode: '033002100111',
        invoiceNo: '01234567',
      },
      20,
    );
    const pages = (await extractPdfText(await renderInvoicePdf(inv))).split('\n\f\n');
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => (p.match(/\*信息技术服务\*/g) ?? []).length)).toEqual([8, 8, 4]);
    pages.forEach((p, i) => {
      expect(p).toContain(`共3页 第${i + 1}页`);
    });
    expect(pages[0]).toMatch(/^小 计 ¥[\d.]+ ¥[\d.]+$/m);
    expect(pages[0]).not.toContain(toChineseCapital(inv.totalWithTax));
    expect(pages[2]).toContain(`合 计 ¥${inv.totalAmount} ¥${inv.totalTax}`);
    expect(pages[2]).toContain(toChineseCapital(inv.totalWithTax));
  });
});

describe('fonts', () => {
  it('has every 楷 character in the committed AR PL UKai subset', () => {
    const kai = loadFont(KAI_FONT_PATH);
    const missing = [...new Set([...KAI_TEXTS.join('')])].filter(
      (c) => !kai.hasGlyphForCodePoint(c.codePointAt(0)!),
    );
    expect(missing).toEqual([]);
  });

  it('embeds the 楷 and 宋 subsets and Courier, names the seal after the seller’s bureau', async () => {
    const pdf = await renderInvoicePdf(sampleInvoice());
    const latin = pdf.toString('latin1');
    expect(latin).toMatch(/\/BaseFont \/[A-Z]{6}\+UKaiCN/);
    expect(latin).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSerifSC/);
    expect(latin).toMatch(/\/BaseFont \/Courier/);
    expect(pdf.length).toBeLessThan(200 * 1024);
    expect(sealBureau('91330106MA2KC7LM1A')).toBe('浙江省税务局');
    expect(sealBureau('91330206MA2KC7LM1A')).toBe('宁波市税务局');
    expect(sealBureau('914403001234567890')).toBe('深圳市税务局');
    expect(sealBureau('330106123456789')).toBe('浙江省税务局');
    // the seal, the watermark and the QR's 税 are pictures: no text run carries them
    const items = (await pdfTextItems(await renderInvoicePdf(redOf(sampleInvoice())))).flat();
    expect(
      items
        .map((i) => i.str)
        .join('')
        .replace('红字发票信息确认单编号', ''),
    ).not.toMatch(/监制章|国家税务总局|红字发票|税务局/);
  });
});
