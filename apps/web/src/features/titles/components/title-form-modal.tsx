import { ModalForm, ProFormRadio, ProFormText } from '@ant-design/pro-components';
import { BUYER_TYPE_OPTIONS } from '@kaipiao/shared/glossary/terms';
import { type TitleBody, type TitleItem, titleBodySchema } from '@kaipiao/shared/schemas/titles';
import { Form } from 'antd';
import { useEffect } from 'react';
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
  const type = Form.useWatch('title_type', form) ?? 2;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(editing ? { ...editing, title_type: editing.title_type as 1 | 2 } : EMPTY);
  }, [open, editing, form]);

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

  return (
    <ModalForm<Values>
      title={editing ? '编辑抬头' : '新增抬头'}
      open={open}
      onOpenChange={onOpenChange}
      form={form}
      width={720}
      layout="vertical"
      grid
      rowProps={{ gutter: 16 }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '保存', resetText: '取消' } }}
      onFinish={submit}
      onValuesChange={(changed) => {
        // the tax-code rule depends on the type
        if ('title_type' in changed) void form.validateFields(['tax_code']).catch(() => undefined);
      }}
    >
      <ProFormRadio.Group
        name="title_type"
        label="抬头类型"
        required
        rules={rule('title_type')}
        radioType="button"
        options={[...BUYER_TYPE_OPTIONS]}
        colProps={{ span: 24 }}
      />
      <ProFormText
        name="name"
        label={type === 2 ? '企业名称' : '名称'}
        placeholder={type === 2 ? '请输入企业全称' : '如：张三、某某大学'}
        required
        rules={rule('name')}
        colProps={{ span: 12 }}
      />
      <ProFormText
        name="tax_code"
        label="纳税人识别号"
        placeholder={type === 2 ? '统一社会信用代码或纳税人识别号' : '选填'}
        rules={rule('tax_code')}
        required={type === 2}
        fieldProps={{ maxLength: 20, style: { textTransform: 'uppercase' } }}
        colProps={{ span: 12 }}
      />
      <ProFormText name="address" label="地址" rules={rule('address')} colProps={{ span: 12 }} />
      <ProFormText
        name="phone"
        label="电话"
        placeholder="如：0571-88886666"
        rules={rule('phone')}
        colProps={{ span: 12 }}
      />
      <ProFormText name="bank_name" label="开户银行" rules={rule('bank_name')} colProps={{ span: 12 }} />
      <ProFormText
        name="bank_account"
        label="银行账号"
        rules={rule('bank_account')}
        colProps={{ span: 12 }}
      />
      <ProFormText
        name="email"
        label="邮箱"
        placeholder="发票将发送到该邮箱"
        rules={rule('email')}
        colProps={{ span: 12 }}
      />
      <ProFormText name="mobile" label="手机号" rules={rule('mobile')} colProps={{ span: 12 }} />
    </ModalForm>
  );
}
