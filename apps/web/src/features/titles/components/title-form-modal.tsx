import { BUYER_TYPE_OPTIONS, TERMS } from '@kaipiao/shared/glossary/terms';
import { type TitleBody, type TitleItem, titleBodySchema } from '@kaipiao/shared/schemas/titles';
import { Button, Col, Form, Input, Modal, Radio, Row } from 'antd';
import { useState } from 'react';
import { alertError, toastSuccess } from '../../../lib/antd/feedback.ts';
import { zodRules } from '../../../lib/antd-rules.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { createTitle, updateTitle } from '../api/titles.ts';

type Values = {
  title_type: 1 | 2;
  name: string;
  tax_code?: string;
  address?: string;
  phone?: string;
  bank_name?: string;
  bank_account?: string;
  email?: string;
  mobile?: string;
};

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null = new title */
  editing: TitleItem | null;
  onSaved: (item: TitleItem) => void;
};

const EMPTY: Values = { title_type: 2, name: '' };

/** the server's own title schema checks each field (same messages, the natural-person name rule too) */
const rule = zodRules(titleBodySchema);

/** Create / edit a buyer title: enterprise titles need the tax code, personal ones do not. */
export function TitleFormModal({ open, onOpenChange, editing, onSaved }: Props) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const type = Form.useWatch('title_type', form) ?? 2;

  async function submit(values: Values): Promise<boolean> {
    const trim = (v?: string) => v?.trim() ?? '';
    const body: TitleBody = {
      title_type: values.title_type,
      name: trim(values.name),
      tax_code: trim(values.tax_code).toUpperCase(),
      address: trim(values.address),
      phone: trim(values.phone),
      bank_name: trim(values.bank_name),
      bank_account: trim(values.bank_account),
      email: trim(values.email),
      mobile: trim(values.mobile),
    };
    try {
      const saved = editing ? await updateTitle(editing.id, body) : await createTitle(body);
      toastSuccess(editing ? '抬头已保存' : '抬头已新增');
      onSaved(saved);
      return true;
    } catch (error) {
      const errors = isApiError(error)
        ? (error.data as { errors?: { field: string; message: string }[] })?.errors
        : null;
      if (errors?.length)
        form.setFields(errors.map((e) => ({ name: e.field as keyof Values, errors: [e.message] })));
      else alertError('提示', error instanceof Error ? error.message : String(error));
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

  const text = (name: keyof Values, label: string, placeholder = '请输入') => (
    <Col span={12}>
      <Form.Item name={name} label={label} rules={rule(name)}>
        <Input placeholder={placeholder} allowClear />
      </Form.Item>
    </Col>
  );

  return (
    <Modal
      title={editing ? '编辑抬头' : '新增抬头'}
      open={open}
      width={720}
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
      {/* made anew each time the dialog opens (destroyOnHidden, clearOnDestroy) */}
      <Form<Values>
        form={form}
        name="title-form"
        layout="vertical"
        initialValues={editing ? { ...editing, title_type: editing.title_type as 1 | 2 } : EMPTY}
        clearOnDestroy
        onFinish={finish}
        onValuesChange={(changed) => {
          // the tax-code rule depends on the type
          if ('title_type' in changed) void form.validateFields(['tax_code']).catch(() => undefined);
        }}
      >
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item name="title_type" label={TERMS.buyerType} required rules={rule('title_type')}>
              <Radio.Group optionType="button" options={[...BUYER_TYPE_OPTIONS]} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="name" label={type === 2 ? '企业名称' : '名称'} required rules={rule('name')}>
              <Input placeholder={type === 2 ? '请输入企业全称' : '如：张三、某某大学'} allowClear />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="tax_code" label={TERMS.taxCode} rules={rule('tax_code')} required={type === 2}>
              <Input
                placeholder={type === 2 ? `统一社会信用代码或${TERMS.taxCode}` : '选填'}
                maxLength={20}
                style={{ textTransform: 'uppercase' }}
                allowClear
              />
            </Form.Item>
          </Col>
          {text('address', '地址')}
          {text('phone', '电话', '如：0571-88886666')}
          {text('bank_name', '开户银行')}
          {text('bank_account', '银行账号')}
          {text('email', '邮箱', '发票将发送到该邮箱')}
          {text('mobile', '手机号')}
        </Row>
      </Form>
    </Modal>
  );
}
