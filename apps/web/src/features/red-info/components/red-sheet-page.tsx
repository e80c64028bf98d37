import { PlusOutlined } from '@ant-design/icons';
import { type ActionType, type ProColumns, ProTable } from '@ant-design/pro-components';
import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import { formatMoney } from '@kaipiao/shared/money/capital';
import { CONFIRM_STATES, RED_FORM_KINDS, RED_REASONS, type RedForm } from '@kaipiao/shared/schemas/red-info';
import { beijingDateTimeMinutes } from '@kaipiao/shared/time/beijing';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Grid, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { scopedKey } from '../../../lib/query-scope.ts';
import { listRedForms } from '../api.ts';
import { RedFormDrawer } from './red-form-drawer.tsx';
import { RedInvoiceText, RedStateTag, timeLeft } from './red-state-tag.tsx';

type Row = Omit<RedForm, 'lines'>;
type Search = { kind?: RedForm['kind']; state?: string; keyword?: string };

const STATE_OPTIONS = {
  pending: { text: '待确认 / 申请中' },
  confirmed: { text: '已确认 / 审核通过' },
  void: { text: '已作废 / 已撤销' },
  ...Object.fromEntries(Object.entries(CONFIRM_STATES).map(([k, v]) => [k, { text: `${k} ${v}` }])),
};

/** Beijing date over time, two short lines. */
const time = (iso: string) => {
  const [day, minutes] = beijingDateTimeMinutes(iso).split(' ');
  return (
    <Space direction="vertical" size={0}>
      <span>{day}</span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {minutes}
      </Typography.Text>
    </Space>
  );
};

/** spec §2 红字信息表 (/red-info/sheet): 数电 确认单, 专票 信息表 and 普票 reversals with their states. */
export function RedSheetPage() {
  // below 1600 px the 红字发票 column is hidden: the state cell names the red invoice instead
  const wide = Grid.useBreakpoint().xxl === true;
  const action = useRef<ActionType>(null);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [formId, setFormId] = useState<number | null>(() => {
    const id = Number(params.get('form_id'));
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  });
  // a kept-alive tab opened again with ?form_id= (after filling one in) shows that form
  useEffect(() => {
    const id = Number(params.get('form_id'));
    if (Number.isSafeInteger(id) && id > 0) {
      setFormId(id);
      action.current?.reload();
    }
  }, [params]);

  const columns: ProColumns<Row, 'text'>[] = [
    {
      title: '关键字',
      dataIndex: 'keyword',
      hideInTable: true,
      fieldProps: { placeholder: '单据编号、发票号码或购方名称' },
    },
    {
      title: '单据类型',
      dataIndex: 'kind',
      valueType: 'select',
      valueEnum: Object.fromEntries(Object.entries(RED_FORM_KINDS).map(([k, v]) => [k, { text: v }])),
      // a 确认单's number is 20 digits: on one line at 12 px
      width: 170,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <span>{r.kind_name}</span>
          <Typography.Link className="kp-num" style={{ fontSize: 12 }} onClick={() => setFormId(r.form_id)}>
            {r.form_no || `单号 ${r.form_id}`}
          </Typography.Link>
        </Space>
      ),
    },
    {
      title: '蓝字发票',
      dataIndex: 'blue',
      hideInSearch: true,
      width: 200,
      render: (_, r) => {
        const about = `${r.blue.invoice_type_name} · ¥${formatMoney(r.blue.total_with_tax)}`;
        return (
          <>
            <span className="kp-num">{r.blue.invoice_no}</span>
            <Typography.Text
              type="secondary"
              ellipsis={{ tooltip: about }}
              style={{ display: 'block', fontSize: 12 }}
            >
              {about}
            </Typography.Text>
          </>
        );
      },
    },
    {
      title: '购买方',
      dataIndex: 'buyer',
      hideInSearch: true,
      // issue 24 item 1: the column that takes the room left at 1280 px; a long name ends in …
      render: (_, r) => (
        <Typography.Text ellipsis={{ tooltip: r.blue.buyer_name }} style={{ display: 'block' }}>
          {r.blue.buyer_name}
        </Typography.Text>
      ),
    },
    {
      title: '红字价税合计',
      dataIndex: 'total_with_tax',
      hideInSearch: true,
      align: 'right',
      width: 130,
      className: 'kp-num',
      render: (_, r) => (
        <Space direction="vertical" size={0} style={{ alignItems: 'flex-end' }}>
          <Typography.Text type="danger">{formatMoney(r.total_with_tax)}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {RED_REASONS[r.reason]}·{r.full ? '全额' : '部分'}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: '状态',
      dataIndex: 'state',
      valueType: 'select',
      valueEnum: STATE_OPTIONS,
      width: 170,
      render: (_, r) => (
        <>
          <RedStateTag form={r} />
          {r.expires_at && (
            <Typography.Text type="warning" style={{ display: 'block', fontSize: 12 }}>
              {timeLeft(r.expires_at)}
            </Typography.Text>
          )}
          {!wide && r.red_invoice && (
            <Typography.Text
              type="secondary"
              className="kp-num"
              title="红字发票"
              style={{ display: 'block', fontSize: 12 }}
            >
              <RedInvoiceText form={r} />
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      title: '红字发票',
      dataIndex: 'red_invoice',
      hideInSearch: true,
      width: 200,
      className: 'kp-num',
      // from 1600 px; the form's detail names it at any width
      responsive: ['xxl'],
      render: (_, r) => <RedInvoiceText form={r} />,
    },
    {
      title: '填开时间',
      dataIndex: 'created_at',
      hideInSearch: true,
      width: 120,
      className: 'kp-num',
      render: (_, r) => time(r.created_at),
    },
    {
      title: '操作',
      valueType: 'option',
      width: 80,
      fixed: 'right',
      render: (_, r) => [
        <Button key="detail" type="link" size="small" onClick={() => setFormId(r.form_id)}>
          详情
        </Button>,
      ],
    },
  ];

  return (
    <>
      <ProTable<Row, Search>
        rowKey="form_id"
        actionRef={action}
        columns={columns}
        cardBordered
        headerTitle="红字信息表"
        tooltip="数电发票使用红字确认单（对方须在72小时内确认），税控专票使用红字信息表，税控普票直接红冲"
        scroll={{ x: 900 }}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        options={{ reload: true, density: false, setting: false }}
        pagination={{ defaultPageSize: PAGE_SIZES[0], showSizeChanger: true, showTotal: (n) => `共 ${n} 条` }}
        toolBarRender={() => [
          <Button
            key="new"
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => navigate('/red-info/modify')}
          >
            新增红字信息
          </Button>,
        ]}
        request={async (p) => {
          const res = await listRedForms({
            page: p.current ?? 1,
            page_size: p.pageSize ?? PAGE_SIZES[0],
            kind: p.kind,
            state: p.state,
            keyword: p.keyword?.trim() || undefined,
          });
          return { data: res.list, total: res.total, success: true };
        }}
      />
      <RedFormDrawer
        formId={formId}
        onClose={() => {
          setFormId(null);
          if (params.has('form_id')) setParams({}, { replace: true });
          void client.invalidateQueries({ queryKey: scopedKey('red-info') });
          action.current?.reload();
        }}
      />
    </>
  );
}
