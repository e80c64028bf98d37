import { TERMS } from '@kaipiao/shared/glossary/terms';
import {
  type GoodsBody,
  type GoodsItem,
  goodsBodySchema,
  type TaxClassCode,
} from '@kaipiao/shared/schemas/goods';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, Form, Input, Modal, Row, Select, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { alertError, toastSuccess } from '../../../lib/antd/feedback.ts';
import { zodRules } from '../../../lib/antd-rules.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { createGoods, taxRatesQuery, updateGoods } from '../api/goods.ts';
import { parseRateKey, rateKey } from '../utils/goods-rules.ts';
import { TaxClassSelect } from './tax-class-select.tsx';

export type GoodsVariant = 'general' | 'hotel';

type Values = {
  name: string;
  tax_class_code?: string;
  spec?: string;
  unit?: string;
  price?: string;
  price_includes_tax: boolean;
  rate_key?: string;
  preferential_code?: string;
  is_default: boolean;
};

type ClassRef = Pick<TaxClassCode, 'code' | 'name' | 'short_name'>;

/** Hotel quick picks (domain.md §6.2: 住宿服务 + 餐饮服务; meeting rooms are 会议展览服务). */
const HOTEL_PICKS: readonly (ClassRef & { unit: string })[] = [
  { code: '3070402000000000000', name: '住宿服务', short_name: '住宿服务', unit: '间/天' },
  { code: '3070401000000000000', name: '餐饮服务', short_name: '餐饮服务', unit: '次' },
  { code: '3040304000000000000', name: '会议展览服务', short_name: '会展服务', unit: '场' },
];

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null = new item */
  editing: GoodsItem | null;
  variant: GoodsVariant;
  onSaved: (item: GoodsItem) => void;
};

/**
 * The request the form's values make (what submit sends). `zeroPolicy` is the 优惠政策 of the chosen
 * 0% option (免税 03, 不征税 04), known once the code's rates are loaded.
 */
function bodyOf(values: Partial<Values>, zeroPolicy = ''): GoodsBody {
  const { value, zeroRateFlag } = parseRateKey(values.rate_key ?? '');
  return {
    name: (values.name ?? '').trim(),
    tax_class_code: values.tax_class_code ?? '',
    spec: values.spec?.trim() ?? '',
    unit: values.unit?.trim() ?? '',
    price: values.price?.trim() ? values.price.trim() : null,
    price_includes_tax: values.price_includes_tax ?? true,
    tax_rate: value,
    preferential_code: value === '0' ? zeroPolicy : (values.preferential_code ?? ''),
    zero_rate_flag: value === '0' ? (zeroRateFlag as '1' | '2' | '3') : '',
    is_default: values.is_default ?? false,
  };
}

/**
 * The server's own goods schema checks each field, on the request the values make (same messages);
 * the rate select answers for `tax_rate`.
 */
const rule = zodRules(goodsBodySchema, (values: Partial<Values>) => bodyOf(values));

function initialValues(editing: GoodsItem | null, variant: GoodsVariant): Values {
  if (editing) {
    return {
      name: editing.name,
      tax_class_code: editing.tax_class_code,
      spec: editing.spec,
      unit: editing.unit,
      price: editing.price ?? '',
      price_includes_tax: editing.price_includes_tax,
      rate_key: rateKey(editing.tax_rate, editing.zero_rate_flag),
      preferential_code: editing.tax_rate === '0' ? '' : editing.preferential_code,
      is_default: editing.is_default,
    };
  }
  const hotel = variant === 'hotel' ? HOTEL_PICKS[0] : undefined;
  return {
    name: '',
    tax_class_code: hotel?.code,
    unit: hotel?.unit ?? '',
    spec: '',
    price: '',
    price_includes_tax: true,
    is_default: false,
  };
}

/** Create / edit a goods item: classification code → its 简称 and the rates this business may use. */
export function GoodsFormModal({ open, onOpenChange, editing, variant, onSaved }: Props) {
  const [form] = Form.useForm<Values>();
  const [taxClass, setTaxClass] = useState<ClassRef | null>(null);
  const [saving, setSaving] = useState(false);
  const code = Form.useWatch('tax_class_code', form) ?? '';
  const name = Form.useWatch('name', form) ?? '';
  const selectedRate = Form.useWatch('rate_key', form) ?? '';
  const { data: rates, isFetching: ratesLoading } = useQuery({
    ...taxRatesQuery(code),
    enabled: open && /^\d{19}$/.test(code),
  });

  // the form is made anew each time the dialog opens (destroyOnHidden, clearOnDestroy): its
  // initial values are the edited item's or a new item's
  useEffect(() => {
    if (!open) return;
    setTaxClass(
      editing
        ? { code: editing.tax_class_code, name: editing.tax_class_name, short_name: editing.short_name }
        : variant === 'hotel'
          ? HOTEL_PICKS[0]!
          : null,
    );
  }, [open, editing, variant]);

  // keep the chosen rate only if the code admits it; otherwise preselect the default (also when the
  // dialog opens again on a code whose rates are cached: the same answer, a new form)
  useEffect(() => {
    if (!rates || !open) return;
    const keys = rates.rates.map((r) => rateKey(r.value, r.zero_rate_flag));
    const current = form.getFieldValue('rate_key') as string | undefined;
    if (current && keys.includes(current)) return;
    const def =
      rates.rates.find((r) => r.value === rates.default_rate && !r.zero_rate_flag) ?? rates.rates[0];
    form.setFieldValue('rate_key', def ? rateKey(def.value, def.zero_rate_flag) : undefined);
  }, [rates, form, open]);

  const rateOptions = (rates?.rates ?? []).map((r) => ({
    value: rateKey(r.value, r.zero_rate_flag),
    label: r.needs_reason ? `${r.label}（需说明原因）` : r.label,
  }));
  const isZero = parseRateKey(selectedRate).value === '0';
  const policyOptions = (rates?.preferential_options ?? [])
    .filter((p) => p.code !== '03' && p.code !== '04')
    .map((p) => ({ value: p.code, label: `${p.code} ${p.label}` }));

  async function submit(values: Values): Promise<boolean> {
    const { zeroRateFlag } = parseRateKey(values.rate_key ?? '');
    const zeroOption = rates?.rates.find((r) => r.value === '0' && r.zero_rate_flag === zeroRateFlag);
    const body = bodyOf(values, zeroOption?.preferential_code ?? '');
    try {
      const saved = editing ? await updateGoods(editing.id, body) : await createGoods(body);
      toastSuccess(editing ? '商品已保存' : '商品已新增');
      onSaved(saved);
      return true;
    } catch (error) {
      const errors = isApiError(error)
        ? (error.data as { errors?: { field: string; message: string }[] })?.errors
        : null;
      if (errors?.length) {
        form.setFields(
          errors.map((e) => ({
            name: (e.field === 'tax_rate' || e.field === 'zero_rate_flag'
              ? 'rate_key'
              : e.field) as keyof Values,
            errors: [e.message],
          })),
        );
      } else {
        alertError('提示', error instanceof Error ? error.message : String(error));
      }
      return false;
    }
  }

  async function finish(values: Values) {
    setSaving(true);
    try {
      if (await submit(values)) onOpenChange(false);
    } finally {
      setSaving(false);
    }
  }

  const shortName = taxClass?.short_name;

  return (
    <Modal
      title={editing ? '编辑商品' : '新增商品'}
      open={open}
      width={760}
      destroyOnHidden
      maskClosable={false}
      onCancel={() => onOpenChange(false)}
      footer={[
        <Button key="cancel" onClick={() => onOpenChange(false)}>
          取消
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => form.submit()}>
          保存
        </Button>,
      ]}
    >
      <Form<Values>
        form={form}
        name="goods-form"
        layout="vertical"
        initialValues={initialValues(editing, variant)}
        clearOnDestroy
        onFinish={finish}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="name" label={TERMS.itemName} required rules={rule('name')}>
              <Input placeholder="如：软件开发服务、住宿费" allowClear />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="tax_class_code"
              label={TERMS.taxClassCode}
              required
              rules={rule('tax_class_code')}
              extra={
                variant === 'hotel' ? (
                  <Space size={4} wrap>
                    <Typography.Text type="secondary">酒店常用：</Typography.Text>
                    {HOTEL_PICKS.map((p) => (
                      <Button
                        key={p.code}
                        size="small"
                        type="link"
                        onClick={() => {
                          form.setFieldsValue({
                            tax_class_code: p.code,
                            unit: form.getFieldValue('unit') || p.unit,
                          });
                          setTaxClass(p);
                        }}
                      >
                        {p.name}
                      </Button>
                    ))}
                  </Space>
                ) : undefined
              }
            >
              <TaxClassSelect initial={taxClass} onChange={(_c, item) => setTaxClass(item ?? null)} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              message={
                shortName ? (
                  <span>
                    {TERMS.shortName}：<b>{shortName}</b>　发票显示为：
                    <b>{`*${shortName}*${name.trim() || TERMS.itemName}`}</b>
                  </span>
                ) : (
                  `选择${TERMS.taxClassCode}后，发票上的${TERMS.itemName}显示为“*${TERMS.shortName}*${TERMS.itemName}”`
                )
              }
            />
          </Col>
          <Col span={12}>
            <Form.Item name="spec" label={TERMS.spec} rules={rule('spec')}>
              <Input placeholder="请输入" allowClear />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="unit" label={TERMS.unit} rules={rule('unit')}>
              <Input placeholder="如：项、次、间/天" allowClear />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="price" label={TERMS.unitPrice} rules={rule('price')}>
              <Input placeholder="可不填，开票时填写" allowClear />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="price_includes_tax" label={`${TERMS.unitPrice}含税`} valuePropName="checked">
              <Switch checkedChildren="含税" unCheckedChildren="不含税" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="rate_key"
              label={TERMS.taxRate}
              required
              rules={rule('tax_rate')}
              extra={
                rates?.taxpayer_type === 'small'
                  ? `小规模纳税人：${rates.reduced_rate_end} 前减按1%征收`
                  : undefined
              }
            >
              <Select
                placeholder={code ? `请选择${TERMS.taxRate}` : `请先选择${TERMS.taxClassCode}`}
                allowClear
                options={rateOptions}
                loading={ratesLoading}
                notFoundContent={`请先选择${TERMS.taxClassCode}`}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="preferential_code" label="优惠政策">
              <Select
                placeholder={isZero ? `0${TERMS.taxRate}已按所选免税/不征税设置` : '不使用'}
                disabled={isZero || policyOptions.length === 0}
                allowClear
                options={policyOptions}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="is_default"
              label="设为默认商品"
              tooltip="开票页新增项目行时默认带出该商品"
              valuePropName="checked"
            >
              <Switch />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
