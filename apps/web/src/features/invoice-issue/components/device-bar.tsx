import {
  formatMoney,
  type SpecificBusinessCode,
  type SpecificBusinessDef,
  type TaxEquipment,
} from '@kaipiao/shared';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { Alert, Button, Col, Progress, Radio, Row, Segmented, Select, Space, Tag, Typography } from 'antd';
import { type Dispatch, memo } from 'react';
import { DeviceOption, DeviceValue } from '../../../components/device-label/device-label.tsx';
import { openDialog } from '../../../components/dialog-host/index.ts';
import { preferredKind } from '../hooks/use-devices.ts';
import type { DraftAction } from '../utils/draft.ts';
import { sameDraftParts } from '../utils/memo.ts';
import type { Draft } from '../utils/types.ts';
import { Field } from './field.tsx';

// Device and invoice kind (GET get-tax-equipment of the current store), price mode and 特定业务.

type Props = {
  draft: Draft;
  dispatch: Dispatch<DraftAction>;
  devices: readonly TaxEquipment[];
  loading: boolean;
  specific: readonly SpecificBusinessDef[];
  /** the hotel form issues no special-business blocks */
  allowSpecific: boolean;
};

function Quota({ device }: { device: TaxEquipment }) {
  if (device.monthly_quota === null) {
    const stock = Object.entries(device.stock ?? {});
    if (!stock.length) return null;
    return (
      <span>
        剩余库存：
        {stock.map(([code, n]) => (
          <Tag key={code} color={n < 10 ? 'orange' : undefined}>
            {device.invoice_types.find((t) => t.code === code)?.name ?? code} {n} 张
          </Tag>
        ))}
      </span>
    );
  }
  const total = Number(device.monthly_quota);
  const used = Number(device.quota_used);
  const percent = total > 0 ? Math.min(100, Math.round((used / total) * 100)) : 0;
  return (
    <Space size={8} align="center" wrap>
      <span style={{ whiteSpace: 'nowrap' }}>本月额度</span>
      <Progress
        aria-label="本月额度已用"
        percent={percent}
        size="small"
        style={{ width: 120, margin: 0 }}
        showInfo={false}
      />
      <span>
        已用 {formatMoney(device.quota_used, { symbol: true })} /{' '}
        {formatMoney(device.monthly_quota, { symbol: true })}
      </span>
    </Space>
  );
}

function DeviceBarImpl({ draft, dispatch, devices, loading, specific, allowSpecific }: Props) {
  const device = devices.find((d) => d.device_id === draft.device_id);
  const kinds = device?.invoice_types ?? [];
  const pick = (id: number) => {
    const next = devices.find((d) => d.device_id === id);
    const keep = next?.invoice_types.some((t) => t.code === draft.invoice_type);
    const type = keep ? draft.invoice_type : preferredKind(next);
    dispatch({ type: 'device', device_id: id, invoice_type: type });
  };
  return (
    <>
      {/* issue 24 item 1: the kinds get two thirds of the row at 1280 px, room for a tax-control
          device's four kinds on one line */}
      <Row gutter={16}>
        <Col xs={24} lg={8}>
          <Field path="device_id" label={TERMS.device} id="issue-device" required>
            <Select
              id="issue-device"
              loading={loading}
              placeholder={loading ? '正在加载设备…' : `请选择${TERMS.device}`}
              value={draft.device_id ?? undefined}
              onChange={pick}
              options={devices.map((d) => ({ value: d.device_id, label: <DeviceOption device={d} /> }))}
              labelRender={({ value, label }) => {
                const chosen = devices.find((d) => d.device_id === value);
                return chosen ? <DeviceValue device={chosen} /> : label;
              }}
              notFoundContent={`本${TERMS.store}没有可用的${TERMS.device}，请联系管理员在设备管理中分配`}
            />
          </Field>
        </Col>
        <Col xs={24} lg={16}>
          <Field path="invoice_type" label={TERMS.invoiceKind} required>
            <Radio.Group
              aria-label={TERMS.invoiceKind}
              optionType="button"
              buttonStyle="solid"
              value={draft.invoice_type ?? undefined}
              onChange={(e) => dispatch({ type: 'invoiceType', invoice_type: e.target.value })}
              options={kinds.map((k) => ({ value: k.code, label: k.name }))}
            />
            {!kinds.length && <Typography.Text type="secondary">请先选择{TERMS.device}</Typography.Text>}
          </Field>
        </Col>
        <Col xs={12} lg={4}>
          <Field path="invoice_info.price_includes_tax" label={`${TERMS.unitPrice}/${TERMS.amount}`}>
            <Segmented
              aria-label={`${TERMS.unitPrice}含税`}
              value={draft.price_includes_tax ? 'incl' : 'excl'}
              onChange={(v) => dispatch({ type: 'priceMode', inclusive: v === 'incl' })}
              options={[
                { value: 'incl', label: '含税' },
                { value: 'excl', label: '不含税' },
              ]}
            />
          </Field>
        </Col>
        {allowSpecific && (
          <Col xs={12} lg={4}>
            <Field path="invoice_info.specific_business_code" label="特定业务" id="issue-specific">
              <Select
                id="issue-specific"
                value={draft.specific_business_code ?? ''}
                onChange={(v: string) =>
                  dispatch({ type: 'specific', code: (v || null) as SpecificBusinessCode | null })
                }
                options={[
                  { value: '', label: '无' },
                  ...specific.map((s) => ({ value: s.code, label: s.name })),
                ]}
              />
            </Field>
          </Col>
        )}
      </Row>
      {device && (
        <Space size={24} wrap style={{ marginTop: -8 }}>
          <span>单张限额：{formatMoney(device.per_invoice_limit, { symbol: true })}（不含税）</span>
          <Quota device={device} />
          <Typography.Text type="secondary">设备号 {device.device_no}</Typography.Text>
          {device.kind === 'digital' && (
            <Button
              type="link"
              size="small"
              onClick={() => openDialog('real-name', { device_id: device.device_id })}
            >
              税局登录/实名认证
            </Button>
          )}
        </Space>
      )}
      {device && (!device.online || device.locked) && (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          message={
            device.locked ? '该设备已到锁死期，请先完成抄报清卡后再开票' : '该设备当前离线，暂不能开票'
          }
        />
      )}
    </>
  );
}

export const DeviceBar = memo(
  DeviceBarImpl,
  sameDraftParts(['device_id', 'invoice_type', 'price_includes_tax', 'specific_business_code']),
);
