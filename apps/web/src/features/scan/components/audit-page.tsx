import { PAGE_SIZES, SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { ScanRequest, ScanRequestStatus } from '@kaipiao/shared/schemas/scan';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Drawer,
  Grid,
  Input,
  Modal,
  Segmented,
  Skeleton,
  Space,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { rowCheckbox } from '../../../lib/antd/row-checkbox.ts';
import { beijingTime, money } from '../../../lib/format.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { auditQuery, bulkApprove, requestQuery } from '../api/scan.ts';
import { ApproveForm, askReject, RequestStatusTag } from './approve-form.tsx';
import { SwitchStoreNotice } from './qrcode-page.tsx';

const FILTERS: { value: ScanRequestStatus | ''; label: string }[] = [
  { value: 'pending', label: '待审核' },
  { value: 'failed', label: '开票失败' },
  { value: 'issued', label: '已开票' },
  { value: 'rejected', label: '已拒绝' },
  { value: '', label: '全部' },
];

/** spec §2 /invoice/audit (and the hotel variant) 开票审核: the queue of buyers' requests. */
export function AuditPage({ hotel }: { hotel: boolean }) {
  const wide = Grid.useBreakpoint().xxl === true;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const store = useSessionStore((s) => s.store);
  const storeId = store?.client_store_id ?? SUMMARY_STORE_ID;
  const [status, setStatus] = useState<ScanRequestStatus | ''>('pending');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const [selected, setSelected] = useState<number[]>([]);
  const [open, setOpen] = useState<ScanRequest | null>(null);
  const [bulkBusy, setBulkBusy] = useState(false);
  const list = useQuery(auditQuery(storeId, { status, keyword, page, pageSize }));
  const refresh = () => {
    setSelected([]);
    void queryClient.invalidateQueries({ queryKey: scopedKey('scan') });
  };

  async function approveSelected() {
    setBulkBusy(true);
    try {
      const res = await bulkApprove(selected);
      if (res.failed.length === 0) toastSuccess(`已开具 ${res.issued} 张发票`);
      else
        Modal.warning({
          title: `已开具 ${res.issued} 张，${res.failed.length} 条未开具`,
          content: (
            <ul style={{ paddingLeft: 16 }}>
              {res.failed.map((f) => (
                <li key={f.id}>
                  #{f.id}：{f.message}
                </li>
              ))}
            </ul>
          ),
        });
    } catch {
      // shown by the API client
    } finally {
      setBulkBusy(false);
      refresh();
    }
  }

  const review = (r: ScanRequest) => {
    if (hotel) navigate(`/hotel/invoice/audit/goods?id=${r.id}`);
    else setOpen(r);
  };

  const summary = storeId === SUMMARY_STORE_ID;
  return (
    <Card variant="borderless">
      {summary && (
        <div style={{ marginBottom: 16 }}>
          <SwitchStoreNotice path={hotel ? '/hotel/invoice/audit' : '/invoice/audit'} />
        </div>
      )}
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Segmented
          value={status}
          options={FILTERS}
          onChange={(v) => {
            setStatus(v as ScanRequestStatus | '');
            setPage(1);
            setSelected([]);
          }}
        />
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={`${TERMS.buyer}名称、${TERMS.taxCodeShort}或订单号`}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage(1);
            }}
            style={{ width: 260 }}
          />
          <Button
            type="primary"
            disabled={selected.length === 0 || summary}
            loading={bulkBusy}
            onClick={() =>
              Modal.confirm({
                title: '批量审核通过',
                content: `将为选中的 ${selected.length} 条申请开具发票（没有商品${TERMS.amount}的申请需逐条补全），确定吗？`,
                onOk: () => approveSelected(),
              })
            }
          >
            批量通过{selected.length > 0 ? `（${selected.length}）` : ''}
          </Button>
        </Space>
      </Space>
      <Table<ScanRequest>
        size="small"
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (r) =>
            rowCheckbox(`选择${r.buyer_name || '开票申请'}`, {
              disabled: summary || !((r.status === 'pending' && r.items) || r.status === 'failed'),
            }),
        }}
        pagination={{
          current: page,
          pageSize,
          total: list.data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (n) => `共 ${n} 条`,
          onChange: (p, s) => {
            setPage(s !== pageSize ? 1 : p);
            setPageSize(s);
          },
        }}
        // issue 24 item 1: fits at 1280 px (接收方式 from 1600 px; the review drawer shows it);
        // narrower, the table scrolls, not the page
        scroll={{ x: 900 }}
        columns={[
          {
            title: '提交时间',
            dataIndex: 'created_at',
            width: 100,
            className: 'kp-num',
            render: (v: string) => (
              <Space direction="vertical" size={0}>
                <span>{beijingTime(v, true).slice(0, 10)}</span>
                <Typography.Text type="secondary">{beijingTime(v, true).slice(11)}</Typography.Text>
              </Space>
            ),
          },
          {
            title: '开票点 / 订单号',
            width: 150,
            render: (_, r) => (
              <Space direction="vertical" size={0}>
                <Typography.Text ellipsis={{ tooltip: r.point_name }} style={{ maxWidth: 140 }}>
                  {r.point_name}
                </Typography.Text>
                {r.order_no && (
                  <Typography.Text
                    type="secondary"
                    ellipsis={{ tooltip: r.order_no }}
                    style={{ maxWidth: 140 }}
                  >
                    {r.order_no}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: TERMS.buyer,
            render: (_, r) => (
              <>
                <Typography.Text ellipsis={{ tooltip: r.buyer_name }} style={{ display: 'block' }}>
                  {r.buyer_name}
                </Typography.Text>
                {r.buyer_tax_code && (
                  <Typography.Text type="secondary" className="kp-num" style={{ display: 'block' }}>
                    {r.buyer_tax_code}
                  </Typography.Text>
                )}
                {/* below 1600 px the 接收方式 column is hidden: where the invoice goes, here */}
                {!wide && (r.email || r.mobile) && (
                  <Typography.Text
                    type="secondary"
                    ellipsis={{ tooltip: [r.email, r.mobile].filter(Boolean).join(' / ') }}
                    style={{ display: 'block', fontSize: 12 }}
                  >
                    {[r.email, r.mobile].filter(Boolean).join(' / ')}
                  </Typography.Text>
                )}
              </>
            ),
          },
          ...(hotel
            ? [
                {
                  title: '房号 / 住客 / 入住离店',
                  width: 160,
                  render: (_: unknown, r: ScanRequest) =>
                    r.hotel_stay ? (
                      <Space direction="vertical" size={0}>
                        <span>
                          {r.hotel_stay.room_no} / {r.hotel_stay.guest_name}
                        </span>
                        {r.hotel_stay.check_in && (
                          <Typography.Text type="secondary">
                            {r.hotel_stay.check_in.slice(5)} 至 {r.hotel_stay.check_out.slice(5)}
                          </Typography.Text>
                        )}
                      </Space>
                    ) : (
                      '—'
                    ),
                },
              ]
            : []),
          {
            title: '接收方式',
            width: 200,
            ellipsis: true,
            responsive: ['xxl'],
            render: (_, r) => (
              <Space direction="vertical" size={0}>
                {r.email && <span>{r.email}</span>}
                {r.mobile && <span>{r.mobile}</span>}
              </Space>
            ),
          },
          {
            title: TERMS.amount,
            dataIndex: 'amount',
            width: 110,
            align: 'right',
            className: 'kp-num',
            render: (v: string | null, r) =>
              v ? (
                <Space direction="vertical" size={0} style={{ alignItems: 'flex-end' }}>
                  <span>¥{money(v)}</span>
                  {!r.items && <Typography.Text type="secondary">顾客填写</Typography.Text>}
                </Space>
              ) : (
                <Typography.Text type="secondary">待补全</Typography.Text>
              ),
          },
          {
            title: '状态',
            dataIndex: 'status',
            width: 140,
            render: (_, r) => (
              <Space direction="vertical" size={0}>
                <RequestStatusTag status={r.status} />
                {r.status === 'rejected' && (
                  <Typography.Text type="secondary">{r.reject_reason}</Typography.Text>
                )}
                {r.error_message && (r.status === 'pending' || r.status === 'failed') && (
                  <Typography.Text
                    type="danger"
                    ellipsis={{ tooltip: r.error_message }}
                    style={{ maxWidth: 130 }}
                  >
                    {r.error_message}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: '操作',
            width: 110,
            render: (_, r) => (
              <Space size={0}>
                {!summary && (r.status === 'pending' || r.status === 'failed') ? (
                  <>
                    <Button type="link" size="small" onClick={() => review(r)}>
                      审核
                    </Button>
                    <Button type="link" size="small" danger onClick={() => askReject(r, refresh)}>
                      拒绝
                    </Button>
                  </>
                ) : r.invoice_id && r.status === 'issued' ? (
                  <Button
                    type="link"
                    size="small"
                    onClick={() =>
                      navigate(
                        `${hotel ? '/hotel/query/invoice' : '/query/invoice'}?invoice_id=${r.invoice_id}`,
                      )
                    }
                  >
                    查看发票
                  </Button>
                ) : (
                  <Button type="link" size="small" onClick={() => review(r)}>
                    详情
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        title="审核开票申请"
        width={860}
        open={open !== null}
        onClose={() => setOpen(null)}
        destroyOnHidden
      >
        {open && (
          <ApproveForm
            key={open.id}
            request={open}
            hotel={hotel}
            onDone={() => {
              setOpen(null);
              refresh();
            }}
          />
        )}
      </Drawer>
    </Card>
  );
}

/** spec §2 hidden /hotel/invoice/audit/goods 订单商品: one hotel request's goods, stay and approval. */
export function AuditGoodsPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = Number(params.get('id'));
  const request = useQuery({ ...requestQuery(id), enabled: id > 0 });
  const back = () => {
    void queryClient.invalidateQueries({ queryKey: scopedKey('scan') });
    navigate('/hotel/invoice/audit');
  };
  if (!(id > 0)) {
    return (
      <Card variant="borderless">
        <Typography.Text type="secondary">请从开票审核列表选择要处理的申请。</Typography.Text>{' '}
        <Button type="link" onClick={() => navigate('/hotel/invoice/audit')}>
          返回开票审核
        </Button>
      </Card>
    );
  }
  return (
    <Card
      variant="borderless"
      title={request.data?.order_no ? `订单 ${request.data.order_no}` : '开票申请'}
      extra={<Button onClick={() => navigate('/hotel/invoice/audit')}>返回列表</Button>}
    >
      {request.isLoading ? (
        <Skeleton active />
      ) : request.data ? (
        <ApproveForm key={request.data.id} request={request.data} hotel onDone={back} />
      ) : (
        <Typography.Text type="secondary">该申请不存在或已被处理</Typography.Text>
      )}
    </Card>
  );
}
