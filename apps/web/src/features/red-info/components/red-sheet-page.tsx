import { PlusOutlined } from '@ant-design/icons';
import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { formatMoney } from '@kaipiao/shared/money/capital';
import { RED_REASONS, type RedForm } from '@kaipiao/shared/schemas/red-info';
import { beijingDateTimeMinutes } from '@kaipiao/shared/time/beijing';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Grid, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ListCard, useListReload } from '../../../components/list-card.tsx';
import { scopedKey } from '../../../lib/query-scope.ts';
import { type RedSearch, redListBody, redListQuery } from '../api.ts';
import { RedFormDrawer } from './red-form-drawer.tsx';
import { RedSheetFilters } from './red-sheet-filters.tsx';
import { RedInvoiceText, RedStateTag, timeLeft } from './red-state-tag.tsx';

type Row = Omit<RedForm, 'lines'>;

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
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [formId, setFormId] = useState<number | null>(() => {
    const id = Number(params.get('form_id'));
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  });
  // a kept-alive tab opened again with ?form_id= (after filling one in) shows that form; being
  // shown again, the list asks anew (redListQuery)
  useEffect(() => {
    const id = Number(params.get('form_id'));
    if (Number.isSafeInteger(id) && id > 0) setFormId(id);
  }, [params]);
  // the searched filters, the page and its size
  const [search, setSearch] = useState<RedSearch>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const list = useQuery(redListQuery(redListBody(search, page, pageSize)));
  const { reload, loading } = useListReload(list, scopedKey('red-info', 'list'));

  const columns: TableColumnsType<Row> = [
    {
      title: '单据类型',
      dataIndex: 'kind',
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
      title: TERMS.blueInvoice,
      dataIndex: 'blue',
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
      title: TERMS.buyer,
      key: 'buyer',
      // issue 24 item 1: the column that takes the room left at 1280 px; a long name ends in …
      render: (_, r) => (
        <Typography.Text ellipsis={{ tooltip: r.blue.buyer_name }} style={{ display: 'block' }}>
          {r.blue.buyer_name}
        </Typography.Text>
      ),
    },
    {
      title: `${TERMS.redShort}${TERMS.totalWithTax}`,
      dataIndex: 'total_with_tax',
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
              title={TERMS.redInvoice}
              style={{ display: 'block', fontSize: 12 }}
            >
              <RedInvoiceText form={r} />
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      title: TERMS.redInvoice,
      dataIndex: 'red_invoice',
      width: 200,
      className: 'kp-num',
      // from 1600 px; the form's detail names it at any width
      responsive: ['xxl'],
      render: (_, r) => <RedInvoiceText form={r} />,
    },
    {
      title: '填开时间',
      dataIndex: 'created_at',
      width: 120,
      className: 'kp-num',
      render: (_, r) => time(r.created_at),
    },
    {
      title: '操作',
      key: 'option',
      width: 80,
      fixed: 'right',
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => setFormId(r.form_id)}>
          详情
        </Button>
      ),
    },
  ];

  return (
    <>
      <Flex vertical gap={16}>
        {/* the form items' own bottom margin closes the card */}
        <Card styles={{ body: { paddingBottom: 0 } }}>
          <RedSheetFilters
            onSearch={(values) => {
              setSearch(values);
              setPage(1);
              // the same filters searched again ask again
              if (page === 1 && sameSearch(values, search)) reload();
            }}
          />
        </Card>
        <ListCard
          title={TERMS.redInfoSheet}
          tooltip={`${TERMS.digitalInvoice}使用${TERMS.redConfirmForm}（对方须在72小时内确认），税控${TERMS.specialInvoice}使用${TERMS.redInfoSheet}，税控${TERMS.ordinaryInvoice}直接${TERMS.redLetter}`}
          onReload={reload}
          toolbar={
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/red-info/modify')}>
              新增{TERMS.redShort}信息
            </Button>
          }
        >
          <Table<Row>
            rowKey="form_id"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={loading}
            scroll={{ x: 900 }}
            pagination={{
              current: page,
              pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              showTotal: (n) => `共 ${n} 条`,
              onChange: (p, size) => {
                setPage(size !== pageSize ? 1 : p);
                setPageSize(size);
              },
            }}
          />
        </ListCard>
      </Flex>
      <RedFormDrawer
        formId={formId}
        onClose={() => {
          setFormId(null);
          if (params.has('form_id')) setParams({}, { replace: true });
          // the list and the form's own answers
          void client.invalidateQueries({ queryKey: scopedKey('red-info') });
        }}
      />
    </>
  );
}

/** Two searches of the same filters (what the request would carry). */
function sameSearch(a: RedSearch, b: RedSearch): boolean {
  return JSON.stringify(redListBody(a, 1, 1)) === JSON.stringify(redListBody(b, 1, 1));
}
