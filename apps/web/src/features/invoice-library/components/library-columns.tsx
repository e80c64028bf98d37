import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { InvoiceRow } from '@kaipiao/shared/schemas/query';
import type { TableColumnsType } from 'antd';
import { beijingTime, money2 } from '../utils.ts';
import css from './library-cells.module.css';
import { DirectionTag, StatusTag } from './status-tag.tsx';

const amountCell = (v: string) => (
  <span className={v.startsWith('-') ? css.danger : undefined}>{money2(v)}</span>
);

/**
 * The library table's columns (spec §2 发票明细), in their own module: the layout of the columns
 * and the page's behaviour change apart. `openDetail` opens the invoice's detail drawer. The
 * filters are the search form's (library-filters.tsx).
 */
export function libraryColumns({
  openDetail,
  summary,
}: {
  openDetail: (invoiceId: number) => void;
  /** the summary view (every store): the 门店 column at every width */
  summary: boolean;
}): TableColumnsType<InvoiceRow> {
  return [
    {
      title: TERMS.invoiceNo,
      dataIndex: 'invoice_no',
      width: 200,
      className: 'kp-num',
      render: (_, r) => (
        <div className={css.stack}>
          {r.invoice_code && <span className={css.note}>代码 {r.invoice_code}</span>}
          <button type="button" className={css.link} onClick={() => openDetail(r.invoice_id)}>
            {r.invoice_no ?? '（未取得号码）'}
          </button>
        </div>
      ),
    },
    {
      title: TERMS.invoiceKind,
      dataIndex: 'invoice_type_name',
      width: 190,
      // issue 24 item 1: at 1280–1599 px the key columns fit without scrolling; the kind, the
      // amount before tax, the tax and the store are in the detail drawer
      responsive: ['xxl'],
      render: (_, r) => (
        <div className={css.tags}>
          <span>{r.invoice_type_name}</span>
          <DirectionTag direction={r.direction} />
        </div>
      ),
    },
    {
      title: TERMS.buyer,
      dataIndex: 'buyer_name',
      // the column that takes the room left; a long name ends in … and shows in full on hover
      render: (_, r) => (
        <div className={css.stack}>
          <span className={css.ellipsis} title={r.buyer_name}>
            {r.buyer_name}
          </span>
          {r.buyer_tax_code && <span className={`${css.note} kp-num`}>{r.buyer_tax_code}</span>}
        </div>
      ),
    },
    {
      title: TERMS.totalAmount,
      dataIndex: 'total_amount',
      align: 'right',
      width: 120,
      className: 'kp-num',
      responsive: ['xxl'],
      render: (_, r) => amountCell(r.total_amount),
    },
    {
      title: TERMS.totalTax,
      dataIndex: 'total_tax',
      align: 'right',
      width: 110,
      className: 'kp-num',
      responsive: ['xxl'],
      render: (_, r) => amountCell(r.total_tax),
    },
    {
      title: TERMS.totalWithTax,
      dataIndex: 'total_with_tax',
      align: 'right',
      width: 130,
      className: 'kp-num',
      render: (_, r) => <span className={css.strong}>{amountCell(r.total_with_tax)}</span>,
    },
    {
      title: '状态',
      dataIndex: 'status_key',
      width: 100,
      render: (_, r) => <StatusTag status={r.status_key} />,
    },
    {
      title: TERMS.store,
      dataIndex: 'store_name',
      width: 120,
      ellipsis: true,
      // one store's own list names that store on every row: shown at 1600 px and wider
      responsive: summary ? undefined : ['xxl'],
      render: (_, r) => r.store_name || '—',
    },
    {
      title: TERMS.issueTime,
      dataIndex: 'issued_at',
      width: 170,
      className: 'kp-num',
      render: (_, r) =>
        r.issued_at ? (
          beijingTime(r.issued_at)
        ) : (
          <span className={css.secondary}>提交 {beijingTime(r.created_at)}</span>
        ),
    },
    {
      title: '操作',
      key: 'option',
      width: 80,
      fixed: 'right',
      render: (_, r) => (
        <button type="button" className={css.link} onClick={() => openDetail(r.invoice_id)}>
          详情
        </button>
      ),
    },
  ];
}
