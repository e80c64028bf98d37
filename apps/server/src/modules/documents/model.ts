import {
  type buildingServiceSchema,
  DIGITAL_INVOICE_TYPES,
  type goodsTransportSchema,
  type hotelStaySchema,
  INVOICE_TYPES,
  type passengerTransportSchema,
  type realStaticRentSchema,
  type SmallScaleReason,
  storedHotelStay,
  storedShowBank,
  storedSmallScaleReason,
  storedSpecificBlock,
} from '@kaipiao/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { clients, invoiceLines, invoices, redForms, taxDevices } from '../../db/schema/index.ts';
import { buildQrString } from './qr.ts';

/**
 * Everything an invoice document (PDF, XML, e-mail) shows, as plain data: built from the DB rows in
 * one place (`loadInvoiceDoc`) so tests and the benchmark can construct it directly.
 * Amounts are decimal strings as stored (negative on red invoices).
 */
export type DocParty = {
  name: string;
  taxCode: string;
  address: string;
  phone: string;
  bankName: string;
  bankAccount: string;
};

/**
 * A printed line: the stored line's columns (invoice_lines: `lineKind` 0 normal, 1 discount line,
 * 2 discounted line; `unitPrice` tax-exclusive, as 数电 prints 不含税单价; `taxRate` "0.06";
 * `zeroRateFlag` '' | '0' 出口零税率 | '1' 免税 | '2' 不征税 | '3' 普通零税率) and the printed
 * 项目名称 `*简称*名称` as `name`.
 */
export type DocLine = Pick<
  typeof invoiceLines.$inferSelect,
  | 'lineKind'
  | 'taxClassCode'
  | 'spec'
  | 'unit'
  | 'quantity'
  | 'unitPrice'
  | 'amount'
  | 'taxRate'
  | 'taxAmount'
  | 'zeroRateFlag'
  | 'preferentialCode'
> & { name: string };

export type BuildingService = z.infer<typeof buildingServiceSchema>;
export type GoodsTransport = z.infer<typeof goodsTransportSchema>;
export type RealStaticRent = z.infer<typeof realStaticRentSchema>;
export type PassengerTransport = z.infer<typeof passengerTransportSchema>;
export type HotelStay = z.infer<typeof hotelStaySchema>;

export type SpecificBusiness =
  | { code: '03'; building: BuildingService }
  | { code: '04'; transports: GoodsTransport[] }
  | { code: '06'; rents: RealStaticRent[] }
  | { code: '09'; travellers: PassengerTransport[] };

export type InvoiceDocData = {
  invoiceType: string;
  /** 电子发票（普通发票） … */
  title: string;
  /** 数电 (81/82): 20-digit number, no code; 备注 carries bank info and 收款人/复核人 */
  digital: boolean;
  red: boolean;
  invoiceCode: string;
  invoiceNo: string;
  checkCode: string;
  /** 机器编号 (old kinds) */
  machineNo: string;
  issuedAt: Date;
  buyer: DocParty;
  seller: DocParty;
  /** the seller business's 纳税人类型 (XML `TaxpayerType`: 1 一般纳税人, 2 小规模纳税人) */
  sellerTaxpayerType: 'general' | 'small';
  lines: DocLine[];
  totalAmount: string;
  totalTax: string;
  totalWithTax: string;
  /** the user's remark (the printed 备注 is assembled around it, see remark.ts) */
  remark: string;
  drawer: string;
  payee: string;
  reviewer: string;
  specific: SpecificBusiness | null;
  hotelStay: HotelStay | null;
  /** why a small-scale taxpayer issued 3% while the 1% reduction ran (`slsm`, domain.md §2.6) */
  smallScaleReason?: SmallScaleReason | null;
  /**
   * 是否展示购买方/销售方银行账号 (spec §三 1.6): bank details print in 备注 only when asked for
   * (`specific_business.show_bank`, from the issue request's `show_buyer_bank` / `show_seller_bank`)
   */
  showBank?: { buyer: boolean; seller: boolean };
  /** red invoices: the blue invoice they reverse and the 红字发票信息确认单 / 信息表 number ('' without a form) */
  original: { invoiceCode: string; invoiceNo: string; redFormNo: string } | null;
  /** 票面二维码 string (domain.md §1.2) */
  qrString: string;
};

export const invoiceTitle = (type: string): string =>
  (INVOICE_TYPES as Record<string, string>)[type] ?? INVOICE_TYPES['82'];

export const isDigitalType = (type: string) => (DIGITAL_INVOICE_TYPES as readonly string[]).includes(type);

const asArray = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

/**
 * The stored 特定业务 block → one shape. The block is found as the shared rule keeps it
 * (`storedSpecificBlock`: the key of SPECIFIC_BUSINESS_BLOCKS, or the bare block itself).
 */
export function normalizeSpecific(code: string | null, raw: unknown): SpecificBusiness | null {
  if (!code || raw === null || raw === undefined) return null;
  const block = storedSpecificBlock(code, raw);
  switch (code) {
    case '03':
      return block && typeof block === 'object' && 'place' in block
        ? { code, building: block as BuildingService }
        : null;
    case '04':
      return { code, transports: asArray(block) };
    case '06':
      return { code, rents: asArray(block) };
    case '09':
      return { code, travellers: asArray(block) };
    default:
      return null;
  }
}

/** The stored `specific_business.show_bank` flags (absent: neither): the shared reader. */
export const showBankOf = storedShowBank;

/** The stored `specific_business.small_scale_reason` ('1' | '2'), if any: the shared reader. */
export const smallScaleReasonOf = storedSmallScaleReason;

/** The invoice of this tenant as document data; null when it is not this tenant's or not issued. */
export async function loadInvoiceDoc(
  db: Db,
  clientId: number,
  invoiceId: number,
): Promise<InvoiceDocData | null> {
  const [inv] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.clientId, clientId)))
    .limit(1);
  if (!inv?.invoiceNo || !inv.issuedAt) return null;
  const [lines, device, original, seller, redForm] = await Promise.all([
    db
      .select()
      .from(invoiceLines)
      .where(and(eq(invoiceLines.invoiceId, invoiceId), eq(invoiceLines.clientId, clientId)))
      .orderBy(asc(invoiceLines.lineNo)),
    db
      .select({ deviceNo: taxDevices.deviceNo })
      .from(taxDevices)
      .where(and(eq(taxDevices.id, inv.deviceId), eq(taxDevices.clientId, clientId)))
      .limit(1),
    inv.originalInvoiceId
      ? db
          .select({ invoiceCode: invoices.invoiceCode, invoiceNo: invoices.invoiceNo })
          .from(invoices)
          .where(and(eq(invoices.id, inv.originalInvoiceId), eq(invoices.clientId, clientId)))
          .limit(1)
      : Promise.resolve([]),
    db.select({ taxpayerType: clients.taxpayerType }).from(clients).where(eq(clients.id, clientId)).limit(1),
    inv.redFormId
      ? db
          .select({ formNo: redForms.formNo })
          .from(redForms)
          .where(and(eq(redForms.id, inv.redFormId), eq(redForms.clientId, clientId)))
          .limit(1)
      : Promise.resolve([]),
  ]);
  const digital = isDigitalType(inv.invoiceType);
  const data: InvoiceDocData = {
    invoiceType: inv.invoiceType,
    title: invoiceTitle(inv.invoiceType),
    digital,
    red: inv.direction === 'red',
    invoiceCode: inv.invoiceCode,
    invoiceNo: inv.invoiceNo,
    checkCode: inv.checkCode,
    machineNo: digital ? '' : (device[0]?.deviceNo ?? ''),
    issuedAt: inv.issuedAt,
    buyer: {
      name: inv.buyerName,
      taxCode: inv.buyerTaxCode,
      address: inv.buyerAddress,
      phone: inv.buyerPhone,
      bankName: inv.buyerBankName,
      bankAccount: inv.buyerBankAccount,
    },
    seller: {
      name: inv.sellerName,
      taxCode: inv.sellerTaxCode,
      address: inv.sellerAddress,
      phone: inv.sellerPhone,
      bankName: inv.sellerBankName,
      bankAccount: inv.sellerBankAccount,
    },
    sellerTaxpayerType: seller[0]?.taxpayerType === 'small' ? 'small' : 'general',
    lines: lines.map((l) => ({
      lineKind: l.lineKind,
      taxClassCode: l.taxClassCode,
      name: l.fullName || `*${l.shortName}*${l.itemName}`,
      spec: l.spec,
      unit: l.unit,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      amount: l.amount,
      taxRate: l.taxRate,
      taxAmount: l.taxAmount,
      zeroRateFlag: l.zeroRateFlag,
      preferentialCode: l.preferentialCode,
    })),
    totalAmount: inv.totalAmount,
    totalTax: inv.totalTax,
    totalWithTax: inv.totalWithTax,
    remark: inv.remark,
    drawer: inv.drawer,
    payee: inv.payee,
    reviewer: inv.reviewer,
    specific: normalizeSpecific(inv.specificBusinessCode, inv.specificBusiness),
    hotelStay: storedHotelStay(inv.specificBusiness),
    smallScaleReason: smallScaleReasonOf(inv.specificBusiness),
    showBank: showBankOf(inv.specificBusiness),
    original: original[0]
      ? {
          invoiceCode: original[0].invoiceCode,
          invoiceNo: original[0].invoiceNo ?? '',
          redFormNo: redForm[0]?.formNo ?? '',
        }
      : null,
    qrString: '',
  };
  data.qrString = inv.qrString || buildQrString(data);
  return data;
}
