import { INVOICE_TYPES } from '@kaipiao/shared';
import { type DocLine, type InvoiceDocData, normalizeSpecific } from './model.ts';
import { buildQrString } from './qr.ts';

/**
 * A constructed invoice (the demo software company selling to a buyer) for tests, the benchmark and
 * the sample PDF. `lines` repeats the two demo lines to the requested count.
 */
export function sampleInvoice(overrides: Partial<InvoiceDocData> = {}, lineCount = 2): InvoiceDocData {
  const base: DocLine[] = [
    {
      lineKind: 0,
      taxClassCode: '3040201010000000000',
      name: '*信息技术服务*软件开发服务',
      spec: 'V2.0',
      unit: '项',
      quantity: '1.00000000',
      unitPrice: '9433.96226415',
      amount: '9433.96',
      taxRate: '0.0600',
      taxAmount: '566.04',
      zeroRateFlag: '',
      preferentialCode: '',
    },
    {
      lineKind: 0,
      taxClassCode: '3040203000000000000',
      name: '*信息技术服务*软件运维服务',
      spec: '',
      unit: '月',
      quantity: '3.00000000',
      unitPrice: '188.67924528',
      amount: '566.04',
      taxRate: '0.0600',
      taxAmount: '33.96',
      zeroRateFlag: '',
      preferentialCode: '',
    },
  ];
  const lines = Array.from({ length: lineCount }, (_, i) => ({ ...base[i % 2]! }));
  const cents = (v: string) => Math.round(Number(v) * 100);
  const totalAmount = lines.reduce((a, l) => a + cents(l.amount), 0);
  const totalTax = lines.reduce((a, l) => a + cents(l.taxAmount), 0);
  const fmt = (c: number) => (c / 100).toFixed(2);
  const inv: InvoiceDocData = {
    invoiceType: '82',
    title: INVOICE_TYPES['82'],
    digital: true,
    red: false,
    invoiceCode: '',
    invoiceNo: '26332000000000012345',
    checkCode: '',
    machineNo: '',
    issuedAt: new Date('2026-11-22T02:30:00Z'),
    buyer: {
      name: '上海明远贸易有限公司',
      taxCode: '91310115MA1H7XXXXQ',
      address: '上海市浦东新区张江路88号',
      phone: '021-50801234',
      bankName: '',
      bankAccount: '',
    },
    seller: {
      name: '杭州云栈软件科技有限公司',
      taxCode: '91330106MA2KC7LM1A',
      address: '浙江省杭州市西湖区文三路90号',
      phone: '0571-88886666',
      bankName: '招商银行杭州分行',
      bankAccount: '571908765410001',
    },
    sellerTaxpayerType: 'general',
    lines,
    totalAmount: fmt(totalAmount),
    totalTax: fmt(totalTax),
    totalWithTax: fmt(totalAmount + totalTax),
    remark: '项目编号：YZ-2026-118',
    drawer: '王小明',
    payee: '李娜',
    reviewer: '张伟',
    specific: null,
    hotelStay: null,
    original: null,
    qrString: '',
    ...overrides,
  };
  if (!inv.qrString) inv.qrString = buildQrString(inv);
  return inv;
}

/** Special-business blocks for tests: 货物运输 (04), 旅客运输 (09), 不动产经营租赁 (06). */
export const SAMPLE_SPECIFIC = {
  freight: () =>
    normalizeSpecific('04', {
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
  passenger: () =>
    normalizeSpecific('09', {
      passenger_transport: [
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
  rent: () =>
    normalizeSpecific('06', {
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
};
