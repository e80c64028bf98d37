import { PlusOutlined } from '@ant-design/icons';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { formatUnitPrice } from '@kaipiao/shared/money/capital';
import type { GoodsItem } from '@kaipiao/shared/schemas/goods';
import { beijingDateTimeMinutes } from '@kaipiao/shared/time/beijing';
import { useQuery } from '@tanstack/react-query';
import { Button, Popconfirm, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
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
import { deleteGoods, GOODS_PATHS, goodsListParams, goodsListQuery, setDefaultGoods } from '../api/goods.ts';
import { GoodsFormModal, type GoodsVariant } from './goods-form-modal.tsx';

const orDash = (v: string) => v || '—';

/** spec §2 商品编码 (/device-project/project, hotel variant /hotel/device-project/project). */
export function GoodsPage({ variant = 'general' }: { variant?: GoodsVariant }) {
  const [editing, setEditing] = useState<GoodsItem | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  // the searched keyword (what 导出 exports too), the page and its size
  const [keyword, setKeyword] = useState('');
  const { page, pageSize, setPage, pagination } = usePaging();
  const [selected, setSelected] = useState<number[]>([]);
  const list = useQuery(goodsListQuery(goodsListParams(keyword, page, pageSize)));
  useStayInRange(list.data, page, pageSize, setPage);

  const { reload, loading } = useListReload(list, scopedKey('goods', 'list'));
  const openForm = (item: GoodsItem | null) => {
    setEditing(item);
    setFormOpen(true);
  };
  const remove = async (ids: number[]) => {
    try {
      const { deleted } = await deleteGoods(ids);
      toastSuccess(`已删除${deleted}个商品`);
      setSelected([]);
      reload();
    } catch {
      // the API client already showed the message
    }
  };

  const columns: TableColumnsType<GoodsItem> = [
    {
      title: TERMS.itemName,
      dataIndex: 'name',
      ellipsis: true,
      render: (_, r) => (
        <Space size={4}>
          <Typography.Text strong>{r.name}</Typography.Text>
          {r.is_default && <Tag color="green">默认</Tag>}
        </Space>
      ),
    },
    // issue 24 item 1: fits at 1280 px; 发票显示名称 (*简称*名称) and 更新时间 show from 1600 px
    {
      title: '发票显示名称',
      dataIndex: 'full_name',
      ellipsis: true,
      responsive: ['xxl'],
      render: (_, r) => <EllipsisText>{r.full_name}</EllipsisText>,
    },
    {
      title: TERMS.taxClassCode,
      dataIndex: 'tax_class_code',
      width: 200,
      className: 'kp-num',
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text copyable={{ text: r.tax_class_code }}>{r.tax_class_code}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.tax_class_name}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: TERMS.spec,
      dataIndex: 'spec',
      width: 100,
      ellipsis: true,
      render: (_, r) => <EllipsisText>{orDash(r.spec)}</EllipsisText>,
    },
    {
      title: TERMS.unit,
      dataIndex: 'unit',
      width: 70,
      ellipsis: true,
      render: (_, r) => <EllipsisText>{orDash(r.unit)}</EllipsisText>,
    },
    {
      title: TERMS.unitPrice,
      dataIndex: 'price',
      width: 150,
      align: 'right',
      className: 'kp-num',
      render: (_, r) =>
        r.price === null ? (
          <Typography.Text type="secondary">开票时填写</Typography.Text>
        ) : (
          <Space size={4}>
            <span>{formatUnitPrice(r.price)}</span>
            <Tag bordered={false}>{r.price_includes_tax ? '含税' : '不含税'}</Tag>
          </Space>
        ),
    },
    { title: TERMS.taxRate, dataIndex: 'tax_rate_label', width: 80, className: 'kp-nowrap' },
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
      width: 190,
      fixed: 'right',
      render: (_, r) => (
        <RowActions>
          <Button type="link" size="small" onClick={() => openForm(r)}>
            编辑
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() =>
              setDefaultGoods(r.id, !r.is_default)
                .then(() => {
                  toastSuccess(r.is_default ? '已取消默认' : '已设为默认商品');
                  reload();
                })
                .catch(() => undefined)
            }
          >
            {r.is_default ? '取消默认' : '设为默认'}
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
        title={variant === 'hotel' ? `${TERMS.goodsCode}（酒店）` : TERMS.goodsCode}
        tooltip={`维护常用的开票项目：${TERMS.taxClassCode}、${TERMS.taxRate}和${TERMS.unitPrice}，开票时直接选用`}
        onReload={reload}
        toolbar={
          <>
            <KeywordSearch
              label={`${TERMS.itemName} / ${TERMS.shortName} / ${TERMS.taxClassCode}`}
              width={280}
              keyword={keyword}
              page={page}
              onKeyword={(v) => {
                setKeyword(v);
                setPage(1);
              }}
              onReload={reload}
            />
            <ExcelActions
              name={TERMS.goodsCode}
              paths={GOODS_PATHS}
              query={{ keyword }}
              onImport={() => setImportOpen(true)}
            />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)}>
              新增商品
            </Button>
          </>
        }
      >
        <BatchDeleteBar selected={selected} noun="商品" onConfirm={() => remove(selected)} />
        <Table<GoodsItem>
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
      <GoodsFormModal
        open={formOpen}
        onOpenChange={setFormOpen}
        editing={editing}
        variant={variant}
        onSaved={() => reload()}
      />
      <ImportModal
        open={importOpen}
        title={`导入${TERMS.goodsCode}`}
        uploadPath={GOODS_PATHS.import}
        templatePath={GOODS_PATHS.template}
        templateName={`${TERMS.goodsCode}导入模板.xlsx`}
        onClose={() => setImportOpen(false)}
        onImported={() => reload()}
      />
    </>
  );
}
