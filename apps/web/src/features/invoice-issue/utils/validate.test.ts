import { MONEY_MSG, SPECIFIC_BUSINESS_BLOCKS } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import { buildRequest, smallScaleReasonNeeded, type TaxpayerType } from './build-request.ts';
import { emptyPassenger, emptyTransport } from './draft.ts';
import { draftOf, line, SELLER } from './test-draft.ts';
import type { Draft } from './types.ts';
import { validateDraft } from './validate.ts';

const check = (d: Draft, limits = {}) =>
  validateDraft(d, buildRequest(d, 'WEBserial0001', SELLER), { sellerTaxCode: SELLER.tax_code, limits });

describe('validateDraft', () => {
  it('passes a complete ordinary invoice', () => {
    expect(check(draftOf()).errors).toEqual({});
  });

  it('requires the buyer tax code on a 专票 (81) and of a company, not of a person on a 普票', () => {
    const person = (patch: Partial<Draft> = {}) =>
      draftOf({ buyer: { ...draftOf().buyer, title_type: 1, name: '张三', tax_code: '' }, ...patch });
    expect(check(person()).errors['buyer.tax_code']).toBeUndefined();
    expect(check(person({ invoice_type: '81' })).errors['buyer.tax_code']).toBe(
      '开具专用发票须填写购买方纳税人识别号',
    );
    expect(check(draftOf({ buyer: { ...draftOf().buyer, tax_code: '' } })).errors['buyer.tax_code']).toBe(
      '企业抬头请填写纳税人识别号',
    );
  });

  it('checks the tax code pattern and refuses the seller as buyer', () => {
    const bad = draftOf({ buyer: { ...draftOf().buyer, tax_code: 'abc' } });
    expect(check(bad).errors['buyer.tax_code']).toBe('纳税人识别号须为15、18或20位数字或大写字母');
    const self = draftOf({ buyer: { ...draftOf().buyer, tax_code: SELLER.tax_code } });
    expect(check(self).errors['buyer.tax_code']).toBe('购买方与销售方不能为同一纳税人');
  });

  it('says what a line is missing, next to the cell', () => {
    const d = draftOf({
      lines: [line({ quantity: '', price: '' }), line({ quantity: '2', price: '' }), line({ name: '' })],
    });
    const { errors } = check(d);
    expect(errors['goods_info.0.price']).toBe('请输入单价或金额');
    expect(errors['goods_info.1.price']).toBe('请输入单价');
    expect(errors['goods_info.2.name']).toBe('请输入或选择项目名称');
    expect(errors['goods_info.0.amount']).toBeUndefined();
  });

  it('warns (without blocking) about a short enterprise name, and blocks a one-character person', () => {
    const short = check(draftOf({ buyer: { ...draftOf().buyer, name: '张三' } }));
    expect(short.warnings['buyer.name']).toBe('名称较短，是否开票给自然人？');
    expect(short.errors['buyer.name']).toBeUndefined();
    const one = check(draftOf({ buyer: { ...draftOf().buyer, name: '张', title_type: 1 } }));
    expect(one.errors['buyer.name']).toBe('个人抬头名称至少2个字');
  });

  it('checks the e-mail and mobile for delivery', () => {
    const d = draftOf({ buyer: { ...draftOf().buyer, email: 'a@', mobile: '123' } });
    expect(check(d).errors).toMatchObject({
      'buyer.email': '请输入正确的邮箱地址',
      'buyer.mobile': '请输入正确的手机号',
    });
  });

  it('refuses a total above the device limit and the monthly quota left', () => {
    expect(check(draftOf(), { perInvoiceLimit: '50.00' }).errors['invoice_info.total_amount']).toBe(
      '合计金额超过本设备单张开票限额 ¥50.00',
    );
    expect(check(draftOf(), { quotaLeft: '20.00' }).errors['invoice_info.total_amount']).toBe(
      '合计金额超过本月剩余开票额度 ¥20.00',
    );
  });

  describe('the small-scale 3% reason (slsm, domain.md §2.6)', () => {
    const DURING = '2026-06-01';
    /** what the form does: the need decides what is sent and what is required */
    const checkAs = (taxpayerType: TaxpayerType, d: Draft, date = DURING) => {
      const reasonNeeded = smallScaleReasonNeeded(d, taxpayerType, date);
      const payload = buildRequest(d, 'WEBserial0001', SELLER, { reasonNeeded });
      return { payload, ...validateDraft(d, payload, { sellerTaxCode: SELLER.tax_code, reasonNeeded }) };
    };
    const at3 = draftOf({ lines: [line({ tax_rate: '0.01' }), line({ tax_rate: '0.03' })] });

    it('requires a reason of a small-scale seller with a 3% line, with the server message', () => {
      const missing = checkAs('small', at3);
      expect(missing.errors).toEqual({ small_scale_reason: MONEY_MSG.SMALL_SCALE_REASON_REQUIRED });
      expect(missing.errors.small_scale_reason).toBe('小规模纳税人开具3%征收率发票，请选择开具原因');
      expect('small_scale_reason' in missing.payload).toBe(false);
      const given = checkAs('small', { ...at3, small_scale_reason: '2' });
      expect(given.errors).toEqual({});
      expect(given.payload.small_scale_reason).toBe('2');
    });

    it('neither asks nor sends it at 1%, for a general taxpayer, or once the reduction is over', () => {
      const at1 = draftOf({ lines: [line({ tax_rate: '0.01' })], small_scale_reason: '1' });
      const general = { ...at3, small_scale_reason: '1' as const };
      for (const r of [
        checkAs('small', at1),
        checkAs('general', general),
        checkAs('small', general, '2028-01-01'),
      ]) {
        expect(r.errors.small_scale_reason).toBeUndefined();
        expect('small_scale_reason' in r.payload).toBe(false);
      }
      // a draft saved before the field existed
      const old = { ...at3 } as Partial<Draft>;
      delete old.small_scale_reason;
      expect(checkAs('small', old as Draft).errors.small_scale_reason).toBe(
        MONEY_MSG.SMALL_SCALE_REASON_REQUIRED,
      );
    });
  });

  it("refuses more lines than the kind allows, with the server's words (shared INVOICE_LINE_LIMITS)", () => {
    const lines = (n: number) => Array.from({ length: n }, () => line());
    expect(check(draftOf({ invoice_type: '007', lines: lines(8) })).errors.goods_info).toBeUndefined();
    expect(check(draftOf({ invoice_type: '007', lines: lines(9) })).errors.goods_info).toBe(
      '纸质发票最多8行项目明细，请拆分开具',
    );
    expect(check(draftOf({ invoice_type: '026', lines: lines(101) })).errors.goods_info).toBe(
      '该票种最多100行项目明细，请拆分开具',
    );
    expect(check(draftOf({ invoice_type: '82', lines: lines(101) })).errors.goods_info).toBeUndefined();
  });

  it("sends the chosen business's block only, under the shared key (SPECIFIC_BUSINESS_BLOCKS)", () => {
    const d = draftOf({
      transports: [{ ...emptyTransport(), vehicle_no: '浙A12345' }],
      passengers: [{ ...emptyPassenger(), traveller: '王五' }],
    });
    const blocksOf = (code: Draft['specific_business_code']) =>
      Object.keys(buildRequest({ ...d, specific_business_code: code }, 'WEBserial0001', SELLER)).filter((k) =>
        (Object.values(SPECIFIC_BUSINESS_BLOCKS) as string[]).includes(k),
      );
    expect(blocksOf(null)).toEqual([]);
    for (const code of ['03', '04', '06', '09'] as const)
      expect(blocksOf(code)).toEqual([SPECIFIC_BUSINESS_BLOCKS[code]]);
    const sent = buildRequest({ ...d, specific_business_code: '04' }, 'WEBserial0001', SELLER);
    expect(sent.goods_transport).toEqual([
      { vehicle_type: '', vehicle_no: '浙A12345', origin: '', destination: '', goods_name: '' },
    ]);
  });

  it('03 建筑服务: one line only, 报验编号 required iff 跨地市', () => {
    const base = draftOf({
      specific_business_code: '03',
      lines: [line({ tax_class_code: '3050100000000000000', short_name: '建筑服务', name: '工程款' })],
      building: {
        place: '浙江省-杭州市-西湖区',
        detail_address: '',
        project_name: '西湖项目',
        cross_city: 'Y',
        cross_region_no: '',
        land_vat_project_no: '',
      },
    });
    expect(check(base).errors['building_service.cross_region_no']).toContain('报验管理编号');
    const ok = { ...base, building: { ...base.building, cross_region_no: 'BY123' } };
    expect(check(ok).errors).toEqual({});
    const two = { ...ok, lines: [...ok.lines, line({ tax_class_code: '3050100000000000000' })] };
    expect(check(two).errors.goods_info).toContain('只能有一行');
  });

  it('06 不动产租赁: address rule and area unit on the line', () => {
    const d = draftOf({
      specific_business_code: '06',
      lines: [
        line({
          tax_class_code: '3040502020400000000',
          short_name: '不动产经营租赁',
          name: '房租',
          unit: '间',
        }),
      ],
      rents: [
        {
          province: '浙江',
          city: '杭州市',
          detail_address: '西湖边',
          lease_start: '2025-01-01',
          lease_end: '2025-12-31',
          cross_city: 'N',
          certificate_no: '无',
          plate_no: '',
        },
      ],
    });
    const { errors } = check(d);
    expect(errors['real_static_rent.0.province']).toBeTruthy();
    expect(errors['real_static_rent.0.detail_address']).toContain('街、路、村');
    expect(errors['goods_info.0.unit']).toBeTruthy();
  });

  it('09 旅客运输: ID checksum for 身份证', () => {
    const d = draftOf({
      specific_business_code: '09',
      lines: [line({ tax_class_code: '3010101020100000000', short_name: '运输服务', name: '客运费' })],
      passengers: [
        {
          key: 'p1',
          traveller: '张三',
          id_type: '201',
          id_no: '110105194912310021',
          travel_date: '2025-03-01',
          origin: '杭州',
          destination: '上海',
          vehicle_type: '3',
          seat_class: '',
        },
      ],
    });
    expect(check(d).errors['passenger_transport.0.id_no']).toContain('身份证号码不正确');
  });
});
