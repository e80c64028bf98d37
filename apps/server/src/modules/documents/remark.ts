import { GOODS_TRANSPORT_VEHICLES, ID_DOCUMENT_TYPES, PASSENGER_VEHICLES, TERMS } from '@kaipiao/shared';
import type { InvoiceDocData } from './model.ts';

/**
 * Between two items on one 备注 line: the bureau's "大tab", four spaces after the item's ";"
 * (spec §三 1.6).
 */
export const REMARK_SEPARATOR = '    ';

/** 运输工具种类 as printed: the form sends the name; codes 1-6 (fapiaoapi) are mapped too. */
export const transportVehicleName = (v: string): string =>
  /^[1-6]$/.test(v) ? (GOODS_TRANSPORT_VEHICLES[Number(v) - 1] ?? v) : v;

/** 交通工具类型 code → name (some providers use 8 for 其他). */
export const passengerVehicleName = (v: string): string =>
  (PASSENGER_VEHICLES as Record<string, string>)[v] ?? (v === '8' ? '其他' : v);

/** 证件类型 code → name (domain.md §5.6). */
export const idTypeName = (v: string): string => (ID_DOCUMENT_TYPES as Record<string, string>)[v] ?? v;

/** ID numbers other than 身份证 are masked on the printout (domain.md §4.4). */
export function maskedIdNo(idType: string, idNo: string): string {
  if (idType === '201' || idNo.length <= 4) return idNo;
  const keep = Math.min(4, Math.floor(idNo.length / 3));
  return `${idNo.slice(0, keep)}${'*'.repeat(idNo.length - keep * 2)}${idNo.slice(-keep)}`;
}

const yesNo = (v: string) => (v === 'Y' ? '是' : '否');

/** 特定要素信息 that the 数电 form prints in 备注 rather than in a table. */
function specificRemark(inv: InvoiceDocData): string[] {
  const s = inv.specific;
  if (!s) return [];
  if (s.code === '03') {
    const b = s.building;
    // 发生地 and 项目名称 have their own columns in the item table
    const parts = [
      ...(b.detail_address ? [`建筑服务详细地址：${b.detail_address}`] : []),
      `跨地（市）标志：${yesNo(b.cross_city)}`,
    ];
    if (b.cross_region_no) parts.push(`跨区域涉税事项报验管理编号：${b.cross_region_no}`);
    if (b.land_vat_project_no) parts.push(`土地增值税项目编号：${b.land_vat_project_no}`);
    return [parts.join('；')];
  }
  if (s.code === '06') {
    return s.rents.map((r) =>
      [
        `不动产地址：${r.province}${r.city}${r.detail_address}`,
        `租赁期起止：${r.lease_period.replace(/^(\S+(?: \d\d:\d\d)?) /, '$1 至 ')}`,
        `跨地（市）标志：${yesNo(r.cross_city)}`,
        ...(r.plate_no ? [`车牌号：${r.plate_no}`] : []),
      ].join('；'),
    );
  }
  return [];
}

/** A red invoice's reference to the blue one: the wording of the bureau's red invoices (domain.md §3). */
export function redReference(inv: InvoiceDocData): string {
  const o = inv.original;
  if (!inv.red || !o) return '';
  if (!inv.digital) return `对应正数发票代码:${o.invoiceCode}号码:${o.invoiceNo}`;
  return `被红冲蓝字数电发票号码：${o.invoiceNo}${o.redFormNo ? ` 红字发票信息确认单编号：${o.redFormNo}` : ''}`;
}

/** The red-letter service stores its reference in the remark too: printed once, from the data. */
const STORED_RED_REFERENCE = /^(被红冲蓝字|对应正数发票代码)/;

/**
 * The printed 备注, one item per line, in the bureau's order (spec §三 1.6): 被红冲信息; 特定要素信息;
 * 购方开户银行:…;    银行账号:…; and the same for the seller, each only when the invoice asks for it
 * (是否展示购买方/销售方银行账号); 附加要素信息 (the hotel stay); the user's remark; 收款人:…;    复核人:…
 * on a line of their own. We issue no 代开 / 差额 / payment-channel invoices, so those parts stay empty.
 *
 * Older tax-control kinds print 收款人/复核人 and the bank lines in their own boxes: only the red
 * reference and the user's remark.
 */
export function remarkLines(inv: InvoiceDocData): string[] {
  const lines: string[] = [];
  const red = redReference(inv);
  if (red) lines.push(inv.digital ? `${red};` : red);
  const own = inv.remark
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !(red && STORED_RED_REFERENCE.test(l)));
  if (!inv.digital) return [...lines, ...own];
  lines.push(...specificRemark(inv).map((l) => `${l};`));
  const bank = (who: '购方' | '销方', p: InvoiceDocData['buyer']) =>
    `${who}开户银行:${p.bankName};${REMARK_SEPARATOR}银行账号:${p.bankAccount};`;
  if (inv.showBank?.buyer && (inv.buyer.bankName || inv.buyer.bankAccount))
    lines.push(bank(TERMS.buyerShort, inv.buyer));
  if (inv.showBank?.seller && (inv.seller.bankName || inv.seller.bankAccount))
    lines.push(bank(TERMS.sellerShort, inv.seller));
  const stay = inv.hotelStay;
  if (stay) {
    const extra = [
      stay.room_no && `房间号：${stay.room_no}`,
      stay.guest_name && `入住人：${stay.guest_name}`,
      (stay.check_in || stay.check_out) && `入住日期：${stay.check_in} 至 ${stay.check_out}`,
    ].filter(Boolean);
    if (extra.length) lines.push(`${extra.join('；')};`);
  }
  lines.push(...own);
  const people = [
    inv.payee && `${TERMS.payee}:${inv.payee};`,
    inv.reviewer && `${TERMS.reviewer}:${inv.reviewer};`,
  ].filter(Boolean);
  if (people.length) lines.push(people.join(REMARK_SEPARATOR));
  return lines;
}

/** The 备注 as one string (the XML's Remark): the printed lines, a 大tab apart. */
export function assembleRemark(inv: InvoiceDocData): string {
  return remarkLines(inv).join(REMARK_SEPARATOR);
}
