import { PlusOutlined } from '@ant-design/icons';
import { BUYER_TYPE_LABELS, BUYER_TYPE_OPTIONS, TERMS } from '@kaipiao/shared/glossary/terms';
import type { TitleItem } from '@kaipiao/shared/schemas/titles';
import { beijingDateTimeMinutes } from '@kaipiao/shared/time/beijing';
import { useQuery } from '@tanstack/react-query';
import { Button, Popconfirm, Segmented, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ImportModal } from '../../../components/excel-transfer/import-modal.tsx';
import {
  BatchDeleteBar,
  EllipsisText,
  ExcelActions,
  KeywordSearch,
  ListCard,
  RowActions,
  useListReload,
  usePaging,
  useStayInRange,
} from '../../../components/list-card.tsx';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { rowCheckbox } from '../../../lib/antd/row-checkbox.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { deleteTitles, TITLE_PATHS, titleListParams, titleListQuery } from '../api/titles.ts';
import { TitleFormModal } from './title-form-modal.tsx';

type TypeFilter = 'all' | 1 | 2;
const joined = (parts: string[], sep: string) => parts.filter(Boolean).join(sep) || '—';

/** spec §2 购方抬头 (/device-project/title): saved buyers for the invoice form. */
export function TitlesPage() {
  const [editing, setEditing] = useState<TitleItem | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  // the searched keyword (what 导出 exports too), the type shown, the page and its size
  const [keyword, setKeyword] = useState('');
  const [typeFilter, setTypeFilter] = useState<TypeFilter>('all');
  const { page, pageSize, setPage, pagination } = usePaging();
  const [selected, setSelected] = useState<number[]>([]);
  const list = useQuery(
    titleListQuery(titleListParams(keyword, typeFilter === 'all' ? undefined : typeFilter, page, pageSize)),
  );
  useStayInRange(list.data, page, pageSize, setPage);

  const { reload, loading } = useListReload(list, scopedKey('titles', 'list'));
  const openForm = (item: TitleItem | null) => {
    setEditing(item);
    setFormOpen(true);
  };
  const remove = async (ids: number[]) => {
    try {
      const { deleted } = await deleteTitles(ids);
      toastSuccess(`已删除${deleted}个抬头`);
      setSelected([]);
      reload();
    } catch {
      // the API client already showed the message
    }
  };

  const columns: TableColumnsType<TitleItem> = [
    {
      title: '名称',
      dataIndex: 'name',
      ellipsis: true,
      render: (_, r) => (
        <Space size={4}>
          <Typography.Text strong>{r.name}</Typography.Text>
          <Tag color={r.title_type === 2 ? 'blue' : 'default'} bordered={false}>
            {BUYER_TYPE_LABELS[r.title_type === 2 ? 2 : 1]}
          </Tag>
        </Space>
      ),
    },
    // issue 24 item 1: fits at 1280 px; 地址、电话, 开户行及账号 and 更新时间 show from 1600 px (and
    // in the edit form)
    {
      title: TERMS.taxCode,
      dataIndex: 'tax_code',
      width: 190,
      className: 'kp-num',
      render: (_, r) => r.tax_code || '—',
    },
    {
      title: '地址、电话',
      dataIndex: 'address',
      ellipsis: true,
      responsive: ['xxl'],
      render: (_, r) => <EllipsisText>{joined([r.address, r.phone], ' ')}</EllipsisText>,
    },
    {
      title: '开户行及账号',
      dataIndex: 'bank_name',
      ellipsis: true,
      responsive: ['xxl'],
      render: (_, r) => <EllipsisText>{joined([r.bank_name, r.bank_account], ' ')}</EllipsisText>,
    },
    {
      title: '邮箱 / 手机',
      dataIndex: 'email',
      width: 190,
      ellipsis: true,
      render: (_, r) => <EllipsisText>{joined([r.email, r.mobile], ' / ')}</EllipsisText>,
    },
    { title: '使用次数', dataIndex: 'use_count', width: 90, align: 'right', className: 'kp-num' },
    {
      title: '更新时间',
      dataIndex: 'updated_at',
      width: 160,
      className: 'kp-num',
      responsive: ['xxl'],
      render: (_, r) => beijingDateTimeMinutes(r.updated_at),
    },
    {
      title: '操作',
      key: 'option',
      width: 130,
      fixed: 'right',
      render: (_, r) => (
        <RowActions>
          <Button type="link" size="small" onClick={() => openForm(r)}>
            编辑
          </Button>
          <Popconfirm
            title={`确定删除“${r.name}”吗？`}
            okText="删除"
            cancelText="取消"
            onConfirm={() => remove([r.id])}
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </RowActions>
      ),
    },
  ];

  return (
    <>
      <ListCard
        title={
          <Segmented<TypeFilter>
            value={typeFilter}
            onChange={(v) => {
              setTypeFilter(v);
              setPage(1);
            }}
            options={[{ label: '全部', value: 'all' }, ...BUYER_TYPE_OPTIONS]}
          />
        }
        onReload={reload}
        toolbar={
          <>
            <KeywordSearch
              label={`名称 / ${TERMS.taxCode}`}
              width={240}
              keyword={keyword}
              page={page}
              onKeyword={(v) => {
                setKeyword(v);
                setPage(1);
              }}
              onReload={reload}
            />
            <ExcelActions
              name={TERMS.buyerTitle}
              paths={TITLE_PATHS}
              query={{ keyword }}
              onImport={() => setImportOpen(true)}
            />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)}>
              新增抬头
            </Button>
          </>
        }
      >
        <BatchDeleteBar selected={selected} noun="抬头" onConfirm={() => remove(selected)} />
        <Table<TitleItem>
          rowKey="id"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={loading}
          scroll={{ x: 900 }}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys as number[]),
            getCheckboxProps: (r) => rowCheckbox(`选择${r.name}`),
          }}
          pagination={pagination(list.data?.total ?? 0)}
        />
      </ListCard>
      <TitleFormModal open={formOpen} onOpenChange={setFormOpen} editing={editing} onSaved={() => reload()} />
      <ImportModal
        open={importOpen}
        title={`导入${TERMS.buyerTitle}`}
        uploadPath={TITLE_PATHS.import}
        templatePath={TITLE_PATHS.template}
        templateName={`${TERMS.buyerTitle}导入模板.xlsx`}
        onClose={() => setImportOpen(false)}
        onImported={() => reload()}
      />
    </>
  );
}
