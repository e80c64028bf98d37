import {
  formatQuantity,
  formatUnitPrice,
  INVOICE_TYPES,
  rateLabel,
  SPECIFIC_BUSINESS,
} from '@kaipiao/shared';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { beijingChineseDay } from '@kaipiao/shared/time/beijing';
import { Button, Modal } from 'antd';
import type { BlueInvoicePayload } from '../utils/build-request.ts';
import type { LineNumbers, Totals } from '../utils/line-math.ts';
import styles from './invoice-preview.module.css';

// 预览: laid out like the 数电 invoice (domain.md §1.3) — header, buyer/seller, lines with
// `*简称*名称`, 合计, 价税合计 大写/小写, 备注, 开票人. 单价 and 金额 print tax-exclusive, as
// the shared money functions derived them.

type Props = {
  open: boolean;
  payload: BlueInvoicePayload;
  numbers: readonly (LineNumbers | null)[];
  totals: Totals;
  submitting: boolean;
  onCancel: () => void;
  onConfirm: () => void;
};

const SEP = ';    ';

function remarkOf(p: BlueInvoicePayload): string {
  const parts: string[] = [];
  const b = p.buyer;
  // printed only when asked for (spec §三 1.6), as the server's documents/remark.ts prints it
  if (p.show_buyer_bank && (b.bank_name || b.bank_account))
    parts.push(`${TERMS.buyerShort}开户银行:${b.bank_name ?? ''};    银行账号:${b.bank_account ?? ''};`);
  const s = p.hotel_stay;
  if (s) {
    const stay = [
      s.room_no && `房间号：${s.room_no}`,
      s.guest_name && `入住人：${s.guest_name}`,
      (s.check_in || s.check_out) && `入住日期：${s.check_in ?? ''} 至 ${s.check_out ?? ''}`,
    ].filter(Boolean);
    if (stay.length) parts.push(stay.join('；'));
  }
  const info = p.invoice_info;
  if (info.remark?.trim()) parts.push(info.remark.trim());
  if (info.payee) parts.push(`${TERMS.payee}：${info.payee}`);
  if (info.reviewer) parts.push(`${TERMS.reviewer}：${info.reviewer}`);
  return parts.join(SEP);
}

function taxText(rate: string, flag: string | undefined, code: string | undefined, tax: string) {
  const label = rateLabel(rate || '0', flag, code);
  if (label === '免税') return '***';
  if (label === '不征税') return '';
  return tax;
}

export function InvoicePreview({ open, payload, numbers, totals, submitting, onCancel, onConfirm }: Props) {
  const p = payload;
  const code = p.invoice_info.specific_business_code ?? null;
  const building = code === '03';
  const buyerName = p.buyer.title_type === 1 && p.buyer.name ? `${p.buyer.name}（个人）` : p.buyer.name;
  const title = p.invoice_type ? INVOICE_TYPES[p.invoice_type as keyof typeof INVOICE_TYPES] : '电子发票';
  return (
    <Modal
      open={open}
      title="发票预览"
      width={980}
      onCancel={onCancel}
      footer={[
        <Button key="back" onClick={onCancel} disabled={submitting}>
          返回修改
        </Button>,
        <Button key="ok" type="primary" loading={submitting} onClick={onConfirm}>
          确认开具
        </Button>,
      ]}
    >
      <section className={styles.paper} aria-label="发票票样">
        <div className={styles.head}>
          <div className={styles.label}>{code ? SPECIFIC_BUSINESS[code] : ''}</div>
          <div className={styles.title}>{title}</div>
          <div className={styles.meta}>
            <div>
              {TERMS.invoiceNo}：<span className={styles.muted}>开具后生成</span>
            </div>
            <div>
              {TERMS.issueDate}：{beijingChineseDay(new Date())}
            </div>
          </div>
        </div>
        <div className={styles.parties}>
          <div className={styles.side}>{TERMS.buyer}信息</div>
          <div className={styles.party}>
            <div>名称：{buyerName}</div>
            <div>
              统一社会信用代码/{TERMS.taxCode}：{p.buyer.tax_code}
            </div>
          </div>
          <div className={styles.side}>{TERMS.seller}信息</div>
          <div className={styles.party}>
            <div>名称：{p.seller?.name}</div>
            <div>
              统一社会信用代码/{TERMS.taxCode}：{p.seller?.tax_code}
            </div>
          </div>
        </div>
        <table className={styles.lines}>
          <thead>
            <tr>
              <th>{TERMS.itemName}</th>
              {building ? (
                <>
                  <th>建筑服务发生地</th>
                  <th>建筑项目名称</th>
                </>
              ) : (
                <>
                  <th>{TERMS.spec}</th>
                  <th>{TERMS.unit}</th>
                  <th>{TERMS.quantity}</th>
                  <th>{TERMS.unitPrice}</th>
                </>
              )}
              <th>{TERMS.amount}</th>
              <th>{TERMS.taxRate}/征收率</th>
              <th>{TERMS.taxAmount}</th>
            </tr>
          </thead>
          <tbody>
            {p.goods_info.map((g, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: preview rows are positional
              <tr key={i}>
                <td className={styles.name}>
                  *{g.short_name}*{g.name}
                </td>
                {building ? (
                  <>
                    <td>{p.building_service?.place}</td>
                    <td>{p.building_service?.project_name}</td>
                  </>
                ) : (
                  <>
                    <td>{g.spec}</td>
                    <td>{g.unit}</td>
                    <td className={styles.num}>{formatQuantity(g.quantity)}</td>
                    <td className={styles.num}>{formatUnitPrice(numbers[i]?.unitPrice)}</td>
                  </>
                )}
                <td className={styles.num}>{g.amount}</td>
                <td className={styles.num}>
                  {g.tax_rate ? rateLabel(g.tax_rate, g.zero_rate_flag, g.preferential_code) : ''}
                </td>
                <td className={styles.num}>
                  {taxText(g.tax_rate, g.zero_rate_flag, g.preferential_code, g.tax_amount)}
                </td>
              </tr>
            ))}
            <tr className={styles.sum}>
              <td>合　　计</td>
              <td colSpan={building ? 2 : 4} />
              <td className={styles.num}>¥{totals.totalAmount}</td>
              <td />
              <td className={styles.num}>¥{totals.totalTax}</td>
            </tr>
          </tbody>
        </table>
        <div className={styles.grand}>
          <span>{TERMS.totalWithTaxCapital}</span>
          <span className={styles.capital}>⊗ {totals.capital}</span>
          <span className={styles.small}>（小写）¥{totals.totalWithTax}</span>
        </div>
        <SpecificTables payload={p} />
        <div className={styles.remark}>
          <div className={styles.side}>{TERMS.remark}</div>
          <div className={styles.remarkText}>{remarkOf(p)}</div>
        </div>
        <div className={styles.foot}>
          {TERMS.drawer}：{p.invoice_info.drawer}
        </div>
      </section>
    </Modal>
  );
}

function SpecificTables({ payload: p }: { payload: BlueInvoicePayload }) {
  if (p.goods_transport?.length) {
    return (
      <table className={styles.lines}>
        <thead>
          <tr>
            <th>运输工具种类</th>
            <th>运输工具牌号</th>
            <th>起运地</th>
            <th>到达地</th>
            <th>运输货物名称</th>
          </tr>
        </thead>
        <tbody>
          {p.goods_transport.map((t, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: preview rows are positional
            <tr key={i}>
              <td>{t.vehicle_type}</td>
              <td>{t.vehicle_no}</td>
              <td>{t.origin}</td>
              <td>{t.destination}</td>
              <td>{t.goods_name}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  if (p.passenger_transport?.length) {
    return (
      <table className={styles.lines}>
        <thead>
          <tr>
            <th>出行人</th>
            <th>有效身份证件号</th>
            <th>出行日期</th>
            <th>出发地</th>
            <th>到达地</th>
            <th>等级</th>
          </tr>
        </thead>
        <tbody>
          {p.passenger_transport.map((t, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: preview rows are positional
            <tr key={i}>
              <td>{t.traveller}</td>
              <td>{t.id_no}</td>
              <td>{t.travel_date}</td>
              <td>{t.origin}</td>
              <td>{t.destination}</td>
              <td>{t.seat_class}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  return null;
}
