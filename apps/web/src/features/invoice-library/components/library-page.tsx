import {
  FileExcelOutlined,
  FilePdfOutlined,
  HistoryOutlined,
  InfoCircleOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { PAGE_SIZES, SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import {
  EXPORT_PDF_MAX,
  type InvoiceFilter,
  type InvoiceRow,
  LIBRARY_COUNT_CAP,
} from '@kaipiao/shared/schemas/query';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Pagination, Space, Table, Tag, Tooltip, theme } from 'antd';
import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { permittedStoresQuery } from '../../../api/stores.ts';
import { SelectionBar } from '../../../components/list-card.tsx';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { rowCheckbox } from '../../../lib/antd/row-checkbox.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { createExport, listInvoicesOnce } from '../api.ts';
import { toFilter } from '../utils.ts';
import { InvoiceDetailDrawer } from './invoice-detail-drawer.tsx';
import { libraryColumns } from './library-columns.tsx';
import { type FilterValues, formToLibrary, LibraryFilters } from './library-filters.tsx';

type Page = { current: number; pageSize: number };
type Listing = { rows: InvoiceRow[]; total: number; loading: boolean };

const ORDER = `按${TERMS.issueTime}从新到旧；开具中、失败的发票按提交时间排列`;

/** Rows of the first answer drawn before the others (about what a 900 px high window shows). */
const FIRST_ROWS = 5;

const showTotal = (n: number) =>
  n >= LIBRARY_COUNT_CAP ? `超过 ${LIBRARY_COUNT_CAP} 条，请缩小查询范围` : `共 ${n} 条`;

/**
 * The list's requests: a search (from the first page), a page or size change (same filters) and a
 * reload. Only the latest request's answer is shown; a refused one (the API client has shown the
 * server's message) leaves the rows as they were.
 */
function useLibraryList(initial: InvoiceFilter) {
  const [filter, setFilter] = useState<InvoiceFilter>(initial);
  const [page, setPage] = useState<Page>({ current: 1, pageSize: PAGE_SIZES[0] });
  const [listing, setListing] = useState<Listing>({ rows: [], total: 0, loading: true });
  const latest = useRef(0);

  function load(f: InvoiceFilter, p: Page) {
    const ticket = ++latest.current;
    setFilter(f);
    setPage(p);
    setListing((l) => ({ ...l, loading: true }));
    // the first page with no filter may have started with the navigation (api.ts prefetchLibrary)
    listInvoicesOnce({ ...f, page: p.current, page_size: p.pageSize }).then(
      (answer) => {
        if (ticket !== latest.current) return;
        // the rows are a transition: React renders them in slices between which the browser can
        // answer input, not in one long task (issue 11: Lighthouse's total blocking time)
        startTransition(() => setListing({ rows: answer.list, total: answer.total, loading: false }));
      },
      () => {
        if (ticket === latest.current) setListing((l) => ({ ...l, loading: false }));
      },
    );
  }

  // the opening search, once (a ref, not the effect's dependencies: React may run an effect twice)
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    load(initial, page);
  });

  return {
    filter,
    page,
    listing,
    search: (f: InvoiceFilter) => load(f, { ...page, current: 1 }),
    turn: (p: Page) => load(filter, p),
    reload: () => load(filter, page),
  };
}

/**
 * antd adds a component's styles to the page the first time one is drawn, and each new style sheet
 * (its reset rules match by class-name prefix, any element) makes the browser restyle the whole
 * page. Drawn hidden with the empty table, the tags and the pagination of the rows bring their
 * styles in that commit, which restyles the page anyway, so the rows' commit restyles only the
 * rows (issue 11: it halved that task).
 */
function RowStyles() {
  return (
    <div hidden>
      <Tag color="green" bordered={false} />
      <Pagination total={1} />
    </div>
  );
}

/** spec §2 发票明细 (/query/invoice, hotel variant /hotel/query/invoice). */
export function LibraryPage({ hotel = false }: { hotel?: boolean }) {
  const navigate = useNavigate();
  const { token } = theme.useToken();
  // links into the library (e.g. from the issuing result): ?invoice_no=…&buyer=…&invoice_id=…
  const [params] = useSearchParams();
  const [initial] = useState<FilterValues>(() => ({
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
  const [exporting, setExporting] = useState<'pdf_zip' | 'excel' | null>(null);
  const list = useLibraryList(useMemo(() => toFilter(formToLibrary(initial)), [initial]));
  const columns = useMemo(() => libraryColumns({ openDetail: setDetailId, summary }), [summary]);
  const { total } = list.listing;
  // the first commit holds the search form and the toolbar, the table follows in a second one and
  // its rows in a third (useLibraryList): three shorter tasks, not one long one (issue 11). Top to
  // bottom, so nothing already shown moves.
  const [tableShown, setTableShown] = useState(false);
  useEffect(() => startTransition(() => setTableShown(true)), []);
  // the first rows come in two commits too: those in view, then the rest
  const { rows } = list.listing;
  const [rowLimit, setRowLimit] = useState(FIRST_ROWS);
  useEffect(() => {
    if (rowLimit < rows.length) startTransition(() => setRowLimit(Number.POSITIVE_INFINITY));
  }, [rowLimit, rows.length]);

  async function exportNow(kind: 'pdf_zip' | 'excel') {
    setExporting(kind);
    try {
      const res = await createExport(
        selected.length > 0 ? { kind, invoice_ids: selected, filters: {} } : { kind, filters: list.filter },
      );
      toastSuccess(`已提交导出（${res.row_count}张），请在导出记录中查看进度并下载`);
      navigate('/query/invoice/export-records');
    } catch {
      // the API client showed the reason (too many, nothing to export, busy)
    } finally {
      setExporting(null);
    }
  }

  const title = hotel ? '发票明细（酒店）' : '发票明细';
  return (
    <>
      <Flex vertical gap={16}>
        {/* the form items' own bottom margin closes the card */}
        <Card styles={{ body: { paddingBottom: 0 } }}>
          <LibraryFilters
            initialValues={initial}
            stores={
              summary
                ? {
                    loading: stores.isLoading,
                    options: (stores.data ?? []).map((s) => ({ label: s.name, value: s.client_store_id })),
                  }
                : undefined
            }
            onSearch={(values) => list.search(toFilter(formToLibrary(values)))}
          />
        </Card>
        <Card>
          <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
            <Space size={4}>
              <div style={{ fontSize: token.fontSizeLG, fontWeight: token.fontWeightStrong }}>{title}</div>
              <Tooltip title={ORDER}>
                <InfoCircleOutlined aria-label={ORDER} style={{ color: token.colorTextSecondary }} />
              </Tooltip>
            </Space>
            <Space wrap>
              <Button
                icon={<FilePdfOutlined />}
                loading={exporting === 'pdf_zip'}
                disabled={total === 0}
                onClick={() => exportNow('pdf_zip')}
              >
                {selected.length ? `下载所选PDF（${selected.length}）` : '下载查询结果PDF'}
              </Button>
              <Button
                icon={<FileExcelOutlined />}
                loading={exporting === 'excel'}
                disabled={total === 0}
                onClick={() => exportNow('excel')}
              >
                {selected.length ? `导出所选（${selected.length}）` : '导出查询结果'}
              </Button>
              <Button icon={<HistoryOutlined />} onClick={() => navigate('/query/invoice/export-records')}>
                导出记录
              </Button>
              <Tooltip title="刷新">
                <Button type="text" icon={<ReloadOutlined />} aria-label="刷新" onClick={list.reload} />
              </Tooltip>
            </Space>
          </Flex>
          <SelectionBar
            count={selected.length}
            label={
              <Space size={12}>
                <span>已选 {selected.length} 张</span>
                <Button type="link" size="small" onClick={() => setSelected([])}>
                  取消选择
                </Button>
              </Space>
            }
          >
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
          </SelectionBar>
          {tableShown && (
            <>
              <RowStyles />
              <Table<InvoiceRow>
                rowKey="invoice_id"
                columns={columns}
                dataSource={rowLimit < rows.length ? rows.slice(0, rowLimit) : rows}
                loading={list.listing.loading}
                scroll={{ x: 900 }}
                rowSelection={{
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  onChange: (keys) => setSelected(keys as number[]),
                  getCheckboxProps: (r) => rowCheckbox(`选择${r.invoice_no ?? r.buyer_name}`),
                }}
                pagination={{
                  current: list.page.current,
                  pageSize: list.page.pageSize,
                  total,
                  pageSizeOptions: PAGE_SIZES.map(String),
                  showSizeChanger: true,
                  showTotal,
                  onChange: (current, pageSize) => list.turn({ current, pageSize }),
                }}
              />
            </>
          )}
        </Card>
      </Flex>
      <InvoiceDetailDrawer invoiceId={detailId} onClose={() => setDetailId(null)} />
    </>
  );
}
