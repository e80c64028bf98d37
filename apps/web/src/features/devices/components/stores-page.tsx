import { TERMS } from '@kaipiao/shared/glossary/terms';
import { type StoreBody, type StoreItem, storeBodySchema } from '@kaipiao/shared/schemas/devices';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { zodRules } from '../../../lib/antd-rules.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { devicesQuery, saveStore, setStoreStatus, storesQuery } from '../api/devices.ts';
import { typeName } from './common.tsx';

/** the server's store schema checks each field (same messages) */
const rule = zodRules(storeBodySchema);

type Editing = { item: StoreItem | null } | null;

function StoreModal({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const devices = useQuery(devicesQuery(clientId));
  const qc = useQueryClient();
  const [form] = Form.useForm<StoreBody>();
  const [saving, setSaving] = useState(false);
  const item = editing?.item ?? null;
  const deviceIds = Form.useWatch('device_ids', form) ?? [];
  const kinds = [
    ...new Set(
      (devices.data ?? []).filter((d) => deviceIds.includes(d.device_id)).flatMap((d) => d.invoice_types),
    ),
  ];
  const submit = async () => {
    // a refused field shows its message under the field; nothing is sent
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      await saveStore({ ...v, client_store_id: item?.client_store_id, remark: v.remark ?? '' });
      toastSuccess('保存成功');
      await qc.invalidateQueries({ queryKey: scopedKey('devices', clientId) });
      onClose();
    } catch {
      // the API client has shown the server's message; the dialog stays open with what was typed
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={editing !== null}
      title={item ? `编辑${TERMS.store}` : `新增${TERMS.store}`}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={
          item
            ? {
                name: item.name,
                code: item.code,
                remark: item.remark,
                default_invoice_types: item.default_invoice_types,
                device_ids: item.devices.map((d) => d.device_id),
              }
            : { default_invoice_types: [], device_ids: [] }
        }
      >
        <Form.Item name="name" label={`${TERMS.store}名称`} required rules={rule('name')}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="code" label={`${TERMS.store}编号`} required rules={rule('code')}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="device_ids" label={TERMS.device}>
          <Select
            mode="multiple"
            placeholder={`选择${TERMS.store}使用的${TERMS.device}`}
            options={(devices.data ?? []).map((d) => ({
              value: d.device_id,
              label: `${d.name}（${d.kind_name}）`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="default_invoice_types"
          label={`默认${TERMS.invoiceKindShort}`}
          extra={`开票员进入开票页时默认选中的${TERMS.invoiceKindShort}`}
        >
          <Select mode="multiple" options={kinds.map((k) => ({ value: k, label: typeName(k) }))} />
        </Form.Item>
        <Form.Item name="remark" label={TERMS.remark} rules={rule('remark')}>
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /group/client-store and /hotel/group/client-store: stores, their devices and default kinds. Every
 * row action acts on the row's store (issue 24): 编辑 and 停用/启用 by its id, 扫码开票设置 in
 * `scanSettings` (the scan feature's dialog, composed by the route module) given the row's store.
 */
export function StoresPage({
  scanSettings,
}: {
  scanSettings?: (store: StoreItem | null, onClose: () => void) => ReactNode;
}) {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const q = useQuery(storesQuery(clientId));
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  const [scanStore, setScanStore] = useState<StoreItem | null>(null);
  const toggle = async (s: StoreItem) => {
    const next = s.status === 'active' ? 'disabled' : 'active';
    await setStoreStatus(s.client_store_id, next);
    toastSuccess(next === 'active' ? '已启用' : '已停用');
    // not awaited: the confirmation closes once the status is set, before its question (which
    // follows the status) would flip to the opposite one while the lists reload
    void qc.invalidateQueries({ queryKey: scopedKey('devices', clientId) });
  };
  const columns: TableColumnsType<StoreItem> = [
    { title: `${TERMS.store}名称`, dataIndex: 'name', width: 130 },
    { title: `${TERMS.store}编号`, dataIndex: 'code', width: 110 },
    {
      title: TERMS.device,
      key: 'devices',
      render: (_, s) => (
        <Space size={4} wrap>
          {s.devices.length === 0 ? '—' : s.devices.map((d) => <Tag key={d.device_id}>{d.name}</Tag>)}
        </Space>
      ),
    },
    {
      title: `默认${TERMS.invoiceKindShort}`,
      key: 'kinds',
      width: 200,
      render: (_, s) => s.default_invoice_types.map(typeName).join('、') || '—',
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 80,
      render: (v: string) => (v === 'active' ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
    },
    {
      title: '操作',
      key: 'op',
      width: 220,
      render: (_, s) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing({ item: s })}>
            编辑
          </Button>
          {scanSettings && (
            <Button type="link" size="small" onClick={() => setScanStore(s)}>
              扫码开票设置
            </Button>
          )}
          <Popconfirm
            title={
              s.status === 'active'
                ? `停用后该${TERMS.store}不能再开票，确定停用？`
                : `确定启用该${TERMS.store}？`
            }
            onConfirm={() => toggle(s)}
          >
            <Button type="link" size="small" danger={s.status === 'active'}>
              {s.status === 'active' ? '停用' : '启用'}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={`${TERMS.store}管理`}
      size="small"
      extra={
        <Button type="primary" onClick={() => setEditing({ item: null })}>
          新增{TERMS.store}
        </Button>
      }
    >
      <Table
        rowKey="client_store_id"
        size="small"
        loading={q.isLoading}
        columns={columns}
        dataSource={q.data ?? []}
        pagination={false}
        scroll={{ x: 760 }}
      />
      <StoreModal
        key={editing?.item?.client_store_id ?? 'new'}
        editing={editing}
        onClose={() => setEditing(null)}
      />
      {scanSettings?.(scanStore, () => setScanStore(null))}
    </Card>
  );
}
