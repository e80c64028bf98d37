import { BUYER_TYPE_LABELS, TERMS } from '@kaipiao/shared/glossary/terms';
import { SCAN_REQUEST_STATUS, type ScanRequest } from '@kaipiao/shared/schemas/scan';
import { Alert, Button, DatePicker, Descriptions, Input, Modal, Space, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { alertError, toastSuccess } from '../../../lib/antd/feedback.ts';
import { beijingTime, money } from '../../../lib/format.ts';
import { approve, reject } from '../api/scan.ts';
import { type ItemRow, ItemsEditor, itemsOf, newRow, rowsOf } from './items-editor.tsx';

export const STATUS_COLOR: Record<ScanRequest['status'], string> = {
  pending: 'processing',
  issuing: 'processing',
  issued: 'success',
  rejected: 'default',
  failed: 'error',
};

export function RequestStatusTag({ status }: { status: ScanRequest['status'] }) {
  return <Tag color={STATUS_COLOR[status]}>{SCAN_REQUEST_STATUS[status]}</Tag>;
}

/** Asks for the reason the buyer will be told, then rejects. */
export function askReject(r: ScanRequest, done: () => void) {
  let reason = '';
  Modal.confirm({
    title: '拒绝开票申请',
    icon: null,
    content: (
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>
          {r.buyer_name}
          {r.order_no ? `（订单 ${r.order_no}）` : ''}
        </Typography.Text>
        <Input.TextArea
          aria-label="拒绝原因"
          placeholder="请填写拒绝原因，将通知顾客"
          maxLength={100}
          showCount
          rows={3}
          onChange={(e) => {
            reason = e.target.value;
          }}
        />
      </Space>
    ),
    okText: '拒绝',
    okButtonProps: { danger: true },
    onOk: async () => {
      if (!reason.trim()) {
        alertError('提示', '请填写拒绝原因');
        throw new Error('reason required');
      }
      await reject(r.id, reason.trim());
      toastSuccess('已拒绝，顾客将看到拒绝原因');
      done();
    },
  });
}

/**
 * One request: the buyer's title and contact, the goods and amounts the clerk completes (prefilled
 * from the order), the hotel stay; approve issues, reject asks for the reason.
 */
export function ApproveForm({
  request,
  hotel,
  onDone,
}: {
  request: ScanRequest;
  hotel: boolean;
  onDone: () => void;
}) {
  const [rows, setRows] = useState<ItemRow[]>(() =>
    // a static-code request: the amount the buyer gave is the clerk's starting point
    request.items || !request.amount ? rowsOf(request.items) : [newRow({ amount_with_tax: request.amount })],
  );
  const [room, setRoom] = useState(request.hotel_stay?.room_no ?? '');
  const [guest, setGuest] = useState(request.hotel_stay?.guest_name ?? '');
  const [stay, setStay] = useState<[Dayjs | null, Dayjs | null] | null>(
    request.hotel_stay?.check_in
      ? [dayjs(request.hotel_stay.check_in), dayjs(request.hotel_stay.check_out)]
      : null,
  );
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);
  const editable = request.status === 'pending';
  const actionable = request.status === 'pending' || request.status === 'failed';

  async function submit() {
    let items: ReturnType<typeof itemsOf> | undefined;
    if (editable) {
      items = itemsOf(rows);
      if ('error' in items) {
        alertError('提示', items.error);
        return;
      }
    }
    setBusy(true);
    try {
      const res = await approve({
        id: request.id,
        ...(items && 'items' in items ? { items: items.items } : {}),
        ...(hotel && editable
          ? {
              hotel_stay: {
                room_no: room,
                guest_name: guest,
                check_in: stay?.[0]?.format('YYYY-MM-DD') ?? '',
                check_out: stay?.[1]?.format('YYYY-MM-DD') ?? '',
              },
            }
          : {}),
        ...(remark ? { remark } : {}),
      });
      toastSuccess(
        res.status === 'issued'
          ? `开票成功，${TERMS.invoiceNo} ${res.request.invoice_no ?? ''}`
          : '已提交开票，结果待确认',
      );
      onDone();
    } catch {
      // shown by the API client; the queue shows the reason on the request
      onDone();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      {request.error_message && actionable && (
        <Alert type="error" showIcon message={`上次开票未成功：${request.error_message}`} />
      )}
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={TERMS.buyerType}>
          {BUYER_TYPE_LABELS[request.title_type === 2 ? 2 : 1]}
        </Descriptions.Item>
        <Descriptions.Item label="状态">
          <RequestStatusTag status={request.status} />
        </Descriptions.Item>
        <Descriptions.Item label={`${TERMS.buyer}名称`} span={2}>
          {request.buyer_name}
        </Descriptions.Item>
        {request.buyer_tax_code ? (
          <Descriptions.Item label={TERMS.taxCode} span={2}>
            {request.buyer_tax_code}
          </Descriptions.Item>
        ) : null}
        {request.buyer_address || request.buyer_phone ? (
          <Descriptions.Item label="地址、电话" span={2}>
            {request.buyer_address} {request.buyer_phone}
          </Descriptions.Item>
        ) : null}
        {request.buyer_bank_name || request.buyer_bank_account ? (
          <Descriptions.Item label="开户行及账号" span={2}>
            {request.buyer_bank_name} {request.buyer_bank_account}
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label="接收邮箱">{request.email || '—'}</Descriptions.Item>
        <Descriptions.Item label="接收手机">{request.mobile || '—'}</Descriptions.Item>
        <Descriptions.Item label="开票点">{request.point_name}</Descriptions.Item>
        <Descriptions.Item label="提交时间">{beijingTime(request.created_at, true)}</Descriptions.Item>
        {request.order_no ? <Descriptions.Item label="订单号">{request.order_no}</Descriptions.Item> : null}
        {request.amount ? (
          <Descriptions.Item
            label={request.code_kind === 'order' ? `订单${TERMS.amount}` : `顾客填写${TERMS.amount}`}
          >
            ¥{money(request.amount)}
          </Descriptions.Item>
        ) : null}
        {request.buyer_remark ? (
          <Descriptions.Item label={`顾客${TERMS.remark}`} span={2}>
            {request.buyer_remark}
          </Descriptions.Item>
        ) : null}
        {request.reject_reason ? (
          <Descriptions.Item label="拒绝原因" span={2}>
            {request.reject_reason}
          </Descriptions.Item>
        ) : null}
        {request.invoice_no ? (
          <Descriptions.Item label={TERMS.invoiceNo} span={2}>
            {request.invoice_no}
          </Descriptions.Item>
        ) : null}
      </Descriptions>

      {hotel && (
        <Space wrap>
          <Input
            addonBefore="房号"
            aria-label="房号"
            value={room}
            disabled={!editable}
            onChange={(e) => setRoom(e.target.value)}
            style={{ width: 160 }}
          />
          <Input
            addonBefore="住客"
            aria-label="住客"
            value={guest}
            disabled={!editable}
            onChange={(e) => setGuest(e.target.value)}
            style={{ width: 180 }}
          />
          <DatePicker.RangePicker
            value={stay}
            disabled={!editable}
            placeholder={['入住日期', '离店日期']}
            onChange={(v) => setStay(v ? [v[0], v[1]] : null)}
          />
        </Space>
      )}

      <div>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          开票项目{editable && !request.items ? `（请补全商品和${TERMS.amount}）` : ''}
        </Typography.Title>
        {editable ? (
          <ItemsEditor rows={rows} onChange={setRows} />
        ) : (
          <Typography.Text>
            {(request.items ?? []).map((it) => `${it.name} ¥${money(it.amount_with_tax)}`).join('；') || '—'}
          </Typography.Text>
        )}
      </div>
      {editable && (
        <Input
          addonBefore={`发票${TERMS.remark}`}
          maxLength={200}
          value={remark}
          onChange={(e) => setRemark(e.target.value)}
        />
      )}
      {actionable && (
        <Space>
          <Button type="primary" loading={busy} onClick={() => void submit()}>
            {request.status === 'failed' ? '重新开票' : '审核通过并开票'}
          </Button>
          <Button danger disabled={busy} onClick={() => askReject(request, onDone)}>
            拒绝
          </Button>
        </Space>
      )}
    </Space>
  );
}
