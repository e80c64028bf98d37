import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { type ActionType, type ProColumns, ProTable } from '@ant-design/pro-components';
import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import { BUYER_TYPE_LABELS, BUYER_TYPE_OPTIONS } from '@kaipiao/shared/glossary/terms';
import type { TitleItem } from '@kaipiao/shared/schemas/titles';
import { beijingDateTimeMinutes } from '@kaipiao/shared/time/beijing';
import { Button, Popconfirm, Segmented, Space, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { ImportModal } from '../../../components/excel-transfer/import-modal.tsx';
import { alertError, toastSuccess } from '../../../lib/antd/feedback.ts';
import { rowCheckbox } from '../../../lib/antd/row-checkbox.ts';
import { downloadFile } from '../../../lib/file-transfer.ts';
import { deleteTitles, listTitles, TITLE_PATHS } from '../api/titles.ts';
import { TitleFormModal } from './title-form-modal.tsx';

const showError = (e: unknown) => alertError('提示', e instanceof Error ? e.message : String(e));
type TypeFilter = 'all' | 1 | 2;

/** spec §2 购方抬头 (/device-project/title): saved buyers for the invoice form. */
export function TitlesPage() {
  const action = useRef<ActionType>(null);
  const [editing, setEditing] = useState<TitleItem | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [keyword, setKeyword] = useState('');
  const [typeFilter, setTypeFilter] = useState<TypeFilter>('all');
  const [selected, setSelected] = useState<number[]>([]);

  const reload = () => action.current?.reload();
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

  const columns: ProColumns<TitleItem>[] = [
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
      title: '纳税人识别号',
      dataIndex: 'tax_code',
      width: 190,
      className: 'kp-num',
      renderText: (v: string) => v || '—',
    },
    {
      title: '地址、电话',
      dataIndex: 'address',
      ellipsis: true,
      responsive: ['xxl'],
      renderText: (_: string, r) => [r.address, r.phone].filter(Boolean).join(' ') || '—',
    },
    {
      title: '开户行及账号',
      dataIndex: 'bank_name',
      ellipsis: true,
      responsive: ['xxl'],
      renderText: (_: string, r) => [r.bank_name, r.bank_account].filter(Boolean).join(' ') || '—',
    },
    {
      title: '邮箱 / 手机',
      dataIndex: 'email',
      width: 190,
      ellipsis: true,
      renderText: (_: string, r) => [r.email, r.mobile].filter(Boolean).join(' / ') || '—',
    },
    { title: '使用次数', dataIndex: 'use_count', width: 90, align: 'right', className: 'kp-num' },
    {
      title: '更新时间',
      dataIndex: 'updated_at',
      width: 160,
      className: 'kp-num',
      responsive: ['xxl'],
      renderText: (v: string) => beijingDateTimeMinutes(v),
    },
    {
      title: '操作',
      valueType: 'option',
      width: 130,
      fixed: 'right',
      render: (_, r) => [
        <Button key="edit" type="link" size="small" onClick={() => openForm(r)}>
          编辑
        </Button>,
        <Popconfirm
          key="delete"
          title={`确定删除“${r.name}”吗？`}
          okText="删除"
          cancelText="取消"
          onConfirm={() => remove([r.id])}
        >
          <Button type="link" size="small" danger>
            删除
          </Button>
        </Popconfirm>,
      ],
    },
  ];

  return (
    <>
      <ProTable<TitleItem, { keyword?: string; typeFilter: TypeFilter }>
        rowKey="id"
        actionRef={action}
        columns={columns}
        search={false}
        cardBordered
        scroll={{ x: 900 }}
        headerTitle={
          <Segmented<TypeFilter>
            value={typeFilter}
            onChange={setTypeFilter}
            options={[{ label: '全部', value: 'all' }, ...BUYER_TYPE_OPTIONS]}
          />
        }
        params={{ typeFilter }}
        options={{
          reload: true,
          density: false,
          setting: false,
          search: { placeholder: '名称 / 纳税人识别号', allowClear: true, style: { width: 240 } },
        }}
        pagination={{
          defaultPageSize: PAGE_SIZES[0],
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
        }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (r) => rowCheckbox(`选择${r.name}`),
        }}
        tableAlertOptionRender={() => (
          <Popconfirm
            title={`确定删除选中的${selected.length}个抬头吗？`}
            okText="删除"
            cancelText="取消"
            onConfirm={() => remove(selected)}
          >
            <Button type="link" danger size="small">
              批量删除
            </Button>
          </Popconfirm>
        )}
        request={async (params) => {
          const kw = (params.keyword ?? '').trim();
          setKeyword(kw);
          const page = await listTitles({
            keyword: kw,
            title_type: params.typeFilter === 'all' ? undefined : params.typeFilter,
            page: params.current ?? 1,
            page_size: params.pageSize ?? 10,
          });
          return { data: page.list, total: page.total, success: true };
        }}
        toolBarRender={() => [
          <Button
            key="template"
            onClick={() => downloadFile(TITLE_PATHS.template, {}, '购方抬头导入模板.xlsx').catch(showError)}
          >
            下载模板
          </Button>,
          <Button key="import" icon={<UploadOutlined />} onClick={() => setImportOpen(true)}>
            导入
          </Button>,
          <Button
            key="export"
            icon={<DownloadOutlined />}
            onClick={() => downloadFile(TITLE_PATHS.export, { keyword }, '购方抬头.xlsx').catch(showError)}
          >
            导出
          </Button>,
          <Button key="new" type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)}>
            新增抬头
          </Button>,
        ]}
      />
      <TitleFormModal open={formOpen} onOpenChange={setFormOpen} editing={editing} onSaved={() => reload()} />
      <ImportModal
        open={importOpen}
        title="导入购方抬头"
        uploadPath={TITLE_PATHS.import}
        templatePath={TITLE_PATHS.template}
        templateName="购方抬头导入模板.xlsx"
        onClose={() => setImportOpen(false)}
        onImported={() => reload()}
      />
    </>
  );
}
