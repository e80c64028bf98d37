import { FileExcelOutlined, FilePdfOutlined, HistoryOutlined } from '@ant-design/icons';
import { type ActionType, type ProColumns, type ProFormInstance, ProTable } from '@ant-design/pro-components';
import { PAGE_SIZES, SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { INVOICE_TYPES } from '@kaipiao/shared/schemas/invoice';
import {
  AMOUNT_RANGE_INVERTED,
  EXPORT_PDF_MAX,
  type InvoiceFilter,
  type InvoiceRow,
  LIBRARY_COUNT_CAP,
  LIBRARY_STATUS,
} from '@kaipiao/shared/schemas/query';
import { useQuery } from '@tanstack/react-query';
import { Button, InputNumber, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { permittedStoresQuery } from '../../../api/stores.ts';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { rowCheckbox } from '../../../lib/antd/row-checkbox.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { createExport, listInvoicesOnce } from '../api.ts';
import { beijingTime, type LibraryForm, money2, toFilter } from '../utils.ts';
import { InvoiceDetailDrawer } from './invoice-detail-drawer.tsx';
import { DirectionTag, StatusTag } from './status-tag.tsx';

type Range = [number | null, number | null];

/** 价税合计 from – to (a form control: value / onChange come from the form item). */
function AmountRange({ value, onChange }: { value?: Range; onChange?: (v: Range) => void }) {
  const [min, max] = value ?? [null, null];
  return (
    <Space.Compact style={{ width: '100%' }}>
      <InputNumber
        style={{ width: '50%' }}
        placeholder="最小价税合计"
        aria-label="最小价税合计"
        precision={2}
        value={min}
        onChange={(v) => onChange?.([v, max])}
      />
      <InputNumber
        style={{ width: '50%' }}
        placeholder="最大价税合计"
        aria-label="最大价税合计"
        precision={2}
        value={max}
        onChange={(v) => onChange?.([min, v])}
      />
    </Space.Compact>
  );
}

const amountCell = (v: string) => (
  <Typography.Text type={v.startsWith('-') ? 'danger' : undefined}>{money2(v)}</Typography.Text>
);

/** spec §2 发票明细 (/query/invoice, hotel variant /hotel/query/invoice). */
export function LibraryPage({ hotel = false }: { hotel?: boolean }) {
  const action = useRef<ActionType>(null);
  const formRef = useRef<ProFormInstance>(undefined);
  const navigate = useNavigate();
  // links into the library (e.g. from the issuing result): ?invoice_no=…&buyer=…&invoice_id=…
  const [params] = useSearchParams();
  const [initial] = useState<LibraryForm>(() => ({
    invoice_no: params.get('invoice_no') ?? undefined,
    buyer: params.get('buyer') ?? undefined,
  }));
  const summary = useSessionStore((s) => s.store?.client_store_id === SUMMARY_STORE_ID);
  const stores = useQuery({ ...permittedStoresQuery(), enabled: summary });
  const [detailId, setDetailId] = useState<number | null>(() => {
    const id = Number(params.get('invoice_id'));
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  });
  const [selected, setSelected] = useState<number[]>([]);
  const [filter, setFilter] = useState<InvoiceFilter>({});
  const [total, setTotal] = useState(0);
  const [exporting, setExporting] = useState<'pdf_zip' | 'excel' | null>(null);

  async function exportNow(kind: 'pdf_zip' | 'excel') {
    setExporting(kind);
    try {
      const res = await createExport(
        selected.length > 0 ? { kind, invoice_ids: selected, filters: {} } : { kind, filters: filter },
      );
      toastSuccess(`已提交导出（${res.row_count}张），请在导出记录中查看进度并下载`);
      navigate('/query/invoice/export-records');
    } catch {
      // the API client showed the reason (too many, nothing to export, busy)
    } finally {
      setExporting(null);
    }
  }

  const columns: ProColumns<InvoiceRow, 'text'>[] = [
    {
      title: '开票日期',
      dataIndex: 'date_range',
      valueType: 'dateRange',
      hideInTable: true,
    },
    {
      title: '发票号码',
      dataIndex: 'invoice_no',
      width: 200,
      className: 'kp-num',
      fieldProps: { placeholder: '完整号码或后几位', maxLength: 20 },
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          {r.invoice_code && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              代码 {r.invoice_code}
            </Typography.Text>
          )}
          <Typography.Link onClick={() => setDetailId(r.invoice_id)}>
            {r.invoice_no ?? '（未取得号码）'}
          </Typography.Link>
        </Space>
      ),
    },
    {
      title: '发票种类',
      dataIndex: 'invoice_types',
      valueType: 'select',
      valueEnum: Object.fromEntries(Object.entries(INVOICE_TYPES).map(([k, v]) => [k, { text: v }])),
      fieldProps: { mode: 'multiple', maxTagCount: 'responsive' },
      width: 190,
      // issue 24 item 1: at 1280–1599 px the key columns fit without scrolling; the kind, the
      // amount before tax, the tax and the store are in the detail drawer
      responsive: ['xxl'],
      render: (_, r) => (
        <Space size={4} wrap>
          <span>{r.invoice_type_name}</span>
          <DirectionTag direction={r.direction} />
        </Space>
      ),
    },
    {
      title: '购买方',
      dataIndex: 'buyer',
      fieldProps: { placeholder: '购方名称（模糊）或税号' },
      // the column that takes the room left; a long name ends in … and shows in full on hover
      render: (_, r) => (
        <>
          <Typography.Text ellipsis={{ tooltip: r.buyer_name }} style={{ display: 'block' }}>
            {r.buyer_name}
          </Typography.Text>
          {r.buyer_tax_code && (
            <Typography.Text type="secondary" className="kp-num" style={{ display: 'block', fontSize: 12 }}>
              {r.buyer_tax_code}
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      title: '金额范围',
      dataIndex: 'amount_range',
      hideInTable: true,
      renderFormItem: () => <AmountRange />,
    },
    {
      title: '合计金额',
      dataIndex: 'total_amount',
      hideInSearch: true,
      align: 'right',
      width: 120,
      className: 'kp-num',
      responsive: ['xxl'],
      render: (_, r) => amountCell(r.total_amount),
    },
    {
      title: '税额',
      dataIndex: 'total_tax',
      hideInSearch: true,
      align: 'right',
      width: 110,
      className: 'kp-num',
      responsive: ['xxl'],
      render: (_, r) => amountCell(r.total_tax),
    },
    {
      title: '价税合计',
      dataIndex: 'total_with_tax',
      hideInSearch: true,
      align: 'right',
      width: 130,
      className: 'kp-num',
      render: (_, r) => <Typography.Text strong>{amountCell(r.total_with_tax)}</Typography.Text>,
    },
    {
      title: '状态',
      dataIndex: 'statuses',
      valueType: 'select',
      valueEnum: Object.fromEntries(Object.entries(LIBRARY_STATUS).map(([k, v]) => [k, { text: v }])),
      fieldProps: { mode: 'multiple', maxTagCount: 'responsive' },
      width: 100,
      render: (_, r) => <StatusTag status={r.status_key} />,
    },
    {
      title: '蓝/红字',
      dataIndex: 'direction',
      valueType: 'select',
      valueEnum: { blue: { text: '蓝字发票' }, red: { text: '红字发票' } },
      hideInTable: true,
    },
    {
      title: '门店',
      dataIndex: 'store_ids',
      valueType: 'select',
      hideInSearch: !summary,
      fieldProps: {
        mode: 'multiple',
        maxTagCount: 'responsive',
        loading: stores.isLoading,
        options: (stores.data ?? []).map((s) => ({ label: s.name, value: s.client_store_id })),
      },
      width: 120,
      ellipsis: true,
      // one store's own list names that store on every row: shown at 1600 px and wider
      responsive: summary ? undefined : ['xxl'],
      render: (_, r) => r.store_name || '—',
    },
    {
      title: '开票时间',
      dataIndex: 'issued_at',
      hideInSearch: true,
      width: 170,
      className: 'kp-num',
      render: (_, r) =>
        r.issued_at ? (
          beijingTime(r.issued_at)
        ) : (
          <Typography.Text type="secondary">提交 {beijingTime(r.created_at)}</Typography.Text>
        ),
    },
    {
      title: '操作',
      valueType: 'option',
      width: 80,
      fixed: 'right',
      render: (_, r) => [
        <Button key="detail" type="link" size="small" onClick={() => setDetailId(r.invoice_id)}>
          详情
        </Button>,
      ],
    },
  ];

  return (
    <>
      <ProTable<InvoiceRow, LibraryForm & { amount_range?: Range }>
        rowKey="invoice_id"
        actionRef={action}
        formRef={formRef}
        columns={columns}
        cardBordered
        headerTitle={hotel ? '发票明细（酒店）' : '发票明细'}
        tooltip="按开票时间从新到旧；开具中、失败的发票按提交时间排列"
        scroll={{ x: 900 }}
        search={{
          labelWidth: 'auto',
          defaultCollapsed: false,
          span: { xs: 24, sm: 12, md: 8, lg: 8, xl: 6, xxl: 6 },
        }}
        form={{ syncToUrl: false, initialValues: initial }}
        options={{ reload: true, density: false, setting: false }}
        pagination={{
          defaultPageSize: PAGE_SIZES[0],
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (n) =>
            n >= LIBRARY_COUNT_CAP ? `超过 ${LIBRARY_COUNT_CAP} 条，请缩小查询范围` : `共 ${n} 条`,
        }}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (r) => rowCheckbox(`选择${r.invoice_no ?? r.buyer_name}`),
        }}
        tableAlertRender={({ selectedRowKeys, onCleanSelected }) => (
          <Space size={12}>
            <span>已选 {selectedRowKeys.length} 张</span>
            <Button type="link" size="small" onClick={onCleanSelected}>
              取消选择
            </Button>
          </Space>
        )}
        tableAlertOptionRender={() => (
          <Space>
            <Button
              type="link"
              size="small"
              icon={<FilePdfOutlined />}
              loading={exporting === 'pdf_zip'}
              disabled={selected.length > EXPORT_PDF_MAX}
              onClick={() => exportNow('pdf_zip')}
            >
              批量下载PDF
            </Button>
            <Button
              type="link"
              size="small"
              icon={<FileExcelOutlined />}
              loading={exporting === 'excel'}
              onClick={() => exportNow('excel')}
            >
              导出Excel
            </Button>
          </Space>
        )}
        request={async (params) => {
          const { current, pageSize, amount_range, ...form } = params as LibraryForm & {
            current?: number;
            pageSize?: number;
            amount_range?: Range;
          };
          // an inverted range would match nothing (the server refuses it too): said at the field, not sent
          const [lo, hi] = amount_range ?? [null, null];
          if (lo != null && hi != null && lo > hi) {
            formRef.current?.setFields([{ name: 'amount_range', errors: [AMOUNT_RANGE_INVERTED] }]);
            return { data: [], total: 0, success: false };
          }
          formRef.current?.setFields([{ name: 'amount_range', errors: [] }]);
          const f = toFilter({ ...form, amount_min: amount_range?.[0], amount_max: amount_range?.[1] });
          setFilter(f);
          const page = await listInvoicesOnce({
            ...f,
            page: current ?? 1,
            page_size: pageSize ?? PAGE_SIZES[0],
          });
          setTotal(page.total);
          return { data: page.list, total: page.total, success: true };
        }}
        // a refused search: the API client has shown the server's message; without this ProTable
        // rethrows it as an uncaught error (issue 24 item 8)
        onRequestError={() => undefined}
        toolBarRender={() => [
          <Button
            key="pdf"
            icon={<FilePdfOutlined />}
            loading={exporting === 'pdf_zip'}
            disabled={total === 0}
            onClick={() => exportNow('pdf_zip')}
          >
            {selected.length ? `下载所选PDF（${selected.length}）` : '下载查询结果PDF'}
          </Button>,
          <Button
            key="excel"
            icon={<FileExcelOutlined />}
            loading={exporting === 'excel'}
            disabled={total === 0}
            onClick={() => exportNow('excel')}
          >
            {selected.length ? `导出所选（${selected.length}）` : '导出查询结果'}
          </Button>,
          <Button
            key="records"
            icon={<HistoryOutlined />}
            onClick={() => navigate('/query/invoice/export-records')}
          >
            导出记录
          </Button>,
        ]}
      />
      <InvoiceDetailDrawer invoiceId={detailId} onClose={() => setDetailId(null)} />
    </>
  );
}
