import { TERMS } from '@kaipiao/shared/glossary/terms';
import { STOCK_KINDS, type StockMovement } from '@kaipiao/shared/schemas/devices';
import { beijingDateTimeMinutes } from '@kaipiao/shared/time/beijing';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, InputNumber, Radio, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { FormSelect } from '../../../lib/antd/form-select.tsx';
import { scopedKey } from '../../../lib/query-scope.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { applyStock, devicesQuery, movementsQuery, moveStock } from '../api/devices.ts';
import { typeName } from './common.tsx';

function Movements({ kinds }: { kinds: Array<keyof typeof STOCK_KINDS> }) {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const q = useQuery(movementsQuery(clientId));
  const columns: TableColumnsType<StockMovement> = [
    {
      title: '时间',
      dataIndex: 'created_at',
      width: 150,
      render: (v: string) => beijingDateTimeMinutes(v),
    },
    {
      title: '类型',
      dataIndex: 'kind',
      width: 70,
      render: (v: keyof typeof STOCK_KINDS) => (
        <Tag color={v === 'return' ? 'orange' : 'blue'}>{STOCK_KINDS[v]}</Tag>
      ),
    },
    {
      title: '设备',
      key: 'dev',
      render: (_, m) => (m.target_device_name ? `${m.device_name} → ${m.target_device_name}` : m.device_name),
    },
    { title: TERMS.invoiceKindShort, dataIndex: 'invoice_type', width: 160, render: typeName },
    { title: TERMS.quantity, dataIndex: 'count', width: 80, render: (v: number) => `${v}张` },
    {
      title: `${TERMS.invoiceCode} / 号段`,
      key: 'range',
      width: 260,
      render: (_, m) =>
        `${m.invoice_code} ${String(m.start_no ?? '').padStart(8, '0')}–${String(m.end_no ?? '').padStart(8, '0')}`,
    },
  ];
  return (
    <Table
      rowKey="id"
      size="small"
      loading={q.isLoading}
      columns={columns}
      dataSource={(q.data ?? []).filter((m) => kinds.includes(m.kind as keyof typeof STOCK_KINDS))}
      pagination={{ pageSize: 10 }}
      scroll={{ x: 760 }}
    />
  );
}

/** /invoice-manage/receive: 领票 onto a main disc through the sandbox bureau. */
export function ReceivePage() {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const devices = useQuery(devicesQuery(clientId));
  const qc = useQueryClient();
  const [form] = Form.useForm<{ device_id: number; invoice_type: string; count: number }>();
  const deviceId = Form.useWatch('device_id', form);
  const mains = (devices.data ?? []).filter(
    (d) => d.kind !== 'digital' && d.is_main && d.status === 'active',
  );
  const dev = mains.find((d) => d.device_id === deviceId);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const r = await applyStock(v);
      toastSuccess(`领票成功：${TERMS.invoiceCode} ${r.invoiceCode}，号码 ${r.startNo}–${r.endNo}`);
      await qc.invalidateQueries({ queryKey: scopedKey('devices', clientId) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title="发票领用" size="small">
        <Form form={form} layout="inline" initialValues={{ count: 100 }}>
          <Form.Item name="device_id" label="主盘" rules={[{ required: true, message: '请选择主盘' }]}>
            <FormSelect
              aria-label="主盘"
              style={{ width: 240 }}
              placeholder="选择领票设备"
              options={mains.map((d) => ({ value: d.device_id, label: d.name }))}
              onChange={() => form.setFieldValue('invoice_type', undefined)}
            />
          </Form.Item>
          <Form.Item
            name="invoice_type"
            label={TERMS.invoiceKindShort}
            rules={[{ required: true, message: `请选择${TERMS.invoiceKindShort}` }]}
          >
            <FormSelect
              aria-label={TERMS.invoiceKindShort}
              style={{ width: 200 }}
              options={(dev?.invoice_types ?? []).map((t) => ({
                value: t,
                label: `${typeName(t)}（余${dev?.stock[t] ?? 0}）`,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="count"
            label={TERMS.quantity}
            rules={[{ required: true, message: `请输入${TERMS.quantity}` }]}
          >
            <InputNumber aria-label={TERMS.quantity} min={1} max={1000} precision={0} addonAfter="张" />
          </Form.Item>
          <Button type="primary" loading={busy} onClick={submit}>
            申请领票
          </Button>
        </Form>
      </Card>
      <Card title="领票记录" size="small">
        <Movements kinds={['apply']} />
      </Card>
    </Space>
  );
}

/** /invoice-manage/dispense: 分发 main → branch and 退回 branch → main. */
export function DispensePage() {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const devices = useQuery(devicesQuery(clientId));
  const qc = useQueryClient();
  const [form] = Form.useForm<{
    kind: 'distribute' | 'return';
    main: number;
    branch: number;
    invoice_type: string;
    count: number;
  }>();
  const kind = Form.useWatch('kind', form) ?? 'distribute';
  const mainId = Form.useWatch('main', form);
  const branchId = Form.useWatch('branch', form);
  const all = (devices.data ?? []).filter((d) => d.kind !== 'digital' && d.status === 'active');
  const mains = all.filter((d) => d.is_main && all.some((b) => b.parent_id === d.device_id));
  const branches = all.filter((d) => d.parent_id === mainId);
  const main = all.find((d) => d.device_id === mainId);
  const branch = all.find((d) => d.device_id === branchId);
  const source = kind === 'distribute' ? main : branch;
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const body =
        v.kind === 'distribute'
          ? { device_id: v.main, target_device_id: v.branch, invoice_type: v.invoice_type, count: v.count }
          : { device_id: v.branch, target_device_id: v.main, invoice_type: v.invoice_type, count: v.count };
      await moveStock(v.kind, body);
      toastSuccess(v.kind === 'distribute' ? '分发成功' : '退回成功');
      await qc.invalidateQueries({ queryKey: scopedKey('devices', clientId) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title="发票分发" size="small">
        <Form
          form={form}
          layout="vertical"
          style={{ maxWidth: 520 }}
          initialValues={{ kind: 'distribute', count: 10 }}
        >
          <Form.Item name="kind" label="操作">
            <Radio.Group
              optionType="button"
              options={[
                { value: 'distribute', label: '分发（主盘→分盘）' },
                { value: 'return', label: '退回（分盘→主盘）' },
              ]}
            />
          </Form.Item>
          <Form.Item name="main" label="主盘" rules={[{ required: true, message: '请选择主盘' }]}>
            <FormSelect
              aria-label="主盘"
              options={mains.map((d) => ({ value: d.device_id, label: d.name }))}
              onChange={() => form.setFieldsValue({ branch: undefined, invoice_type: undefined })}
            />
          </Form.Item>
          <Form.Item name="branch" label="分盘" rules={[{ required: true, message: '请选择分盘' }]}>
            <FormSelect
              aria-label="分盘"
              options={branches.map((d) => ({
                value: d.device_id,
                label: `${d.name}（分机号${d.extension_no}）`,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="invoice_type"
            label={TERMS.invoiceKindShort}
            rules={[{ required: true, message: `请选择${TERMS.invoiceKindShort}` }]}
          >
            <FormSelect
              aria-label={TERMS.invoiceKindShort}
              options={(main?.invoice_types ?? []).map((t) => ({
                value: t,
                label: `${typeName(t)}（主盘余${main?.stock[t] ?? 0}，分盘余${branch?.stock[t] ?? 0}）`,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="count"
            label={`${TERMS.quantity}${source ? '' : ''}`}
            rules={[{ required: true, message: `请输入${TERMS.quantity}` }]}
          >
            <InputNumber
              aria-label={TERMS.quantity}
              min={1}
              max={100000}
              precision={0}
              addonAfter="张"
              style={{ width: 200 }}
            />
          </Form.Item>
          <Button type="primary" loading={busy} onClick={submit}>
            {kind === 'distribute' ? '确认分发' : '确认退回'}
          </Button>
        </Form>
      </Card>
      <Card title="分发 / 退回记录" size="small">
        <Movements kinds={['distribute', 'return']} />
      </Card>
    </Space>
  );
}
