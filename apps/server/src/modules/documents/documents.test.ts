import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatAmount, toChineseCapital } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import { cffCompactStats } from './cff-compact.ts';
import type { InvoiceDocData } from './model.ts';
import { normalizeSpecific } from './model.ts';
import { renderInvoicePdf } from './pdf.ts';
import { extractPdfText } from './pdf-text.ts';
import { assembleRemark, REMARK_SEPARATOR } from './remark.ts';
import { contentDisposition } from './routes.ts';
import { sampleInvoice } from './sample.ts';
import { embeddedOutlines } from './test-utils.ts';

const neg = (v: string) => (v.startsWith('-') ? v : `-${v}`);
function redOf(inv: InvoiceDocData): InvoiceDocData {
  return {
    ...inv,
    red: true,
    invoiceNo: '26332000000000012399',
    original: { invoiceCode: '', invoiceNo: inv.invoiceNo, redFormNo: '33010826112200000123' },
    lines: inv.lines.map((l) => ({
      ...l,
      amount: neg(l.amount),
      taxAmount: neg(l.taxAmount),
      quantity: l.quantity && neg(l.quantity),
    })),
    totalAmount: neg(inv.totalAmount),
    totalTax: neg(inv.totalTax),
    totalWithTax: neg(inv.totalWithTax),
  };
}

const hasPdftotext = existsSync('/usr/bin/pdftotext');

describe('invoice PDF', () => {
  it('holds the buyer, the number, the date, the lines and 价税合计 in capitals as extractable text', async () => {
    const inv = sampleInvoice();
    const pdf = await renderInvoicePdf(inv);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // the CJK font is embedded as a subset, so a normal invoice stays small
    expect(pdf.length).toBeLessThan(200 * 1024);
    const text = extractPdfText(pdf);
    expect(text).toContain('电子发票（普通发票）');
    expect(text).toContain(inv.buyer.name);
    expect(text).toContain(inv.seller.name);
    expect(text).toContain('91310115MA1H7XXXXQ');
    expect(text).toContain('26332000000000012345');
    expect(text).toContain('2026年11月22日');
    expect(text).toContain('*信息技术服务*软件开发服务');
    expect(text).toContain('9433.96');
    expect(text).toContain('¥10000.00');
    expect(text).toContain('¥600.00');
    expect(text).toContain(toChineseCapital('10600.00'));
    expect(text).toMatch(/价税合计（大写） ⓧ 壹万零陆佰圆整 （小写） ¥10600\.00/);
    expect(text).toContain('开票人： 王小明');
    // 数电: 收款人 / 复核人 are in 备注, not separate boxes
    expect(text).toContain('收款人：李娜');
    expect(text).not.toContain('共1页');
    // the embedded font is a subset and the font program is compressed
    expect(pdf.toString('latin1')).toMatch(/\/FontFile3/);
    expect(pdf.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansHans-Regular/);
  });

  it.skipIf(!hasPdftotext)('reads the same with pdftotext (poppler-utils)', async () => {
    const inv = sampleInvoice();
    const pdf = await renderInvoicePdf(inv);
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
    expect(text).toContain(inv.buyer.name);
    expect(text).toContain(inv.invoiceNo);
    expect(text).toContain('壹万零陆佰圆整');
  });

  it('marks a red invoice and prints its amounts negative with （负数） capitals', async () => {
    const red = redOf(sampleInvoice());
    const text = extractPdfText(await renderInvoicePdf(red));
    expect(text).toContain('红字发票');
    expect(text).toContain('¥-10000.00');
    expect(text).toContain('-9433.96');
    expect(text).toContain('（负数）壹万零陆佰圆整');
    expect(text).toContain('¥-10600.00');
    expect(text).toContain('被红冲蓝字数电票号码：26332000000000012345');
  });

  it('pages more than 42 lines at 47 per page with 共X页 第X页 and 小计; totals and 备注 on the last page only', async () => {
    const inv = sampleInvoice({}, 100);
    const pages = extractPdfText(await renderInvoicePdf(inv)).split('\n\f\n');
    expect(pages).toHaveLength(3);
    pages.forEach((p, i) => {
      expect(p).toContain(`共3页 第${i + 1}页`);
      expect(p).toContain('小　　计');
      expect(p).toContain(inv.buyer.name);
    });
    const count = (p: string) => (p.match(/\*信息技术服务\*/g) ?? []).length;
    expect(pages.map(count)).toEqual([47, 47, 6]);
    expect(pages[0]).not.toContain('价税合计');
    expect(pages[0]).not.toContain('项目编号');
    expect(pages[2]).toContain('合　　计');
    expect(pages[2]).toContain(toChineseCapital(inv.totalWithTax));
    expect(pages[2]).toContain('项目编号');
    // page 1 小计: 24 × 9433.96 + 23 × 566.04
    expect(pages[0]).toContain(`¥${formatAmount(((24 * 943396 + 23 * 56604) / 100).toFixed(2))}`);
    // 42 lines still fit on one (taller) page
    const one = extractPdfText(await renderInvoicePdf(sampleInvoice({}, 42)));
    expect(one).not.toContain('\f');
    expect(one).not.toContain('共1页');
  });

  it('shows 免税 with *** tax and 不征税 with a blank tax', async () => {
    const s = sampleInvoice();
    const inv = sampleInvoice({
      lines: [
        { ...s.lines[0]!, zeroRateFlag: '1', taxRate: '0', taxAmount: '0.00' },
        { ...s.lines[1]!, zeroRateFlag: '2', taxRate: '0', taxAmount: '0.00' },
      ],
    });
    const text = extractPdfText(await renderInvoicePdf(inv));
    expect(text).toMatch(/软件开发服务 V2\.0 项 1 9433\.96226415 9433\.96 免税 \*\*\*/);
    expect(text).toMatch(/软件运维服务 月 3 188\.67924528 566\.04 不征税\n/);
  });

  it('prints the 04 transport rows and the 09 travellers, masking ID numbers other than 身份证', async () => {
    const s = sampleInvoice();
    const t04 = extractPdfText(
      await renderInvoicePdf(
        sampleInvoice({
          specific: normalizeSpecific('04', {
            goods_transport: [
              {
                vehicle_type: '公路运输',
                vehicle_no: '浙A12345',
                origin: '杭州市',
                destination: '上海市',
                goods_name: '服务器',
              },
            ],
          }),
          lines: [{ ...s.lines[0]!, name: '*运输服务*国内道路货物运输服务' }],
        }),
      ),
    );
    expect(t04).toContain('货物运输服务');
    expect(t04).toContain('运输工具种类 运输工具牌号 起运地 到达地 运输货物名称');
    expect(t04).toContain('公路运输 浙A12345 杭州市 上海市 服务器');
    expect(t04).not.toContain('规格型号');

    const t09 = extractPdfText(
      await renderInvoicePdf(
        sampleInvoice({
          specific: normalizeSpecific('09', {
            passenger_transport: [
              {
                traveller: '张三',
                id_type: '201',
                id_no: '11010519491231002X',
                travel_date: '2026-11-20',
                origin: '杭州',
                destination: '宁波',
                vehicle_type: '3',
                seat_class: '',
              },
              {
                traveller: '李四',
                id_type: '208',
                id_no: 'E12345678',
                travel_date: '2026-11-21',
                origin: '宁波',
                destination: '舟山',
                vehicle_type: '7',
                seat_class: '二等舱',
              },
            ],
          }),
        }),
      ),
    );
    expect(t09).toContain('张三 11010519491231002X 2026-11-20 杭州 宁波 长途汽车');
    expect(t09).toContain('李四 E12***678 2026-11-21 宁波 舟山 二等舱 船舶');
    expect(t09).not.toContain('E12345678');
    expect(t09).not.toMatch(/项目名称 规格型号/);
  });

  it('prints the 03 place and project as item columns and the 06 certificate per line', async () => {
    const s = sampleInvoice();
    const t03 = extractPdfText(
      await renderInvoicePdf(
        sampleInvoice({
          specific: normalizeSpecific('03', {
            building_service: {
              place: '浙江省-杭州市-西湖区',
              detail_address: '',
              project_name: '云栈大厦装修工程',
              cross_city: 'N',
              cross_region_no: '',
              land_vat_project_no: '',
            },
          }),
          lines: [{ ...s.lines[0]!, name: '*建筑服务*装饰工程', quantity: null, unitPrice: null }],
        }),
      ),
    );
    expect(t03).toContain('项目名称 建筑服务发生地 建筑项目名称 金额 税率/征收率 税额');
    expect(t03).toContain('*建筑服务*装饰工程 浙江省-杭州市-西湖区 云栈大厦装修工程 9433.96 6% 566.04');
    expect(t03).toContain('跨地（市）标志：否');

    const t06 = extractPdfText(
      await renderInvoicePdf(
        sampleInvoice({
          specific: normalizeSpecific('06', {
            real_static_rent: [
              {
                province: '浙江省',
                city: '杭州市',
                detail_address: '文三路90号',
                lease_period: '2026-01-01 2026-12-31',
                cross_city: 'N',
                certificate_no: '浙(2020)0012345号',
                plate_no: '',
                area_unit: '平方米',
              },
            ],
          }),
          lines: [{ ...s.lines[0]!, name: '*经营租赁*房屋租赁费' }],
        }),
      ),
    );
    expect(t06).toContain('产权证书/不动产权证号 面积单位');
    expect(t06).toContain('*经营租赁*房屋租赁费 浙(2020)0012345号 平方米');
    expect(t06).toContain('租赁期起止：2026-01-01 至 2026-12-31');
  });

  it('lays out an older tax-control kind with code, check code, 密码区 and 收款人/复核人/开票人 boxes', async () => {
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
    const text = extractPdfText(await renderInvoicePdf(inv));
    expect(text).toContain('增值税电子普通发票');
    expect(text).toContain('发票代码： 033002100111');
    expect(text).toContain('发票号码： 01234567');
    expect(text).toContain('校验码： 12345 67890 12345 67890');
    expect(text).toContain('机器编号： 661234567890');
    expect(text).toContain('收款人： 李娜 复核人： 张伟 开票人： 王小明');
    expect(text).toContain('开户行及账号： 招商银行杭州分行 571908765410001');
  });
});

describe('CJK subset', () => {
  // ~2,000 distinct ideographs over the whole URO block, plus Latin, digits and punctuation
  const many = Array.from({ length: 2000 }, (_, i) => String.fromCodePoint(0x4e00 + i * 10)).join('');
  const inv = sampleInvoice({ remark: `${many}ABCxyz0189，。；：“”（）【】¥%` });

  it('renumbers the subset subroutines without changing a single outline', async () => {
    const before = cffCompactStats.compacted;
    const compact = await renderInvoicePdf(inv);
    expect(cffCompactStats.compacted).toBe(before + 1);
    const plain = await renderInvoicePdf(inv, { compactSubsets: false });
    expect(compact.length).toBeLessThan(plain.length);
    const glyphs = embeddedOutlines(compact);
    expect(glyphs.length).toBeGreaterThan(2000);
    const differing = glyphs.filter((g) => g.embedded !== g.source).map((g) => g.text);
    expect(differing).toEqual([]);
    // and the plain fontkit subset agrees with the source too (the check itself is sound)
    expect(embeddedOutlines(plain).filter((g) => g.embedded !== g.source)).toEqual([]);
  });

  it.skipIf(!existsSync('/usr/bin/pdftoppm'))(
    'rasterises identically to the plain subset (pdftoppm)',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'kp-pdf-'));
      const png = async (compactSubsets: boolean) => {
        const base = path.join(dir, compactSubsets ? 'compact' : 'plain');
        writeFileSync(`${base}.pdf`, await renderInvoicePdf(inv, { compactSubsets }));
        execFileSync('pdftoppm', ['-png', '-r', '100', '-singlefile', `${base}.pdf`, base]);
        const image = readFileSync(`${base}.png`);
        expect(image.length).toBeGreaterThan(10_000);
        return image;
      };
      expect(Buffer.compare(await png(true), await png(false))).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    },
  );
});

describe('备注', () => {
  it("follows the bureau's order: red info, specific info, buyer bank, seller bank, user remark, 收款人, 复核人", () => {
    const inv = redOf(
      sampleInvoice({
        buyer: { ...sampleInvoice().buyer, bankName: '工商银行', bankAccount: '6222' },
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
      }),
    );
    const parts = assembleRemark(inv).split(REMARK_SEPARATOR);
    expect(parts.map((p) => p.slice(0, 5))).toEqual([
      '被红冲蓝字',
      '不动产地址',
      '购方开户银',
      '销方开户银',
      '项目编号：',
      '收款人：李',
      '复核人：张',
    ]);
    expect(parts[2]).toBe('购方开户银行：工商银行；银行账号：6222');
  });
});

describe('download file name', () => {
  it('gives an ASCII fallback and the UTF-8 name per RFC 5987', () => {
    const cd = contentDisposition('电子发票（普通发票）_26332000000000012345.pdf');
    expect(cd).toBe(
      `attachment; filename="invoice_26332000000000012345.pdf"; filename*=UTF-8''${encodeURIComponent('电子发票（普通发票）_26332000000000012345.pdf')}`,
    );
    expect(decodeURIComponent(cd.split("UTF-8''")[1]!)).toBe('电子发票（普通发票）_26332000000000012345.pdf');
    expect(contentDisposition("a'(b).xml", true)).toBe(
      `inline; filename="a'(b).xml"; filename*=UTF-8''a%27%28b%29.xml`,
    );
  });
});
