import { PlusOutlined } from '@ant-design/icons';
import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { SCAN_REQUEST_STATUS, type ScanCode } from '@kaipiao/shared/schemas/scan';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { alertError, toastSuccess } from '../../../lib/antd/feedback.ts';
import { beijingTime, money } from '../../../lib/format.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { codesQuery, createOrder, disableCode } from '../api/scan.ts';
import { type ItemRow, ItemsEditor, itemsOf, rowsOf } from './items-editor.tsx';
import { QrCard } from './qr-card.tsx';

type OrderForm = {
  order_no?: string;
  valid_hours?: number;
  remark?: string;
  room_no?: string;
  guest_name?: string;
  stay?: [Dayjs, Dayjs];
};

/** Dynamic order codes (订单码): amount, items and validity; the hotel variant adds room, stay and guest. */
export function OrderCodes({
  storeId,
  sellerName,
  hotel,
  title = '订单码（动态码）',
}: {
  storeId: number;
  sellerName: string;
  hotel: boolean;
  title?: string;
}) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const [keyword, setKeyword] = useState('');
  const orders = useQuery(codesQuery(storeId, 'order', page, pageSize, keyword));
  const [open, setOpen] = useState(false);
  const [rows, setRows] = useState<ItemRow[]>(rowsOf(null));
  const [saving, setSaving] = useState(false);
  const [shown, setShown] = useState<ScanCode | null>(null);
  const [form] = Form.useForm<OrderForm>();

  async function submit() {
    const v = await form.validateFields();
    const parsed = itemsOf(rows);
    if ('error' in parsed) {
      alertError('提示', parsed.error);
      return;
    }
    setSaving(true);
    try {
      const code = await createOrder({
        order_no: v.order_no?.trim() ?? '',
        items: parsed.items,
        valid_minutes: v.valid_hours ? Math.round(v.valid_hours * 60) : undefined,
        remark: v.remark ?? '',
        ...(hotel
          ? {
              hotel_stay: {
                room_no: v.room_no ?? '',
                guest_name: v.guest_name ?? '',
                check_in: v.stay?.[0]?.format('YYYY-MM-DD') ?? '',
                check_out: v.stay?.[1]?.format('YYYY-MM-DD') ?? '',
              },
            }
          : {}),
      });
      toastSuccess('订单码已生成');
      setOpen(false);
      form.resetFields();
      setRows(rowsOf(null));
      setShown(code);
      void queryClient.invalidateQueries({ queryKey: scopedKey('scan', 'codes') });
    } catch {
      // shown by the API client
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card
      variant="borderless"
      title={title}
      extra={
        <Space>
          <Input.Search
            allowClear
            placeholder="订单号"
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage(1);
            }}
            style={{ width: 200 }}
          />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
            生成订单码
          </Button>
        </Space>
      }
    >
      <Table<ScanCode>
        size="small"
        rowKey="id"
        loading={orders.isLoading}
        dataSource={orders.data?.list ?? []}
        pagination={{
          current: page,
          pageSize,
          total: orders.data?.total ?? 0,
          showTotal: (n) => `共 ${n} 条`,
          onChange: (p, s) => {
            setPage(s !== pageSize ? 1 : p);
            setPageSize(s);
          },
        }}
        // issue 24 item 1: fits at 1280 px (生成时间 from 1600 px); narrower, the table scrolls, not the page
        scroll={{ x: 900 }}
        columns={[
          { title: '订单号', dataIndex: 'order_no', width: 160, ellipsis: true },
          {
            title: '生成时间',
            dataIndex: 'created_at',
            width: 170,
            className: 'kp-num',
            responsive: ['xxl'],
            render: (v: string) => beijingTime(v, true),
          },
          {
            title: '开票项目',
            render: (_, r) => (r.items ?? []).map((it) => it.name).join('、'),
            ellipsis: true,
          },
          ...(hotel
            ? [
                {
                  title: '房号 / 住客',
                  width: 120,
                  ellipsis: true,
                  render: (_: unknown, r: ScanCode) =>
                    r.hotel_stay ? `${r.hotel_stay.room_no} / ${r.hotel_stay.guest_name}` : '',
                },
                {
                  title: '入住 - 离店',
                  width: 120,
                  className: 'kp-nowrap',
                  render: (_: unknown, r: ScanCode) =>
                    r.hotel_stay?.check_in ? (
                      <span title={`${r.hotel_stay.check_in} 至 ${r.hotel_stay.check_out}`}>
                        {r.hotel_stay.check_in.slice(5)} 至 {r.hotel_stay.check_out.slice(5)}
                      </span>
                    ) : (
                      ''
                    ),
                },
              ]
            : []),
          {
            title: TERMS.amount,
            dataIndex: 'amount',
            width: 110,
            align: 'right',
            className: 'kp-num',
            render: (v: string) => money(v),
          },
          {
            title: '有效期至',
            dataIndex: 'expires_at',
            width: 150,
            className: 'kp-num',
            render: (v: string | null) => {
              const expired = v !== null && new Date(v).getTime() < Date.now();
              return (
                <Typography.Text type={expired ? 'secondary' : undefined}>
                  {beijingTime(v)}
                  {expired && <div>已过期</div>}
                </Typography.Text>
              );
            },
          },
          {
            title: '开票状态',
            dataIndex: 'request_status',
            width: 100,
            render: (v: keyof typeof SCAN_REQUEST_STATUS | null, r) =>
              r.status === 'disabled' ? (
                <Tag>已停用</Tag>
              ) : v ? (
                <Tag color={v === 'issued' ? 'success' : v === 'rejected' ? 'error' : 'processing'}>
                  {SCAN_REQUEST_STATUS[v]}
                </Tag>
              ) : (
                <Tag>待扫码</Tag>
              ),
          },
          {
            title: '操作',
            width: 120,
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setShown(r)}>
                  二维码
                </Button>
                {r.status === 'active' && !r.request_status && (
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() =>
                      Modal.confirm({
                        title: '停用订单码',
                        content: `停用后顾客将无法通过订单 ${r.order_no} 的二维码申请开票，确定停用吗？`,
                        onOk: async () => {
                          await disableCode(r.id);
                          toastSuccess('已停用');
                          void queryClient.invalidateQueries({ queryKey: scopedKey('scan', 'codes') });
                        },
                      })
                    }
                  >
                    停用
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />

      <Modal
        title={hotel ? '生成酒店订单开票码' : '生成订单码'}
        open={open}
        width={820}
        onCancel={() => setOpen(false)}
        onOk={() => void submit()}
        okText="生成二维码"
        confirmLoading={saving}
        destroyOnHidden
      >
        <Form form={form} layout="inline" style={{ rowGap: 12, marginBottom: 16 }}>
          <Form.Item
            name="order_no"
            label="订单号"
            rules={[
              { pattern: /^[A-Za-z0-9_-]{0,40}$/, message: '订单号须为1-40位字母、数字、下划线或中划线' },
            ]}
          >
            <Input placeholder="不填自动生成" style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="valid_hours" label="有效期（小时）">
            <InputNumber
              min={0.1}
              max={720}
              placeholder={`默认按${TERMS.store}设置`}
              style={{ width: 150 }}
            />
          </Form.Item>
          {hotel && (
            <>
              <Form.Item name="room_no" label="房号" rules={[{ required: true, message: '请输入房号' }]}>
                <Input maxLength={20} style={{ width: 120 }} />
              </Form.Item>
              <Form.Item
                name="guest_name"
                label="住客"
                rules={[{ required: true, message: '请输入住客姓名' }]}
              >
                <Input maxLength={50} style={{ width: 120 }} />
              </Form.Item>
              <Form.Item
                name="stay"
                label="入住 - 离店"
                rules={[{ required: true, message: '请选择入住和离店日期' }]}
              >
                <DatePicker.RangePicker />
              </Form.Item>
            </>
          )}
          <Form.Item name="remark" label={TERMS.remark}>
            <Input maxLength={200} style={{ width: 260 }} />
          </Form.Item>
        </Form>
        <ItemsEditor rows={rows} onChange={setRows} />
      </Modal>

      <Modal
        title="订单码"
        open={shown !== null}
        onCancel={() => setShown(null)}
        footer={null}
        width={380}
        destroyOnHidden
      >
        {shown && (
          <Space direction="vertical" align="center" style={{ width: '100%' }}>
            <QrCard code={shown} sellerName={sellerName} />
            <Typography.Text>
              开票{TERMS.amount}：{money(shown.amount ?? '0')} 元
            </Typography.Text>
            <Typography.Text type="secondary">有效期至 {beijingTime(shown.expires_at, true)}</Typography.Text>
          </Space>
        )}
      </Modal>
    </Card>
  );
}
