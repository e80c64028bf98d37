import { describe, expect, it } from 'vitest';
import { assertWellFormedXml, xsdErrors } from '../../../test/fixtures/documents.ts';
import { supervisingBureau, xzjgOfDivision } from './bureau.ts';
import type { InvoiceDocData } from './model.ts';
import { normalizeSpecific, smallScaleReasonOf } from './model.ts';
import { sampleInvoice } from './sample.ts';
import { escapeXml, renderInvoiceXml } from './xml.ts';

/** Text of every `<tag>…</tag>` (and '' for `<tag/>`), in document order. */
const xmlText = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}(?:>([^<]*)</${tag}>|/>)`, 'g'))].map((m) => m[1] ?? '');

/** The element tree as `path` lines in document order (`EInvoice/Header/EIid`), to compare structures. */
function paths(xml: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([A-Za-z][\w.-]*)[^>]*?(\/?)>/g)) {
    if (m[1]) stack.pop();
    else {
      out.push([...stack, m[2]].join('/'));
      if (!m[3]) stack.push(m[2]!);
    }
  }
  return out;
}

/** The child element names of the first `<parent>` (direct children only). */
function childrenOf(xml: string, parent: string): string[] {
  const all = paths(xml);
  const i = all.findIndex((p) => p.endsWith(`/${parent}`));
  const at = all[i]!;
  const out: string[] = [];
  for (const p of all.slice(i + 1)) {
    if (!p.startsWith(`${at}/`)) break;
    const rest = p.slice(at.length + 1);
    if (!rest.includes('/')) out.push(rest);
  }
  return out;
}

async function expectValid(xml: string) {
  assertWellFormedXml(xml);
  expect(await xsdErrors(xml)).toEqual([]);
}

const neg = (v: string) => (v.startsWith('-') ? v : `-${v}`);
function redOf(inv: InvoiceDocData, formNo = '33010826112200000123'): InvoiceDocData {
  return {
    ...inv,
    red: true,
    invoiceNo: inv.digital ? '26332000000000012399' : '01234599',
    original: { invoiceCode: inv.invoiceCode, invoiceNo: inv.invoiceNo, redFormNo: formNo },
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

const oldKind = (o: Partial<InvoiceDocData> = {}) =>
  sampleInvoice({
    invoiceType: '026',
    title: '增值税电子普通发票',
    digital: false,
    invoiceCode: '033002100111',
    invoiceNo: '01234567',
    checkCode: '12345678901234567890',
    machineNo: '661234567890',
    qrString: '',
    ...o,
  });

describe('invoice XML — bureau spec V5.002 §四, validated against einvoice-v0.36.xsd', () => {
  it('blue 普票: the 0.36 header, labels, parties, totals, lines with 金额（含税）, the supervising bureau', async () => {
    const inv = sampleInvoice();
    const xml = renderInvoiceXml(inv);
    await expectValid(xml);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<EInvoice>')).toBe(true);
    // element for element: the document's skeleton (one line shown for the item list)
    expect([...new Set(paths(xml))]).toEqual([
      'EInvoice',
      'EInvoice/Header',
      'EInvoice/Header/EIid',
      'EInvoice/Header/EInvoiceTag',
      'EInvoice/Header/Version',
      'EInvoice/Header/InherentLabel',
      'EInvoice/Header/InherentLabel/InIssuType',
      'EInvoice/Header/InherentLabel/InIssuType/LabelCode',
      'EInvoice/Header/InherentLabel/InIssuType/LabelName',
      'EInvoice/Header/InherentLabel/EInvoiceType',
      'EInvoice/Header/InherentLabel/EInvoiceType/LabelCode',
      'EInvoice/Header/InherentLabel/EInvoiceType/LabelName',
      'EInvoice/Header/InherentLabel/GeneralOrSpecialVAT',
      'EInvoice/Header/InherentLabel/GeneralOrSpecialVAT/LabelCode',
      'EInvoice/Header/InherentLabel/GeneralOrSpecialVAT/LabelName',
      'EInvoice/Header/InherentLabel/TaxpayerType',
      'EInvoice/Header/InherentLabel/TaxpayerType/LabelCode',
      'EInvoice/Header/InherentLabel/TaxpayerType/LabelName',
      'EInvoice/Header/UndefinedLabel',
      'EInvoice/Header/UndefinedLabel/Label',
      'EInvoice/Header/UndefinedLabel/Label/LabelType',
      'EInvoice/Header/UndefinedLabel/Label/LabelCode',
      'EInvoice/Header/UndefinedLabel/Label/LabelName',
      'EInvoice/EInvoiceData',
      'EInvoice/EInvoiceData/SellerInformation',
      'EInvoice/EInvoiceData/SellerInformation/SellerIdNum',
      'EInvoice/EInvoiceData/SellerInformation/SellerName',
      'EInvoice/EInvoiceData/SellerInformation/SellerAddr',
      'EInvoice/EInvoiceData/SellerInformation/SellerTelNum',
      'EInvoice/EInvoiceData/SellerInformation/SellerBankName',
      'EInvoice/EInvoiceData/SellerInformation/SellerBankAccNum',
      'EInvoice/EInvoiceData/BuyerInformation',
      'EInvoice/EInvoiceData/BuyerInformation/BuyerIdNum',
      'EInvoice/EInvoiceData/BuyerInformation/BuyerName',
      'EInvoice/EInvoiceData/BuyerInformation/BuyerAddr',
      'EInvoice/EInvoiceData/BuyerInformation/BuyerTelNum',
      'EInvoice/EInvoiceData/BuyerInformation/BuyerBankName',
      'EInvoice/EInvoiceData/BuyerInformation/BuyerBankAccNum',
      'EInvoice/EInvoiceData/BuyerInformation/BuyerHandlingName',
      'EInvoice/EInvoiceData/BasicInformation',
      'EInvoice/EInvoiceData/BasicInformation/TotalAmWithoutTax',
      'EInvoice/EInvoiceData/BasicInformation/TotalTaxAm',
      'EInvoice/EInvoiceData/BasicInformation/TotalTax-includedAmount',
      'EInvoice/EInvoiceData/BasicInformation/TotalTax-includedAmountInChinese',
      'EInvoice/EInvoiceData/BasicInformation/Drawer',
      'EInvoice/EInvoiceData/BasicInformation/RequestTime',
      'EInvoice/EInvoiceData/IssuItemInformation',
      'EInvoice/EInvoiceData/IssuItemInformation/ItemName',
      'EInvoice/EInvoiceData/IssuItemInformation/SpecMod',
      'EInvoice/EInvoiceData/IssuItemInformation/MeaUnits',
      'EInvoice/EInvoiceData/IssuItemInformation/Quantity',
      'EInvoice/EInvoiceData/IssuItemInformation/UnPrice',
      'EInvoice/EInvoiceData/IssuItemInformation/Amount',
      'EInvoice/EInvoiceData/IssuItemInformation/TaxRate',
      'EInvoice/EInvoiceData/IssuItemInformation/ComTaxAm',
      'EInvoice/EInvoiceData/IssuItemInformation/TotaltaxIncludedAmount',
      'EInvoice/EInvoiceData/IssuItemInformation/TaxClassificationCode',
      'EInvoice/EInvoiceData/SpecificInformation',
      'EInvoice/EInvoiceData/AdditionalInformation',
      'EInvoice/EInvoiceData/AdditionalInformation/Remark',
      'EInvoice/SellerAuthentication',
      'EInvoice/TaxSupervisionInfo',
      'EInvoice/TaxSupervisionInfo/InvoiceNumber',
      'EInvoice/TaxSupervisionInfo/IssueTime',
      'EInvoice/TaxSupervisionInfo/TaxBureauCode',
      'EInvoice/TaxSupervisionInfo/TaxBureauName',
    ]);
    expect(xmlText(xml, 'EIid')).toEqual(['26332000000000012345']);
    // the seller 91330106… is in Zhejiang (附件一 13300), not Jiangsu
    expect(xmlText(xml, 'EInvoiceTag')).toEqual(['SWEI3300']);
    expect(xmlText(xml, 'Version')).toEqual(['0.36']);
    expect(xmlText(xml, 'LabelCode')).toEqual(['Y', '01', '02', '1', '4']);
    expect(xmlText(xml, 'LabelName')).toEqual([
      '是否蓝字发票标志',
      '电子发票',
      '普通发票',
      '一般纳税人',
      '第三方平台开票(乐企联用、他用开票)',
    ]);
    expect(xmlText(xml, 'LabelType')).toEqual(['发票开具方式标签']);
    expect(xmlText(xml, 'SellerIdNum')).toEqual(['91330106MA2KC7LM1A']);
    expect(xmlText(xml, 'BuyerName')).toEqual([inv.buyer.name]);
    expect(xmlText(xml, 'TotalAmWithoutTax')).toEqual(['10000.00']);
    expect(xmlText(xml, 'TotalTaxAm')).toEqual(['600.00']);
    expect(xmlText(xml, 'TotalTax-includedAmount')).toEqual(['10600.00']);
    expect(xmlText(xml, 'TotalTax-includedAmountInChinese')).toEqual(['壹万零陆佰圆整']);
    expect(xmlText(xml, 'RequestTime')).toEqual(['2026-11-22 10:30:00']);
    expect(xmlText(xml, 'ItemName')).toEqual(['*信息技术服务*软件开发服务', '*信息技术服务*软件运维服务']);
    expect(xmlText(xml, 'Quantity')).toEqual(['1', '3']);
    expect(xmlText(xml, 'UnPrice')).toEqual(['9433.96226415', '188.67924528']);
    expect(xmlText(xml, 'TaxRate')).toEqual(['0.06', '0.06']);
    expect(xmlText(xml, 'ComTaxAm')).toEqual(['566.04', '33.96']);
    expect(xmlText(xml, 'TotaltaxIncludedAmount')).toEqual(['10000.00', '600.00']);
    expect(xmlText(xml, 'InvoiceNumber')).toEqual(['26332000000000012345']);
    expect(xmlText(xml, 'IssueTime')).toEqual(['2026-11-22']);
    expect(xmlText(xml, 'TaxBureauCode')).toEqual(['13300000000']);
    expect(xmlText(xml, 'TaxBureauName')).toEqual(['国家税务总局浙江省税务局']);
    // the 备注 lines of §三 joined by four spaces: bank details only when asked for (not here),
    // 收款人/复核人 on their own line in the spec's form
    expect(xmlText(xml, 'Remark')).toEqual(['项目编号：YZ-2026-118    收款人:李娜;    复核人:张伟;']);
    // nothing the spec lacks
    expect(xml).not.toMatch(/Slsm|OriginalInvoiceNumber|<InvoiceCode>|特定业务/);
  });

  it('blue 专票 of a small-scale seller: 01 增值税专用发票, TaxpayerType 2 小规模纳税人', async () => {
    const xml = renderInvoiceXml(
      sampleInvoice({ invoiceType: '81', title: '电子发票（增值税专用发票）', sellerTaxpayerType: 'small' }),
    );
    await expectValid(xml);
    expect(childrenOf(xml, 'GeneralOrSpecialVAT')).toEqual(['LabelCode', 'LabelName']);
    expect(xmlText(xml, 'LabelCode').slice(0, 4)).toEqual(['Y', '01', '01', '2']);
    expect(xmlText(xml, 'LabelName').slice(0, 4)).toEqual([
      '是否蓝字发票标志',
      '电子发票',
      '增值税专用发票',
      '小规模纳税人',
    ]);
  });

  it('red 数电: N, negative totals, RedEInvoice with the blue number and the 确认单 number', async () => {
    const xml = renderInvoiceXml(redOf(sampleInvoice()));
    await expectValid(xml);
    expect(xmlText(xml, 'LabelCode')[0]).toBe('N');
    expect(childrenOf(xml, 'SpecificInformation')).toEqual(['RedEInvoice']);
    expect(childrenOf(xml, 'RedEInvoice')).toEqual(['OriginalInvoiceCode', 'CreditNoteNumber']);
    expect(xmlText(xml, 'OriginalInvoiceCode')).toEqual(['26332000000000012345']);
    expect(xmlText(xml, 'CreditNoteNumber')).toEqual(['33010826112200000123']);
    expect(xmlText(xml, 'EIid')).toEqual(['26332000000000012399']);
    expect(xmlText(xml, 'TotalTax-includedAmount')).toEqual(['-10600.00']);
    expect(xmlText(xml, 'TotalTax-includedAmountInChinese')).toEqual(['（负数）壹万零陆佰圆整']);
    expect(xmlText(xml, 'TotaltaxIncludedAmount')).toEqual(['-10000.00', '-600.00']);
  });

  it('old kind 026, blue and red: 发票代码 + 发票号码 identify it (§四 has no 发票代码 element)', async () => {
    const blue = renderInvoiceXml(oldKind());
    await expectValid(blue);
    expect(xmlText(blue, 'EIid')).toEqual(['03300210011101234567']);
    expect(xmlText(blue, 'InvoiceNumber')).toEqual(['01234567']);
    expect(xmlText(blue, 'EInvoiceTag')).toEqual(['SWEI3300']);
    const red = renderInvoiceXml(redOf(oldKind(), '3301082611220012'));
    await expectValid(red);
    expect(xmlText(red, 'OriginalInvoiceCode')).toEqual(['03300210011101234567']);
    expect(xmlText(red, 'CreditNoteNumber')).toEqual(['3301082611220012']);
    expect(xmlText(red, 'EIid')).toEqual(['03300210011101234599']);
  });

  it('03 建筑服务 → ConstructionServices with the spec’s children', async () => {
    const s = sampleInvoice();
    const xml = renderInvoiceXml(
      sampleInvoice({
        specific: normalizeSpecific('03', {
          building_service: {
            place: '浙江省-杭州市-西湖区',
            detail_address: '文三路90号',
            project_name: '云栈大厦装修工程',
            cross_city: 'N',
            cross_region_no: '',
            land_vat_project_no: 'LV2026001',
          },
        }),
        lines: [{ ...s.lines[0]!, name: '*建筑服务*装饰工程', quantity: null, unitPrice: null }],
      }),
    );
    await expectValid(xml);
    expect(childrenOf(xml, 'SpecificInformation')).toEqual(['ConstructionServices']);
    expect(childrenOf(xml, 'ConstructionServices')).toEqual([
      'OccurredSite',
      'ItemName',
      'LandValueAddedTaxProjectNumber',
      'CrossRegionIdentifier',
    ]);
    expect(xmlText(xml, 'OccurredSite')).toEqual(['浙江省-杭州市-西湖区']);
    expect(xmlText(xml, 'ItemName')).toEqual(['*建筑服务*装饰工程', '云栈大厦装修工程']);
    expect(xmlText(xml, 'LandValueAddedTaxProjectNumber')).toEqual(['LV2026001']);
    expect(xmlText(xml, 'CrossRegionIdentifier')).toEqual(['N']);
    expect(xmlText(xml, 'Quantity')).toEqual(['']);
    // the detail address has no element: it is in 备注
    expect(xmlText(xml, 'Remark')[0]).toContain('建筑服务详细地址：文三路90号');
  });

  it('04 货物运输服务 → one FreightService per transport', async () => {
    const transport = {
      vehicle_type: '2',
      vehicle_no: '浙A12345',
      origin: '杭州市',
      destination: '上海市',
      goods_name: '服务器',
    };
    const xml = renderInvoiceXml(
      sampleInvoice({
        specific: normalizeSpecific('04', {
          goods_transport: [transport, { ...transport, vehicle_type: '铁路运输', goods_name: '机柜' }],
        }),
      }),
    );
    await expectValid(xml);
    expect(childrenOf(xml, 'SpecificInformation')).toEqual(['FreightService', 'FreightService']);
    expect(childrenOf(xml, 'FreightService')).toEqual([
      'Departure',
      'Destination',
      'TypeOfTransportationMeans',
      'TransportationMeansNo',
      'NameOfGoodsTransported',
    ]);
    expect(xmlText(xml, 'TypeOfTransportationMeans')).toEqual(['公路运输', '铁路运输']);
    expect(xmlText(xml, 'NameOfGoodsTransported')).toEqual(['服务器', '机柜']);
  });

  it('06 不动产经营租赁服务 → RealEstateLease per property, lease term as yyyy-MM-dd yyyy-MM-dd', async () => {
    const xml = renderInvoiceXml(
      sampleInvoice({
        specific: normalizeSpecific('06', {
          real_static_rent: [
            {
              province: '浙江省',
              city: '杭州市',
              detail_address: '文三路90号',
              lease_period: '2026-01-01 08:00 2026-12-31 18:00',
              cross_city: 'Y',
              certificate_no: '浙(2020)0012345号',
              plate_no: '浙A00001',
              area_unit: '平方米',
            },
          ],
        }),
      }),
    );
    await expectValid(xml);
    expect(childrenOf(xml, 'RealEstateLease')).toEqual([
      'RealEstateWarrantNumber',
      'RealEstateAddress',
      'TheLeaseTermBeginsAndEnds',
      'CrossRegionIdentifier',
      'PlateNumber',
    ]);
    expect(xmlText(xml, 'RealEstateWarrantNumber')).toEqual(['浙(2020)0012345号']);
    expect(xmlText(xml, 'RealEstateAddress')).toEqual(['浙江省杭州市文三路90号']);
    expect(xmlText(xml, 'TheLeaseTermBeginsAndEnds')).toEqual(['2026-01-01 2026-12-31']);
    expect(xmlText(xml, 'CrossRegionIdentifier')).toEqual(['Y']);
    expect(xmlText(xml, 'PlateNumber')).toEqual(['浙A00001']);
    expect(xml).not.toContain('平方米</');
  });

  it('09 旅客运输服务 → PassengerTransportation per traveller, in the spec’s order', async () => {
    const xml = renderInvoiceXml(
      sampleInvoice({
        specific: normalizeSpecific('09', [
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
        ]),
      }),
    );
    await expectValid(xml);
    expect(childrenOf(xml, 'PassengerTransportation')).toEqual([
      'Traveler',
      'TravelDate',
      'Departure',
      'Destination',
      'Grade',
      'Vehicletype',
      'TypeOfPassengerDocument',
      'ValidIDNumber',
    ]);
    expect(xmlText(xml, 'Traveler')).toEqual(['张三', '李四']);
    expect(xmlText(xml, 'TypeOfPassengerDocument')).toEqual(['居民身份证', '外国护照']);
    expect(xmlText(xml, 'Vehicletype')).toEqual(['长途汽车', '船舶']);
    expect(xmlText(xml, 'Grade')).toEqual(['', '二等舱']);
    expect(xmlText(xml, 'ValidIDNumber')).toEqual(['11010519491231002X', 'E12345678']);
  });

  it('a 100-line invoice: 100 IssuItemInformation, valid', async () => {
    const xml = renderInvoiceXml(sampleInvoice({}, 100));
    await expectValid(xml);
    expect(xmlText(xml, 'TotaltaxIncludedAmount')).toHaveLength(100);
    expect(xmlText(xml, 'TotalAmWithoutTax')).toEqual(['500000.00']);
  });

  it('special rates per §四 71-72 and the 特定征税方式 label: 免税 ***, 不征税 empty, 0% 0.00, 简易计税, 减按', async () => {
    const base = sampleInvoice().lines[0]!;
    const zero = { taxRate: '0', taxAmount: '0.00' };
    const xml = renderInvoiceXml(
      sampleInvoice({
        lines: [
          { ...base, ...zero, zeroRateFlag: '1' },
          { ...base, ...zero, zeroRateFlag: '2' },
          { ...base, ...zero, zeroRateFlag: '3' },
          { ...base, ...zero, preferentialCode: '03' },
          { ...base, taxRate: '0.03', taxAmount: '283.02', preferentialCode: '01' },
          { ...base, taxRate: '0.015', taxAmount: '141.51', preferentialCode: '10' },
        ],
      }),
    );
    await expectValid(xml);
    expect(xmlText(xml, 'TaxRate')).toEqual(['免税', '不征税', '0%', '免税', '0.03', '0.015']);
    expect(xmlText(xml, 'ComTaxAm')).toEqual(['***', '', '0.00', '***', '283.02', '141.51']);
    expect(xmlText(xml, 'TotaltaxIncludedAmount')).toEqual([
      '9433.96',
      '9433.96',
      '9433.96',
      '9433.96',
      '9716.98',
      '9575.47',
    ]);
    expect(xmlText(xml, 'LabelType')).toEqual(['发票开具方式标签', '特定征税方式标签']);
    expect(xmlText(xml, 'LabelCode').slice(-1)).toEqual(['01,02,04,05,06']);
    expect(xmlText(xml, 'LabelName').slice(-1)).toEqual(['不征税,零税率,免税,简易计税,减按']);
  });

  it('the schema refuses what the spec lacks or misses (so the validations above can fail)', async () => {
    const good = renderInvoiceXml(sampleInvoice());
    const broken = [
      good.replace('<Version>0.36</Version>', '<Version>0.1</Version>'),
      good.replace('<RequestTime>', '<Slsm>2</Slsm><RequestTime>'),
      good.replace(/<TotaltaxIncludedAmount>[^<]*<\/TotaltaxIncludedAmount>/, ''),
      good.replace(/<TaxpayerType>[\s\S]*?<\/TaxpayerType>/, ''),
      good.replace('<EInvoiceTag>SWEI3300', '<EInvoiceTag>SWEI33'),
      good.replace('国家税务总局浙江省税务局', '浙江省税务局'),
      good.replace(
        '<SpecificInformation/>',
        '<SpecificInformation><ConstructionService/></SpecificInformation>',
      ),
      good.replace('<LabelName>电子发票</LabelName>', '<LabelName>机动车</LabelName>'),
    ];
    for (const xml of broken) {
      expect(xml).not.toBe(good);
      expect((await xsdErrors(xml)).length).toBeGreaterThan(0);
    }
  });

  it('escapes markup and drops control characters from user text', async () => {
    const inv = sampleInvoice({
      buyer: { ...sampleInvoice().buyer, name: 'A&B <公司> "引号" \'单\'' },
      remark: 'x\u0001y & </Remark><Evil>',
    });
    const xml = renderInvoiceXml(inv);
    await expectValid(xml);
    expect(xmlText(xml, 'BuyerName')).toEqual(['A&amp;B &lt;公司&gt; &quot;引号&quot; &apos;单&apos;']);
    expect(xml).not.toContain('<Evil>');
    expect(xml).not.toContain('\u0001');
    expect(escapeXml('a\u0000b\tc\u000Bd')).toBe('ab\tcd');
  });

  it('the small-scale 3% reason stays out of the XML (no §四 element) but is still read from the stored block', () => {
    expect(renderInvoiceXml(sampleInvoice({ smallScaleReason: '2' }))).not.toMatch(
      /Slsm|<[^>]*>2<\/[^>]*>\s*<\/BasicInformation>/,
    );
    expect(smallScaleReasonOf({ small_scale_reason: '1', hotel_stay: {} })).toBe('1');
    expect(smallScaleReasonOf({ small_scale_reason: '3' })).toBeNull();
    expect(smallScaleReasonOf(null)).toBeNull();
  });
});

/** 附件二 as published: the bureau names a TaxBureauName may carry. */
const ANNEX_2 = [
  '北京市',
  '四川省',
  '宁夏回族自治区',
  '新疆维吾尔自治区',
  '天津市',
  '河北省',
  '山西省',
  '内蒙古自治区',
  '辽宁省',
  '吉林省',
  '黑龙江省',
  '上海市',
  '江苏省',
  '浙江省',
  '安徽省',
  '福建省',
  '江西省',
  '山东省',
  '河南省',
  '湖北省',
  '湖南省',
  '广东省',
  '广西壮族自治区',
  '海南省',
  '重庆市',
  '贵州省',
  '云南省',
  '西藏自治区',
  '陕西省',
  '甘肃省',
  '青海省',
  '大连市',
  '青岛市',
  '宁波市',
  '厦门市',
  '深圳市',
].map((n) => `国家税务总局${n}税务局`);

describe('supervising bureau — 附件一 / 附件二', () => {
  const of = (
    taxCode: string,
    o: Partial<{ invoiceCode: string; invoiceNo: string; digital: boolean }> = {},
  ) => supervisingBureau({ seller: { taxCode }, invoiceCode: '', invoiceNo: '', digital: true, ...o });

  it('from the seller’s 统一社会信用代码: province, or a city with its own bureau', () => {
    expect(of('91330106MA2KC7LM1A')).toEqual({
      xzjg: '13300',
      tag: 'SWEI3300',
      code: '13300000000',
      name: '国家税务总局浙江省税务局',
    });
    expect(of('91330201MA2AAAAAAA')).toMatchObject({ tag: 'SWEI3302', name: '国家税务总局宁波市税务局' });
    expect(of('91440300MA5AAAAAAA')).toMatchObject({ tag: 'SWEI4403', code: '14403000000' });
    expect(of('91440101MA5AAAAAAA')).toMatchObject({ tag: 'SWEI4400', name: '国家税务总局广东省税务局' });
    expect(of('91110108MA0AAAAAAA')).toMatchObject({ tag: 'SWEI1100', name: '国家税务总局北京市税务局' });
    expect(of('91650100MA0AAAAAAA')).toMatchObject({
      tag: 'SWEI6500',
      name: '国家税务总局新疆维吾尔自治区税务局',
    });
    // an older 15-digit 纳税人识别号 starts with its division
    expect(of('320102123456789')).toMatchObject({ tag: 'SWEI3200' });
  });

  it('falls back to the invoice’s own numbers, and says so in Chinese when nothing names a bureau', () => {
    expect(of('', { invoiceNo: '26442000004359167806' })).toMatchObject({ tag: 'SWEI4400' });
    expect(of('X', { digital: false, invoiceCode: '033002100111', invoiceNo: '01234567' })).toMatchObject({
      tag: 'SWEI3300',
    });
    expect(of('X', { digital: false, invoiceCode: '3502231130', invoiceNo: '01234567' })).toMatchObject({
      tag: 'SWEI3502',
    });
    expect(() => of('91990000MA0AAAAAAA', { invoiceNo: '26992000000000000001' })).toThrow(
      '无法从销售方纳税人识别号 91990000MA0AAAAAAA 确定监制税务机关',
    );
  });

  it('every 附件一 bureau has its 附件二 name, and each name once', () => {
    const divisions = [
      ...['11', '12', '13', '14', '15', '21', '22', '23', '31', '32', '33', '34', '35', '36', '37'],
      ...['41', '42', '43', '44', '45', '46', '50', '51', '52', '53', '54', '61', '62', '63', '64', '65'],
    ].map((p) => `${p}01`);
    const cities = ['2102', '3302', '3502', '3702', '4403'];
    const names = [...divisions, ...cities].map((d) => {
      const xzjg = xzjgOfDivision(d);
      expect(xzjg).not.toBeNull();
      return of(`91${d}00MA0AAAAAAA`).name;
    });
    expect([...names].sort()).toEqual([...ANNEX_2].sort());
    expect(xzjgOfDivision('7101')).toBeNull();
    expect(xzjgOfDivision('33')).toBeNull();
  });
});
