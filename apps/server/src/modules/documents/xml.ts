import { beijingDateTime, beijingDay, dec, fixed, rateLabel, SPECIAL_INVOICE_TYPES } from '@kaipiao/shared';
import { supervisingBureau } from './bureau.ts';
import { money2, toCapital, trimDecimal } from './format.ts';
import type { DocLine, InvoiceDocData } from './model.ts';
import { assembleRemark, idTypeName, passengerVehicleName, transportVehicleName } from './remark.ts';

/**
 * The invoice data file in the bureau's 数电 XML layout, 《数字化电子发票版式及XML规范V5.002》§四, element
 * for element (the structure is written down as `apps/server/test/fixtures/einvoice-v0.36.xsd`, and every kind
 * of document we make is validated against it in the tests): root `EInvoice` → `Header` (identity,
 * Version 0.36, fixed and other labels), `EInvoiceData` (seller, buyer, basic information, one
 * `IssuItemInformation` per line, `SpecificInformation`, `AdditionalInformation`),
 * `SellerAuthentication` and `TaxSupervisionInfo` (the supervising bureau of 附件一/二).
 *
 * Old tax-control kinds (004/007/025/026/028/032) use the same layout; §四 has no element for their
 * 发票代码, so their identifier `EIid` (and a red one's `OriginalInvoiceCode`) is 发票代码 + 发票号码.
 */

// XML 1.0 forbids most C0 controls even as character references; they are dropped
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeXml(value: string): string {
  return value
    .replace(INVALID_XML_CHARS, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

type Node = [string, string | Node[]];

const el = (name: string, value: string | Node[]): Node => [name, value];

function write(nodes: Node[], depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  for (const [name, value] of nodes) {
    if (typeof value === 'string') {
      out.push(value === '' ? `${pad}<${name}/>` : `${pad}<${name}>${escapeXml(value)}</${name}>`);
    } else if (value.length === 0) {
      out.push(`${pad}<${name}/>`);
    } else {
      out.push(`${pad}<${name}>`);
      write(value, depth + 1, out);
      out.push(`${pad}</${name}>`);
    }
  }
}

const label = (code: string, name: string): Node[] => [el('LabelCode', code), el('LabelName', name)];

/** §四 item 24: we issue for our tenants as a third-party platform. */
const ISSUE_CHANNEL_LABEL = ['4', '第三方平台开票(乐企联用、他用开票)'] as const;

/** §四 item 32: 特定征税方式 code and name per line, from its rate and 优惠政策 code (domain.md §2.3). */
const SPECIAL_TAXATION = {
  '01': '不征税',
  '02': '零税率',
  '04': '免税',
  '05': '简易计税',
  '06': '减按',
} as const;
type SpecialTaxation = keyof typeof SPECIAL_TAXATION;

function specialTaxationOf(l: DocLine): SpecialTaxation | null {
  const rate = rateLabel(l.taxRate, l.zeroRateFlag, l.preferentialCode);
  if (rate === '不征税') return '01';
  if (rate === '免税') return '04';
  if (rate === '0%') return '02';
  if (['01', '08', '09'].includes(l.preferentialCode)) return '05';
  if (l.preferentialCode === '10') return '06';
  return null;
}

/**
 * §四 items 71-73, the special display rules: rate 0% → "0%" and tax 0.00; 免税 → "免税" and "***";
 * 不征税 → "不征税" and an empty tax; otherwise the rate as a decimal ("0.06") and the tax.
 */
function lineRateAndTax(l: DocLine): { rate: string; tax: string } {
  const shown = rateLabel(l.taxRate, l.zeroRateFlag, l.preferentialCode);
  if (shown === '免税') return { rate: shown, tax: '***' };
  if (shown === '不征税') return { rate: shown, tax: '' };
  if (shown === '0%') return { rate: shown, tax: money2(l.taxAmount) };
  return { rate: trimDecimal(l.taxRate), tax: money2(l.taxAmount) };
}

/** `yyyy-MM-dd yyyy-MM-dd` (§四 item 98) from the stored period, which may carry times. */
function leaseTerm(period: string): string {
  const days = period.match(/\d{4}-\d{2}-\d{2}/g) ?? [];
  return days.length >= 2 ? `${days[0]} ${days[days.length - 1]}` : period.trim();
}

function specificNodes(inv: InvoiceDocData): Node[] {
  const nodes: Node[] = [];
  const s = inv.specific;
  if (s?.code === '03') {
    const b = s.building;
    // 详细地址 and 跨区域涉税事项报验管理编号 have no element: they are in 备注 (AdditionalInformation)
    nodes.push(
      el('ConstructionServices', [
        el('OccurredSite', b.place),
        el('ItemName', b.project_name),
        el('LandValueAddedTaxProjectNumber', b.land_vat_project_no),
        el('CrossRegionIdentifier', b.cross_city),
      ]),
    );
  }
  if (s?.code === '04') {
    for (const t of s.transports) {
      nodes.push(
        el('FreightService', [
          el('Departure', t.origin),
          el('Destination', t.destination),
          el('TypeOfTransportationMeans', transportVehicleName(t.vehicle_type)),
          el('TransportationMeansNo', t.vehicle_no),
          el('NameOfGoodsTransported', t.goods_name),
        ]),
      );
    }
  }
  if (s?.code === '06') {
    for (const r of s.rents) {
      nodes.push(
        el('RealEstateLease', [
          el('RealEstateWarrantNumber', r.certificate_no),
          el('RealEstateAddress', `${r.province}${r.city}${r.detail_address}`),
          el('TheLeaseTermBeginsAndEnds', leaseTerm(r.lease_period)),
          el('CrossRegionIdentifier', r.cross_city),
          el('PlateNumber', r.plate_no),
        ]),
      );
    }
  }
  if (s?.code === '09') {
    for (const t of s.travellers) {
      nodes.push(
        el('PassengerTransportation', [
          el('Traveler', t.traveller),
          el('TravelDate', t.travel_date),
          el('Departure', t.origin),
          el('Destination', t.destination),
          el('Grade', t.seat_class),
          el('Vehicletype', passengerVehicleName(t.vehicle_type)),
          el('TypeOfPassengerDocument', idTypeName(t.id_type)),
          el('ValidIDNumber', t.id_no),
        ]),
      );
    }
  }
  if (inv.red && inv.original) {
    const o = inv.original;
    nodes.push(
      el('RedEInvoice', [
        el('OriginalInvoiceCode', inv.digital ? o.invoiceNo : `${o.invoiceCode}${o.invoiceNo}`),
        el('CreditNoteNumber', o.redFormNo),
      ]),
    );
  }
  return nodes;
}

function undefinedLabels(inv: InvoiceDocData): Node[] {
  const labels: Node[] = [
    el('Label', [el('LabelType', '发票开具方式标签'), ...label(...ISSUE_CHANNEL_LABEL)]),
  ];
  const ways = [
    ...new Set(inv.lines.map(specialTaxationOf).filter((c): c is SpecialTaxation => c !== null)),
  ].sort();
  if (ways.length > 0) {
    labels.push(
      el('Label', [
        el('LabelType', '特定征税方式标签'),
        ...label(ways.join(','), ways.map((c) => SPECIAL_TAXATION[c]).join(',')),
      ]),
    );
  }
  return labels;
}

export function renderInvoiceXml(inv: InvoiceDocData): string {
  const bureau = supervisingBureau(inv);
  const special = (SPECIAL_INVOICE_TYPES as readonly string[]).includes(inv.invoiceType);
  const eiid = inv.digital ? inv.invoiceNo : `${inv.invoiceCode}${inv.invoiceNo}`;

  const party = (prefix: 'Seller' | 'Buyer', p: InvoiceDocData['seller']): Node[] => [
    el(`${prefix}IdNum`, p.taxCode),
    el(`${prefix}Name`, p.name),
    el(`${prefix}Addr`, p.address),
    el(`${prefix}TelNum`, p.phone),
    el(`${prefix}BankName`, p.bankName),
    el(`${prefix}BankAccNum`, p.bankAccount),
  ];

  const doc: Node[] = [
    el('Header', [
      el('EIid', eiid),
      el('EInvoiceTag', bureau.tag),
      el('Version', '0.36'),
      el('InherentLabel', [
        el('InIssuType', label(inv.red ? 'N' : 'Y', '是否蓝字发票标志')),
        el('EInvoiceType', label('01', '电子发票')),
        el('GeneralOrSpecialVAT', special ? label('01', '增值税专用发票') : label('02', '普通发票')),
        el(
          'TaxpayerType',
          inv.sellerTaxpayerType === 'small' ? label('2', '小规模纳税人') : label('1', '一般纳税人'),
        ),
      ]),
      el('UndefinedLabel', undefinedLabels(inv)),
    ]),
    el('EInvoiceData', [
      el('SellerInformation', party('Seller', inv.seller)),
      el('BuyerInformation', [...party('Buyer', inv.buyer), el('BuyerHandlingName', '')]),
      el('BasicInformation', [
        el('TotalAmWithoutTax', money2(inv.totalAmount)),
        el('TotalTaxAm', money2(inv.totalTax)),
        el('TotalTax-includedAmount', money2(inv.totalWithTax)),
        el('TotalTax-includedAmountInChinese', toCapital(inv.totalWithTax)),
        el('Drawer', inv.drawer),
        el('RequestTime', beijingDateTime(inv.issuedAt)),
      ]),
      ...inv.lines.map((l) => {
        const { rate, tax } = lineRateAndTax(l);
        return el('IssuItemInformation', [
          el('ItemName', l.name),
          el('SpecMod', l.spec),
          el('MeaUnits', l.unit),
          el('Quantity', trimDecimal(l.quantity)),
          el('UnPrice', trimDecimal(l.unitPrice)),
          el('Amount', money2(l.amount)),
          el('TaxRate', rate),
          el('ComTaxAm', tax),
          el('TotaltaxIncludedAmount', fixed(dec(l.amount).plus(l.taxAmount), 2)),
          el('TaxClassificationCode', l.taxClassCode),
        ]);
      }),
      el('SpecificInformation', specificNodes(inv)),
      el('AdditionalInformation', [el('Remark', assembleRemark(inv))]),
    ]),
    // no authentication method is recorded with our invoices: §四 item 248 lets the node be empty
    el('SellerAuthentication', []),
    el('TaxSupervisionInfo', [
      el('InvoiceNumber', inv.invoiceNo),
      el('IssueTime', beijingDay(inv.issuedAt)),
      el('TaxBureauCode', bureau.code),
      el('TaxBureauName', bureau.name),
    ]),
  ];
  const out = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>', '<EInvoice>'];
  write(doc, 1, out);
  out.push('</EInvoice>', '');
  return out.join('\n');
}
