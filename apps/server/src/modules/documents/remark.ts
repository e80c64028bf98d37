import { GOODS_TRANSPORT_VEHICLES, ID_DOCUMENT_TYPES, PASSENGER_VEHICLES } from '@kaipiao/shared';
import type { InvoiceDocData } from './model.ts';

/** Between the system-assembled parts of 备注 (domain.md §1.3). */
export const REMARK_SEPARATOR = ';    ';

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

/**
 * The printed 备注, assembled in the bureau's order (domain.md §1.3 / [XML §1.6]):
 * 被红冲信息; 代开信息; 差额征税扣除额信息; 特定要素信息; 购方开户银行/账号; 销方开户银行/账号;
 * 附加要素信息; 用户备注; 收款人; 复核人; 支付渠道/交易单号. We issue no 代开 / 差额 / payment-channel
 * invoices, so those parts are always empty here. Bank info is printed when it was entered.
 *
 * Older tax-control kinds print 收款人/复核人 in their own boxes and keep the remark short.
 */
export function assembleRemark(inv: InvoiceDocData): string {
  const parts: string[] = [];
  if (inv.red && inv.original) {
    parts.push(
      inv.digital
        ? `被红冲蓝字数电票号码：${inv.original.invoiceNo}${inv.original.redFormNo ? ` 红字发票信息确认单编号：${inv.original.redFormNo}` : ''}`
        : `对应正数发票代码:${inv.original.invoiceCode}号码:${inv.original.invoiceNo}`,
    );
  }
  if (!inv.digital) {
    if (inv.remark.trim()) parts.push(inv.remark.trim());
    return parts.join(REMARK_SEPARATOR);
  }
  parts.push(...specificRemark(inv));
  if (inv.buyer.bankName || inv.buyer.bankAccount) {
    parts.push(`购方开户银行：${inv.buyer.bankName}；银行账号：${inv.buyer.bankAccount}`);
  }
  if (inv.seller.bankName || inv.seller.bankAccount) {
    parts.push(`销方开户银行：${inv.seller.bankName}；银行账号：${inv.seller.bankAccount}`);
  }
  const stay = inv.hotelStay;
  if (stay) {
    const extra = [
      stay.room_no && `房间号：${stay.room_no}`,
      stay.guest_name && `入住人：${stay.guest_name}`,
      (stay.check_in || stay.check_out) && `入住日期：${stay.check_in} 至 ${stay.check_out}`,
    ].filter(Boolean);
    if (extra.length) parts.push(extra.join('；'));
  }
  if (inv.remark.trim()) parts.push(inv.remark.trim());
  if (inv.payee) parts.push(`收款人：${inv.payee}`);
  if (inv.reviewer) parts.push(`复核人：${inv.reviewer}`);
  return parts.join(REMARK_SEPARATOR);
}
