import { DownloadOutlined, InfoCircleOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Flex,
  Input,
  Popconfirm,
  Space,
  type TablePaginationConfig,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { alertError } from '../lib/antd/feedback.ts';
import type { Params } from '../lib/build-url.ts';
import { downloadFile } from '../lib/file-transfer.ts';

// The list pages' card (商品编码, 购方抬头, 红字信息表, 导出记录; issue 24 item 6): what ProTable drew
// around their tables — a title with an ⓘ, the toolbar, 刷新, the selection bar — in plain antd, so
// those pages load no ProComponents chunk and render in one short task.

type Props = {
  /** the list's title, or what stands in its place (the titles page's type filter) */
  title: ReactNode;
  /** what the list is: on the ⓘ beside the title (its accessible name too) */
  tooltip?: string;
  /** the toolbar's controls, before 刷新 */
  toolbar?: ReactNode;
  /** 刷新: asks for the page shown again */
  onReload: () => void;
  children: ReactNode;
};

export function ListCard({ title, tooltip, toolbar, onReload, children }: Props) {
  const { token } = theme.useToken();
  return (
    <Card>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Space size={4}>
          <div style={{ fontSize: token.fontSizeLG, fontWeight: token.fontWeightStrong }}>{title}</div>
          {tooltip && (
            <Tooltip title={tooltip}>
              <InfoCircleOutlined aria-label={tooltip} style={{ color: token.colorTextSecondary }} />
            </Tooltip>
          )}
        </Space>
        <Space wrap>
          {toolbar}
          <Tooltip title="刷新">
            <Button type="text" icon={<ReloadOutlined />} aria-label="刷新" onClick={onReload} />
          </Tooltip>
        </Space>
      </Flex>
      {children}
    </Card>
  );
}

/**
 * Above the table while rows are selected: 已选择 N 项 (or the page's own `label`) and what can be
 * done with them.
 */
export function SelectionBar({
  count,
  label,
  children,
}: {
  count: number;
  label?: ReactNode;
  children: ReactNode;
}) {
  const { token } = theme.useToken();
  if (count === 0) return null;
  return (
    <Flex
      justify="space-between"
      align="center"
      wrap
      style={{
        marginBottom: 16,
        padding: `${token.paddingXS}px ${token.padding}px`,
        background: token.colorPrimaryBg,
        borderRadius: token.borderRadius,
      }}
    >
      {label ?? <span>已选择 {count} 项</span>}
      <Space>{children}</Space>
    </Flex>
  );
}

/** The selection bar of a list whose rows can be deleted together: 批量删除, confirmed first. */
export function BatchDeleteBar({
  selected,
  noun,
  onConfirm,
}: {
  selected: readonly number[];
  /** what a row is, in 确定删除选中的N个…吗？ */
  noun: string;
  onConfirm: () => void;
}) {
  return (
    <SelectionBar count={selected.length}>
      <Popconfirm
        title={`确定删除选中的${selected.length}个${noun}吗？`}
        okText="删除"
        cancelText="取消"
        onConfirm={onConfirm}
      >
        <Button type="link" danger size="small">
          批量删除
        </Button>
      </Popconfirm>
    </SelectionBar>
  );
}

/**
 * A list's keyword box: a search sets the keyword and goes back to page 1 (`onKeyword`); the same
 * keyword searched again on page 1 asks again (`onReload`), as nothing else would change.
 */
export function KeywordSearch(p: {
  /** what can be searched for: the placeholder and the accessible name */
  label: string;
  width: number;
  keyword: string;
  page: number;
  onKeyword: (keyword: string) => void;
  onReload: () => void;
}) {
  return (
    <Input.Search
      placeholder={p.label}
      aria-label={p.label}
      allowClear
      style={{ width: p.width }}
      onSearch={(v) => {
        if (v.trim() === p.keyword && p.page === 1) p.onReload();
        p.onKeyword(v.trim());
      }}
    />
  );
}

/**
 * A row's actions (small link buttons: 编辑, 删除 …), 4 px apart beside their own padding, so the
 * 商品编码 column's three fit its 190 px (the overflow spec measures it).
 */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <Flex gap={4} align="center">
      {children}
    </Flex>
  );
}

/**
 * A cell's text on one line, ending in … when the column is too narrow, in full in a tooltip (for
 * columns with `ellipsis: true`).
 */
export function EllipsisText({ children }: { children: string }) {
  return (
    <Typography.Text style={{ width: '100%', margin: 0, padding: 0 }} ellipsis={{ tooltip: children }}>
      {children}
    </Typography.Text>
  );
}

/** The count under these tables, as they have always said it: 第 1-10 条/总共 25 条. */
export const rangeTotal = (total: number, [from, to]: [number, number]) =>
  `第 ${from}-${to} 条/总共 ${total} 条`;

/**
 * A list page's page and page size, and its table's pagination: the count as `rangeTotal` says it,
 * the page sizes of PAGE_SIZES, and a new page size back to the first page.
 */
export function usePaging() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const pagination = (total: number): TablePaginationConfig => ({
    current: page,
    pageSize,
    total,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    showTotal: rangeTotal,
    onChange: (p, size) => {
      setPage(size !== pageSize ? 1 : p);
      setPageSize(size);
    },
  });
  return { page, pageSize, setPage, pagination };
}

const showDownloadError = (e: unknown) => alertError('提示', e instanceof Error ? e.message : String(e));

/**
 * A catalogue's Excel buttons (商品编码, 购方抬头): 下载模板, 导入 (opens the page's import dialog)
 * and 导出 of what the search shows, each file named after the catalogue.
 */
export function ExcelActions(p: {
  /** the catalogue's name: `${name}导入模板.xlsx`, `${name}.xlsx` */
  name: string;
  paths: { template: string; export: string };
  /** the search 导出 exports */
  query: Params;
  onImport: () => void;
}) {
  return (
    <>
      <Button
        onClick={() => downloadFile(p.paths.template, {}, `${p.name}导入模板.xlsx`).catch(showDownloadError)}
      >
        下载模板
      </Button>
      <Button icon={<UploadOutlined />} onClick={p.onImport}>
        导入
      </Button>
      <Button
        icon={<DownloadOutlined />}
        onClick={() => downloadFile(p.paths.export, p.query, `${p.name}.xlsx`).catch(showDownloadError)}
      >
        导出
      </Button>
    </>
  );
}

/**
 * A page left empty by a deletion (its rows were the last ones): turns to the page that is now the
 * last, instead of showing an empty table under a pagination that no longer has that page.
 */
export function useStayInRange(
  answer: { list: readonly unknown[]; total: number } | undefined,
  page: number,
  pageSize: number,
  setPage: (page: number) => void,
): void {
  const empty = answer !== undefined && answer.list.length === 0;
  const total = answer?.total ?? 0;
  useEffect(() => {
    if (empty && total > 0 && page > 1) setPage(Math.max(1, Math.ceil(total / pageSize)));
  }, [empty, total, page, pageSize, setPage]);
}

/**
 * A list's reload (刷新, and after a save or a deletion: every cached page of `queryKey` is asked
 * again) and whether its table spins: while the list is first asked for, while the rows shown are
 * another page's or another search's, and during a reload — not while the page, shown again in its
 * tab, asks again in the background: the rows it had stay until the answer replaces them (a spinner
 * over them made showing 购方抬头 again cost ~300 ms in bench/navigation.ts).
 */
export function useListReload(
  list: { isPending: boolean; isPlaceholderData: boolean },
  queryKey: QueryKey,
): { reload: () => void; loading: boolean } {
  const client = useQueryClient();
  const [reloading, setReloading] = useState(0);
  const reload = () => {
    setReloading((n) => n + 1);
    void client.invalidateQueries({ queryKey }).finally(() => setReloading((n) => n - 1));
  };
  return { reload, loading: list.isPending || list.isPlaceholderData || reloading > 0 };
}
