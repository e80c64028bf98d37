import { isoDate, isoDateTime, money2, toCapital, trimDecimal } from './format.ts';
import type { InvoiceDocData } from './model.ts';
import { assembleRemark, idTypeName, passengerVehicleName, transportVehicleName } from './remark.ts';

/**
 * The invoice data file in the bureau's 数电 XML layout (domain.md §1.3): root `EInvoice` → `Header`
 * (labels), `EInvoiceData` (seller, buyer, basic information, item lines, specific information,
 * additional information) and `TaxSupervisionInfo`. Blue `InIssuType/LabelCode` Y, red N.
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
    } else {
      out.push(`${pad}<${name}>`);
      write(value, depth + 1, out);
      out.push(`${pad}</${name}>`);
    }
  }
}

const label = (code: string, name: string): Node[] => [el('LabelCode', code), el('LabelName', name)];

/** "0.0600" → "0.06"; 免税 / 不征税 lines carry rate 0 */
const xmlRate = (rate: string, flag: string) =>
  flag === '1' || flag === '2' ? '0' : trimDecimal(rate) || '0';

export function renderInvoiceXml(inv: InvoiceDocData): string {
  const special = inv.invoiceType === '81' || inv.invoiceType === '004' || inv.invoiceType === '028';
  const kind = special ? label('01', '增值税专用发票') : label('02', '普通发票');
  const specificNodes: Node[] = [];
  if (inv.red && inv.original) {
    specificNodes.push(
      el('RedEInvoice', [
        el('OriginalInvoiceCode', inv.digital ? inv.original.invoiceNo : inv.original.invoiceCode),
        ...(inv.digital ? [] : [el('OriginalInvoiceNumber', inv.original.invoiceNo)]),
        el('CreditNoteNumber', inv.original.redFormNo),
      ]),
    );
  }
  const s = inv.specific;
  if (s?.code === '03') {
    const b = s.building;
    specificNodes.push(
      el('ConstructionService', [
        el('ConstructionServiceLocation', b.place),
        el('DetailedAddress', b.detail_address),
        el('ConstructionProjectName', b.project_name),
        el('CrossCitySign', b.cross_city),
        el('CrossRegionalTaxMattersNumber', b.cross_region_no),
        el('LandVATProjectNumber', b.land_vat_project_no),
      ]),
    );
  }
  if (s?.code === '04') {
    for (const t of s.transports) {
      specificNodes.push(
        el('GoodsTransportation', [
          el('TypeOfTransportationTool', transportVehicleName(t.vehicle_type)),
          el('TransportationToolNumber', t.vehicle_no),
          el('Departure', t.origin),
          el('Destination', t.destination),
          el('GoodsName', t.goods_name),
        ]),
      );
    }
  }
  if (s?.code === '06') {
    for (const r of s.rents) {
      specificNodes.push(
        el('RealEstateLeasing', [
          el('RealEstateAddressProvince', r.province),
          el('RealEstateAddressCity', r.city),
          el('DetailedAddress', r.detail_address),
          el('LeasePeriod', r.lease_period),
          el('CrossCitySign', r.cross_city),
          el('PropertyCertificateNumber', r.certificate_no),
          el('PlateNumber', r.plate_no),
          el('AreaUnit', r.area_unit),
        ]),
      );
    }
  }
  if (s?.code === '09') {
    for (const t of s.travellers) {
      specificNodes.push(
        el('PassengerTransportation', [
          el('Traveler', t.traveller),
          el('TypeOfPassengerDocument', idTypeName(t.id_type)),
          el('ValidIDNumber', t.id_no),
          el('TravelDate', t.travel_date),
          el('Departure', t.origin),
          el('Destination', t.destination),
          el('Vehicletype', passengerVehicleName(t.vehicle_type)),
          el('Grade', t.seat_class),
        ]),
      );
    }
  }
  const SPECIFIC_NAMES: Record<string, string> = {
    '03': '建筑服务',
    '04': '货物运输服务',
    '06': '不动产经营租赁服务',
    '09': '旅客运输服务',
  };

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
      el('EIid', inv.invoiceNo),
      el('EInvoiceTag', 'SWEI3200'),
      el('Version', '0.1'),
      el('InherentLabel', [
        el('InIssuType', label(inv.red ? 'N' : 'Y', '是否蓝字发票标志')),
        el('EInvoiceType', kind),
        el('GeneralOrSpecialVAT', kind),
      ]),
      el(
        'UndefinedLabel',
        s ? [el('Label', [el('LabelType', '特定业务'), ...label(s.code, SPECIFIC_NAMES[s.code] ?? '')])] : [],
      ),
    ]),
    el('EInvoiceData', [
      el('SellerInformation', party('Seller', inv.seller)),
      el('BuyerInformation', party('Buyer', inv.buyer)),
      el('BasicInformation', [
        el('TotalAmWithoutTax', money2(inv.totalAmount)),
        el('TotalTaxAm', money2(inv.totalTax)),
        el('TotalTax-includedAmount', money2(inv.totalWithTax)),
        el('TotalTax-includedAmountInChinese', toCapital(inv.totalWithTax)),
        el('Drawer', inv.drawer),
        el('RequestTime', isoDateTime(inv.issuedAt)),
        // small-scale 3% while the 1% reduction ran: the bureau's 开具原因 `slsm` (domain.md §2.6)
        ...(inv.smallScaleReason ? [el('Slsm', inv.smallScaleReason)] : []),
      ]),
      ...inv.lines.map((l) =>
        el('IssuItemInformation', [
          el('ItemName', l.name),
          el('SpecMod', l.spec),
          el('MeaUnits', l.unit),
          el('Quantity', trimDecimal(l.quantity)),
          el('UnPrice', trimDecimal(l.unitPrice)),
          el('Amount', money2(l.amount)),
          el('TaxRate', xmlRate(l.taxRate, l.zeroRateFlag)),
          el('ComTaxAm', money2(l.taxAmount)),
          el('TaxClassificationCode', l.taxClassCode),
        ]),
      ),
      el('SpecificInformation', specificNodes),
      el('AdditionalInformation', [el('Remark', assembleRemark(inv))]),
    ]),
    el('TaxSupervisionInfo', [
      ...(inv.digital ? [] : [el('InvoiceCode', inv.invoiceCode)]),
      el('InvoiceNumber', inv.invoiceNo),
      el('IssueTime', isoDate(inv.issuedAt)),
    ]),
  ];
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<EInvoice>'];
  write(doc, 1, out);
  out.push('</EInvoice>', '');
  return out.join('\n');
}
