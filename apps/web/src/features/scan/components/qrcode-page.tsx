import { PlusOutlined } from '@ant-design/icons';
import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { INVOICE_TYPES, type InvoiceType } from '@kaipiao/shared/schemas/invoice';
import { SCAN_MODES, type ScanSettings } from '@kaipiao/shared/schemas/scan';
import { MSG } from '@kaipiao/shared/validation/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { taxEquipmentQuery } from '../../../api/equipment.ts';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { codesQuery, createCounter, disableCode, saveSettings, settingsQuery } from '../api/scan.ts';
import { OrderCodes } from './order-codes.tsx';
import { QrCard } from './qr-card.tsx';

type SettingsForm = {
  mode: ScanSettings['mode'];
  device_id: number | null;
  invoice_type: string;
  valid_hours: number;
};

export function SwitchStoreNotice({ path }: { path: string }) {
  const navigate = useNavigate();
  return (
    <Alert
      type="info"
      showIcon
      message="请先切换到具体门店"
      description={MSG.SUMMARY_GUIDE}
      action={
        <Button
          type="primary"
          onClick={() => navigate(`/user/switch-store?redirect=${encodeURIComponent(path)}`)}
        >
          切换门店
        </Button>
      }
    />
  );
}

function SettingsCard({ storeId }: { storeId: number }) {
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQuery(storeId));
  const devices = useQuery(taxEquipmentQuery(storeId));
  const [form] = Form.useForm<SettingsForm>();
  const [saving, setSaving] = useState(false);
  const deviceId = Form.useWatch('device_id', form);

  useEffect(() => {
    const s = settings.data;
    if (s) {
      form.setFieldsValue({
        mode: s.mode,
        device_id: s.device_id,
        invoice_type: s.invoice_type,
        valid_hours: s.default_valid_minutes / 60,
      });
    }
  }, [settings.data, form]);

  const kinds = (() => {
    const list = devices.data ?? [];
    const pool = deviceId ? list.filter((d) => d.device_id === deviceId) : list;
    const codes = new Set(pool.flatMap((d) => d.invoice_types.map((t) => t.code)));
    return [...codes].map((c) => ({ value: c, label: INVOICE_TYPES[c as InvoiceType] ?? c }));
  })();

  async function save(v: SettingsForm) {
    setSaving(true);
    try {
      await saveSettings({
        mode: v.mode,
        device_id: v.device_id ?? null,
        invoice_type: v.invoice_type,
        default_valid_minutes: Math.round(v.valid_hours * 60),
      });
      toastSuccess('扫码开票设置已保存');
      void queryClient.invalidateQueries({ queryKey: scopedKey('scan', 'settings') });
    } catch {
      // shown by the API client
    } finally {
      setSaving(false);
    }
  }

  if (settings.isLoading) return <Skeleton active />;
  return (
    <Form<SettingsForm> form={form} layout="inline" onFinish={(v) => void save(v)} style={{ rowGap: 12 }}>
      <Form.Item
        name="mode"
        label="开票方式"
        tooltip="门店码、收银台码的申请没有商品金额，总是进入开票审核由店员补全后开票"
      >
        <Radio.Group
          optionType="button"
          options={Object.entries(SCAN_MODES).map(([value, label]) => ({ value, label }))}
        />
      </Form.Item>
      <Form.Item name="device_id" label="开票设备">
        <Select
          allowClear
          placeholder="自动选择"
          style={{ width: 200 }}
          loading={devices.isLoading}
          options={(devices.data ?? []).map((d) => ({
            value: d.device_id,
            label: `${d.name}（${d.kind_name}）`,
          }))}
          onChange={() => form.setFieldValue('invoice_type', undefined)}
        />
      </Form.Item>
      <Form.Item name="invoice_type" label="票种" rules={[{ required: true, message: '请选择票种' }]}>
        <Select style={{ width: 220 }} options={kinds} placeholder="请选择票种" />
      </Form.Item>
      <Form.Item
        name="valid_hours"
        label="订单码有效期（小时）"
        rules={[{ required: true, message: '请输入有效期' }]}
      >
        <InputNumber min={0.1} max={720} style={{ width: 100 }} />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" loading={saving}>
          保存设置
        </Button>
      </Form.Item>
    </Form>
  );
}

function StaticCodes({ storeId, sellerName }: { storeId: number; sellerName: string }) {
  const queryClient = useQueryClient();
  const codes = useQuery(codesQuery(storeId, 'static', 1, 30));
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: scopedKey('scan', 'codes') });

  return (
    <Card
      variant="borderless"
      title="门店码 / 收银台码（静态码）"
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          新增收银台码
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        静态码可打印成桌牌、贴在收银台，长期有效。顾客扫码填写抬头后，申请进入开票审核，由店员补全商品和金额后开票。
      </Typography.Paragraph>
      {codes.isLoading ? (
        <Skeleton active />
      ) : (
        <Row gutter={[16, 24]}>
          {(codes.data?.list ?? []).map((c) => (
            <Col key={c.id} xs={24} sm={12} md={8} xl={6}>
              <QrCard
                code={c}
                sellerName={sellerName}
                extra={
                  c.kind === 'counter' && c.status === 'active' ? (
                    <Button
                      type="link"
                      size="small"
                      danger
                      onClick={() =>
                        Modal.confirm({
                          title: '停用收银台码',
                          content: `停用后顾客扫描“${c.name}”的二维码将无法申请开票，确定停用吗？`,
                          onOk: async () => {
                            await disableCode(c.id);
                            toastSuccess('已停用');
                            refresh();
                          },
                        })
                      }
                    >
                      停用
                    </Button>
                  ) : null
                }
              />
            </Col>
          ))}
        </Row>
      )}
      <Modal
        title="新增收银台码"
        open={adding}
        onCancel={() => setAdding(false)}
        okButtonProps={{ disabled: !name.trim() }}
        onOk={async () => {
          await createCounter(name.trim());
          toastSuccess('收银台码已生成');
          setAdding(false);
          setName('');
          refresh();
        }}
        destroyOnHidden
      >
        <Input
          placeholder="收银台名称，如：1号收银台"
          maxLength={30}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </Modal>
    </Card>
  );
}

/** spec §2 /invoice/qrcode (and the hotel variant) 扫码开票: settings, static codes, order codes. */
export function QrcodePage({ hotel, path }: { hotel: boolean; path: string }) {
  const store = useSessionStore((s) => s.store);
  const business = useSessionStore((s) => s.business);
  if (!store || store.client_store_id === SUMMARY_STORE_ID) {
    return (
      <Card variant="borderless">
        <SwitchStoreNotice path={path} />
      </Card>
    );
  }
  const storeId = store.client_store_id;
  const sellerName = business?.name ?? '';
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless" title={`扫码开票设置 · ${store.name}`}>
        <SettingsCard key={storeId} storeId={storeId} />
      </Card>
      <StaticCodes storeId={storeId} sellerName={sellerName} />
      <OrderCodes storeId={storeId} sellerName={sellerName} hotel={hotel} />
    </Space>
  );
}
