import { TERMS } from '@kaipiao/shared/glossary/terms';
import { INVOICE_TYPES, type InvoiceType } from '@kaipiao/shared/schemas/invoice';
import { SCAN_MODES, type ScanSettings } from '@kaipiao/shared/schemas/scan';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, InputNumber, Radio, Select, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { taxEquipmentQuery } from '../../../api/equipment.ts';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { FormSelect } from '../../../lib/antd/form-select.tsx';
import { scopedKey } from '../../../lib/query-scope.ts';
import { saveSettings, settingsQuery } from '../api/scan.ts';

type SettingsForm = {
  mode: ScanSettings['mode'];
  device_id: number | null;
  invoice_type: string;
  valid_hours: number;
};

/**
 * One store's 扫码开票设置 (domain.md §8.1): read and saved for `storeId` itself, whichever store the
 * session has selected (the QR page passes the selected one, the store page a row's).
 */
export function ScanSettingsForm({
  storeId,
  layout = 'inline',
  onSaved,
}: {
  storeId: number;
  layout?: 'inline' | 'vertical';
  onSaved?: () => void;
}) {
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
      await saveSettings(storeId, {
        mode: v.mode,
        device_id: v.device_id ?? null,
        invoice_type: v.invoice_type,
        default_valid_minutes: Math.round(v.valid_hours * 60),
      });
      toastSuccess('扫码开票设置已保存');
      void queryClient.invalidateQueries({ queryKey: scopedKey('scan', 'settings') });
      onSaved?.();
    } catch {
      // shown by the API client
    } finally {
      setSaving(false);
    }
  }

  if (settings.isLoading) return <Skeleton active />;
  const inline = layout === 'inline';
  return (
    <Form<SettingsForm>
      form={form}
      layout={layout}
      onFinish={(v) => void save(v)}
      style={inline ? { rowGap: 12 } : undefined}
    >
      <Form.Item
        name="mode"
        label="开票方式"
        tooltip={`${TERMS.store}码、收银台码的申请没有商品${TERMS.amount}，总是进入开票审核由店员补全后开票`}
      >
        <Radio.Group
          optionType="button"
          options={Object.entries(SCAN_MODES).map(([value, label]) => ({ value, label }))}
        />
      </Form.Item>
      <Form.Item name="device_id" label={TERMS.device}>
        <Select
          allowClear
          placeholder="自动选择"
          style={{ width: inline ? 200 : '100%' }}
          loading={devices.isLoading}
          options={(devices.data ?? []).map((d) => ({
            value: d.device_id,
            label: `${d.name}（${d.kind_name}）`,
          }))}
          onChange={() => form.setFieldValue('invoice_type', undefined)}
        />
      </Form.Item>
      <Form.Item
        name="invoice_type"
        label={TERMS.invoiceKindShort}
        rules={[{ required: true, message: `请选择${TERMS.invoiceKindShort}` }]}
      >
        <FormSelect
          style={{ width: inline ? 220 : '100%' }}
          options={kinds}
          placeholder={`请选择${TERMS.invoiceKindShort}`}
        />
      </Form.Item>
      <Form.Item
        name="valid_hours"
        label="订单码有效期（小时）"
        rules={[{ required: true, message: '请输入有效期' }]}
      >
        <InputNumber min={0.1} max={720} style={{ width: inline ? 100 : 160 }} />
      </Form.Item>
      <Form.Item style={inline ? undefined : { marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" loading={saving}>
          保存设置
        </Button>
      </Form.Item>
    </Form>
  );
}
