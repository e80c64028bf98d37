import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toChineseCapital } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import jsQR from 'jsqr';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture, line, payload } from '../../../test/fixtures/invoices.ts';
import { redKit } from '../../../test/fixtures/red-info.ts';
import { buildTestApp } from '../../../test/helper.ts';
import { invoices } from '../../db/schema/index.ts';
import { linesOf, pdfTextItems, renderPage } from './pdf-text.ts';

/**
 * Invoices issued through the API and downloaded as the console downloads them, then read back the
 * way an independent reader does: pdf.js's text layer (order of 购/销 名称, 合计, 价税合计), page 1
 * rasterised and measured against §三's coordinates, and the QR decoded from the picture (jsQR).
 * `KP_RENDER_DIR=docs/invoices` also writes the page-1 renders there.
 */

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;
type Issued = { id: number; no: string; total: string; qr: string; pdf: Buffer; buyer: string };

const DPI = 300;
const PX = DPI / 25.4;

const KINDS = ['company', 'special', 'person', 'red', 'building'] as const;
type Kind = (typeof KINDS)[number];

describe('issued invoice PDFs, read back by pdf.js and jsQR', () => {
  let t: TestApp;
  let f: Fixture;
  const issued = {} as Record<Kind, Issued>;

  const download = async (id: number) => {
    const url = `/v3/invoice-detail/download?${f.scope(f.ids.software, f.ids.hq)}&invoice_id=${id}&kind=pdf`;
    const res = await t.app.inject({ method: 'GET', url, headers: { 'access-token': f.admin } });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };
  const keep = async (kind: Kind, id: number, buyer: string) => {
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, id));
    issued[kind] = {
      id,
      no: row!.invoiceNo!,
      total: row!.totalWithTax,
      qr: row!.qrString,
      pdf: await download(id),
      buyer,
    };
  };
  const issue = async (body: ReturnType<typeof payload>) => {
    const res = await f.issue(body);
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data.invoice_id as number;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    const kit = redKit(t, f);
    // 普票 to a company: 13%, 9% and 6% lines, the 13% line discounted; seller bank asked for
    const company = payload(f.ids.digital, {
      lines: [
        line('1130.00', {
          tax_rate: '0.13',
          name: '服务器',
          tax_class_code: '1090511030000000000',
          short_name: '计算机',
          quantity: '1',
          line_kind: 2,
        }),
        line('-113.00', {
          tax_rate: '0.13',
          name: '服务器',
          tax_class_code: '1090511030000000000',
          short_name: '计算机',
          line_kind: 1,
        }),
        line('1090.00', {
          tax_rate: '0.09',
          tax_class_code: '3050100000000000000',
          short_name: '建筑服务',
          name: '工程服务',
        }),
        line('1060.00', { quantity: '2' }),
      ],
      info: { remark: '合同号 HT-2026-118', payee: '李娜', reviewer: '张伟', drawer: '王小明' },
      extra: { show_seller_bank: true },
    });
    await keep('company', await issue(company), company.buyer.name);
    const drawer = { drawer: '王小明' };
    const special = payload(f.ids.digital, {
      invoiceType: '81',
      info: { ...drawer, remark: '订单号 PO-2026-0042' },
    });
    await keep('special', await issue(special), special.buyer.name);
    const person = payload(f.ids.digital, {
      buyer: { title_type: 1, name: '张三', tax_code: '' },
      info: drawer,
    });
    await keep('person', await issue(person), '张三');
    // the full red invoice of the company invoice (开票有误: no confirmation needed)
    const applied = await kit.red('apply', { invoice_id: issued.company.id, reason: '01', full: true });
    expect(applied.json.code, applied.json.message).toBe(0);
    const [red] = await t.db.select().from(invoices).where(eq(invoices.originalInvoiceId, issued.company.id));
    expect(red!.status).toBe('issued');
    await keep('red', red!.id, company.buyer.name);
    const building = payload(f.ids.digital, {
      lines: [
        line('10900.00', {
          tax_rate: '0.09',
          tax_class_code: '3050100000000000000',
          short_name: '建筑服务',
          name: '工程服务',
        }),
      ],
      info: { specific_business_code: '03', ...drawer },
      extra: {
        building_service: { place: '浙江省-杭州市-西湖区', project_name: '云栈园区二期', cross_city: 'N' },
      },
    });
    await keep('building', await issue(building), building.buyer.name);

    const dir = process.env.KP_RENDER_DIR;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      const names: Partial<Record<Kind, string>> = {
        company: 'putong',
        special: 'zhuanpiao',
        red: 'hongzi',
        building: 'jianzhu-fuwu',
      };
      for (const [kind, name] of Object.entries(names)) {
        const page = await renderPage(issued[kind as Kind].pdf, 150);
        writeFileSync(path.join(dir, `${name}.png`), page.png);
      }
    }
  }, 120_000);

  describe('text layer', () => {
    const textOf = async (kind: Kind) => {
      const pages = await pdfTextItems(issued[kind].pdf);
      return linesOf(pages[0]!);
    };

    it.each(KINDS)(
      '%s: 购 名称 and 销 名称 on one line, 合 计 ¥ ¥, then 价税合计（大写）, with no ⊗ or padding',
      async (kind) => {
        const inv = issued[kind];
        const lines = await textOf(kind);
        const all = lines.join('\n');
        const names = lines.findIndex((l) => l.startsWith('购 名称：'));
        expect(names, all).toBeGreaterThan(-1);
        expect(lines[names]).toMatch(new RegExp(`^购 名称：${inv.buyer} 销 名称：杭州云栈软件科技有限公司$`));
        const sum = lines.findIndex((l) => /^合 计 ¥-?[\d.]+ ¥-?[\d.]+$/.test(l));
        const total = lines.findIndex((l) => l.startsWith('价税合计（大写） '));
        expect(sum, all).toBeGreaterThan(names);
        expect(total).toBe(sum + 1);
        const money = (v: string) => `¥${v}`;
        expect(lines[total]).toBe(
          `价税合计（大写） ${toChineseCapital(inv.total)} （小写） ${money(inv.total)}`,
        );
        expect(all).not.toMatch(/[⊗ⓧ\u3000]/);
        expect(all).toMatch(new RegExp(`^发票号码： ?${inv.no}$`, 'm'));
        expect(all).toMatch(/^开票人：/m);
      },
    );

    it('prints the company invoice: three rates, the discount line, seller bank asked for, people on one line', async () => {
      const lines = await textOf('company');
      const all = lines.join('\n');
      expect(all).toContain('电子发票（普通发票）');
      expect(all).toMatch(/13%/);
      expect(all).toMatch(/9%/);
      expect(all).toMatch(/6%/);
      expect(all).toMatch(/^\*计算机\*服务器 .*-100\.00 13% -13\.00$/m);
      expect(lines).toContain('合 计 ¥2900.00 ¥267.00');
      expect(all).toContain('销方开户银行:');
      expect(all).not.toContain('购方开户银行');
      expect(all).toMatch(/^收款人:李娜; +复核人:张伟;$/m);
      expect(lines).toContain('合同号 HT-2026-118');
    });

    it('prints the 专票 title and the person without a tax code', async () => {
      expect((await textOf('special')).join('\n')).toContain('电子发票（增值税专用发票）');
      const person = await textOf('person');
      expect(person).toContainEqual(
        expect.stringMatching(
          /^统一社会信用代码\/纳税人识别号： 统一社会信用代码\/纳税人识别号：[0-9A-Z]{18}$/,
        ),
      );
    });

    it('names the blue invoice once on the red one, in the bureau wording, and prints negative amounts', async () => {
      const red = issued.red;
      const all = (await textOf('red')).join('\n');
      const blue = issued.company.no;
      expect(all.split(blue)).toHaveLength(2);
      expect(all).toMatch(new RegExp(`被红冲蓝字数电发票号码：${blue} 红字发票信息确认单编号：\\d{20};`));
      expect(all).not.toContain('数电票号码');
      expect(all).toMatch(new RegExp(`^发票号码： ?${red.no}$`, 'm'));
      expect(all).toContain('（负数）');
      expect(all).toContain('合 计 ¥-2900.00 ¥-267.00');
    });

    it('prints the 03 columns and the 建筑服务 label', async () => {
      const lines = await textOf('building');
      expect(lines).toContain('项目名称 建筑服务发生地 建筑项目名称 金额 税率/征收率 税额');
      expect(lines.join('\n')).toMatch(
        /\*建筑服务\*工程服务 浙江省-杭州市-西湖区 云栈园区二期 10000\.00 9% 900\.00/,
      );
      expect(lines).toContain('建筑服务');
      expect(lines.join('\n')).toContain('跨地（市）标志：否;');
    });
  });

  describe('page 1 measured against §三 (300 dpi, ±1 mm)', () => {
    type Img = Awaited<ReturnType<typeof renderPage>>;
    const px = (img: Img, x: number, y: number) => {
      const i = (y * img.width + x) * 4;
      return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!] as const;
    };
    /** RGB(128,0,0) and its anti-aliased core */
    const brown = (img: Img, x: number, y: number) => {
      const [r, g, b] = px(img, x, y);
      return r > 90 && r < 185 && g < 70 && b < 70;
    };
    const sealRed = (img: Img, x: number, y: number) => {
      const [r, g, b] = px(img, x, y);
      return r > 200 && g < 90 && b < 90;
    };
    const dark = (img: Img, x: number, y: number) => {
      const [r, g, b] = px(img, x, y);
      return r < 80 && g < 80 && b < 80;
    };
    /** centres (mm) of pixel rows within [y0, y1] where `is` covers more than `share` of [x0, x1] */
    const hLines = (
      img: Img,
      is: typeof brown,
      x0: number,
      x1: number,
      y0: number,
      y1: number,
      share = 0.5,
    ) => {
      const hits: number[] = [];
      for (let y = Math.round(y0 * PX); y <= Math.round(y1 * PX); y++) {
        let n = 0;
        for (let x = Math.round(x0 * PX); x <= Math.round(x1 * PX); x++) if (is(img, x, y)) n++;
        if (n > share * (x1 - x0) * PX) hits.push(y);
      }
      return groups(hits);
    };
    const vLines = (
      img: Img,
      is: typeof brown,
      x0: number,
      x1: number,
      y0: number,
      y1: number,
      share = 0.85,
    ) => {
      const hits: number[] = [];
      for (let x = Math.round(x0 * PX); x <= Math.round(x1 * PX); x++) {
        let n = 0;
        for (let y = Math.round(y0 * PX); y <= Math.round(y1 * PX); y++) if (is(img, x, y)) n++;
        if (n > share * (y1 - y0) * PX) hits.push(x);
      }
      return groups(hits);
    };
    const groups = (hits: number[]) => {
      const out: number[][] = [];
      for (const h of hits) {
        const g = out[out.length - 1];
        if (g && h - g[g.length - 1]! <= 1) g.push(h);
        else out.push([h]);
      }
      return out.map((g) => (g[0]! + g[g.length - 1]!) / 2 / PX);
    };
    const bbox = (img: Img, is: typeof brown, x0: number, x1: number, y0: number, y1: number) => {
      let [minX, minY, maxX, maxY] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1, -1];
      for (let y = Math.round(y0 * PX); y <= Math.round(y1 * PX); y++)
        for (let x = Math.round(x0 * PX); x <= Math.round(x1 * PX); x++)
          if (is(img, x, y)) {
            minX = Math.min(minX, x);
            maxX = Math.max(maxX, x + 1);
            minY = Math.min(minY, y);
            maxY = Math.max(maxY, y + 1);
          }
      return [minX / PX, minY / PX, maxX / PX, maxY / PX];
    };
    const deviations: number[] = [];
    const near = (got: number[], want: number[], what: string) => {
      expect(got.length, `${what}: ${got.map((v) => v.toFixed(2)).join(', ')}`).toBe(want.length);
      want.forEach((w, i) => {
        const d = Math.abs(got[i]! - w);
        deviations.push(d);
        expect(d, `${what} ${i}: ${got[i]!.toFixed(2)} mm, §三 says ${w} mm`).toBeLessThanOrEqual(1);
      });
    };

    it.each(['company', 'red', 'building'] as const)(
      '%s: frame, rows, columns, header, QR and seal where §三 puts them',
      async (kind) => {
        const img = await renderPage(issued[kind].pdf, DPI);
        expect(img.width / PX).toBeCloseTo(210, 0);
        expect(img.height / PX).toBeCloseTo(140, 0);
        // full-width lines: frame top, parties' bottom, 价税合计 top and bottom, frame bottom
        near(hLines(img, brown, 4.5, 205.5, 25, 130), [30, 52, 96, 104, 124], 'horizontal lines');
        near(vLines(img, brown, 0, 210, 30.5, 51.5), [4.5, 10.5, 105, 111, 205.5], 'buyer/seller columns');
        near(vLines(img, brown, 0, 210, 96.5, 103.5), [4.5, 41.5, 205.5], '价税合计 columns');
        near(vLines(img, brown, 0, 210, 104.5, 123.5), [4.5, 10.5, 205.5], '备注 columns');
        // the double line under the title: 1 mm apart, 73 mm long, centred
        const doubles = hLines(img, brown, 68.5, 141.5, 16, 21, 0.3);
        near(doubles, [18, 19], 'double line');
        const [dx0, , dx1] = bbox(img, brown, 60, 150, 17.8, 18.2);
        near([dx0!, dx1!], [68.5, 141.5], 'double line ends');
        const [qx0, qy0, qx1, qy1] = bbox(img, dark, 0, 40, 0, 30);
        near([qx0!, qy0!, qx1!, qy1!], [7, 6, 27, 26], 'QR box');
        const [sx0, sy0, sx1, sy1] = bbox(img, sealRed, 70, 130, 4, 32);
        near([sx0!, sy0!, sx1!, sy1!], [85.5, 8, 115.5, 28], 'seal');
        // 发票号码 / 开票日期 labels start at 155 mm
        const [ix0] = bbox(img, brown, 150, 175, 10, 23);
        near([ix0!], [155], '发票号码 label');
      },
    );

    it('saw every measured edge within 1 mm', () => {
      expect(deviations.length).toBeGreaterThan(60);
      const worst = Math.max(...deviations);
      console.info(`geometry: ${deviations.length} edges, largest deviation ${worst.toFixed(2)} mm`);
      expect(worst).toBeLessThanOrEqual(1);
    });
  });

  describe('QR decoded from the rendered page', () => {
    it.each(KINDS)('%s: the symbol reads back every field', async (kind) => {
      const inv = issued[kind];
      const img = await renderPage(inv.pdf, DPI);
      const code = jsQR(img.data, img.width, img.height);
      expect(code, 'no QR found on the page').not.toBeNull();
      expect(code!.version).toBe(5);
      const fields = code!.data.split(',');
      expect(fields).toHaveLength(8);
      const [version, type, invoiceCode, number, amount, date, check, crc] = fields;
      expect(version).toBe('01');
      expect(type).toBe(kind === 'special' ? '31' : '32');
      expect(invoiceCode).toBe('');
      expect(number).toBe(inv.no);
      expect(amount).toBe(inv.total);
      expect(date).toMatch(/^20\d{6}$/);
      expect(check).toBe('');
      expect(crc).toMatch(/^[0-9A-F]{4}$/);
      // the symbol carries exactly what issuing stored
      expect(code!.data).toBe(inv.qr);
    });
  });
});
