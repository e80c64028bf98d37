import { TERMS } from '@kaipiao/shared/glossary/terms';
import {
  TAX_CHANNELS,
  TAX_IDENTITIES,
  type TaxAccountBody,
  type TaxAccountItem,
} from '@kaipiao/shared/schemas/devices';
import { beijingMonthDayMinutes } from '@kaipiao/shared/time/beijing';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Result,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { openDialog } from '../../../components/dialog-host/index.ts';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { accountsQuery, devicesQuery, disableAccount, saveAccount, whiteListQuery } from '../api/devices.ts';
import { LoginTag, RealNameTag } from './common.tsx';

type Editing = { item: TaxAccountItem | null } | null;

function AccountModal({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const devices = useQuery(devicesQuery(clientId));
  const qc = useQueryClient();
  const [form] = Form.useForm<TaxAccountBody>();
  const [saving, setSaving] = useState(false);
  const item = editing?.item ?? null;
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      await saveAccount({ ...v, id: item?.id, password: v.password ?? '', device_id: v.device_id ?? null });
      toastSuccess('保存成功');
      await qc.invalidateQueries({ queryKey: scopedKey('devices', clientId) });
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={editing !== null}
      title={item ? `编辑${TERMS.taxBureauAccount}` : `添加${TERMS.taxBureauAccount}`}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={saving}
      destroyOnHidden
      width={520}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={
          item
            ? {
                account: item.account,
                identity: item.identity,
                person_name: item.person_name,
                channel: item.channel,
                device_id: item.device_id,
                phone: '',
              }
            : { identity: '03', channel: 'GP900000' }
        }
      >
        <Form.Item
          name="account"
          label={TERMS.taxBureauAccount}
          rules={[{ required: true, message: `请输入${TERMS.taxBureauAccount}` }]}
        >
          <Input placeholder="统一社会信用代码/手机号/身份证号" maxLength={50} />
        </Form.Item>
        <Form.Item
          name="password"
          label="登录密码"
          extra={item ? '不修改请留空；密码加密保存，不会再显示' : '密码加密保存，不会再显示'}
          rules={item ? [] : [{ required: true, message: `请输入${TERMS.taxBureauAccount}密码` }]}
        >
          <Input.Password autoComplete="new-password" maxLength={64} />
        </Form.Item>
        <Form.Item
          name="phone"
          label="手机号"
          extra={item ? `当前：${item.phone}，不修改请留空` : undefined}
          rules={[
            { required: !item, message: '请输入手机号' },
            { pattern: /^1\d{10}$/, message: '请输入正确的手机号' },
          ]}
        >
          <Input maxLength={11} />
        </Form.Item>
        <Space.Compact block>
          <Form.Item
            name="person_name"
            label="姓名"
            style={{ width: '50%' }}
            rules={[{ required: true, message: '请输入姓名' }]}
          >
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="identity" label="身份" style={{ width: '50%' }} rules={[{ required: true }]}>
            <Select options={Object.entries(TAX_IDENTITIES).map(([value, label]) => ({ value, label }))} />
          </Form.Item>
        </Space.Compact>
        <Form.Item name="channel" label="通道" rules={[{ required: true }]}>
          <Select
            options={Object.entries(TAX_CHANNELS).map(([value, label]) => ({
              value,
              label: `${value} ${label}`,
            }))}
          />
        </Form.Item>
        <Form.Item name="device_id" label={TERMS.digitalAccount}>
          <Select
            allowClear
            placeholder={`选择该账号登录的${TERMS.digitalAccount}`}
            options={(devices.data ?? [])
              .filter((d) => d.kind === 'digital')
              .map((d) => ({ value: d.device_id, label: d.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** /device-project/account: 电子税务局 accounts, only for businesses with a white-listed account (spec §6). */
export function AccountsPage() {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const wl = useQuery(whiteListQuery(clientId));
  const allowed = wl.data?.white_listed === true;
  const q = useQuery(accountsQuery(clientId, allowed));
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  if (wl.data && !allowed) {
    return (
      <Result
        status="403"
        title="暂无权限"
        subTitle={`当前企业没有白名单${TERMS.taxBureauAccount}，无法管理${TERMS.taxBureauAccount}`}
      />
    );
  }
  const columns: TableColumnsType<TaxAccountItem> = [
    {
      title: TERMS.taxBureauAccount,
      key: 'account',
      render: (_, a) => (
        <Space direction="vertical" size={0}>
          <Space size={4}>
            <Typography.Text strong>{a.account}</Typography.Text>
            {a.white_listed && <Tag color="purple">白名单</Tag>}
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {a.channel} · {a.device_name || `未绑定${TERMS.digitalAccount}`}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: '办税人',
      key: 'person',
      width: 160,
      render: (_, a) =>
        `${a.person_name}（${TAX_IDENTITIES[a.identity as keyof typeof TAX_IDENTITIES] ?? a.identity}）`,
    },
    { title: '手机号', dataIndex: 'phone', width: 120 },
    { title: '登录状态', dataIndex: 'login_state', width: 90, render: (v: string) => <LoginTag state={v} /> },
    {
      title: '实名状态',
      dataIndex: 'real_name_state',
      width: 100,
      render: (v: string) => <RealNameTag state={v} />,
    },
    {
      title: '会话到期',
      dataIndex: 'session_expires_at',
      width: 130,
      render: (v: string | null) => (v ? beijingMonthDayMinutes(v) : '—'),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 70,
      render: (v: string) => (v === 'active' ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
    },
    {
      title: '操作',
      key: 'op',
      width: 200,
      render: (_, a) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing({ item: a })}>
            编辑
          </Button>
          {a.device_id !== null && a.status === 'active' && (
            <Button
              type="link"
              size="small"
              onClick={() => openDialog('real-name', { device_id: a.device_id! })}
            >
              实名认证
            </Button>
          )}
          {a.status === 'active' && (
            <Popconfirm
              title="停用后该账号不能再用于开票，确定停用？"
              onConfirm={async () => {
                await disableAccount(a.id);
                toastSuccess('已停用');
                await qc.invalidateQueries({ queryKey: scopedKey('devices', clientId) });
              }}
            >
              <Button type="link" size="small" danger>
                停用
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={TERMS.taxBureauAccount}
      size="small"
      extra={
        <Button type="primary" onClick={() => setEditing({ item: null })}>
          添加{TERMS.taxBureauAccount}
        </Button>
      }
    >
      <Table
        rowKey="id"
        size="small"
        loading={q.isLoading}
        columns={columns}
        dataSource={q.data ?? []}
        pagination={false}
        scroll={{ x: 900 }}
      />
      <AccountModal editing={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
