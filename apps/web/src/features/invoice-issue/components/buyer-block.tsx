import { SearchOutlined } from '@ant-design/icons';
import { SPECIAL_INVOICE_TYPES } from '@kaipiao/shared';
import { BUYER_TYPE_OPTIONS, TERMS } from '@kaipiao/shared/glossary/terms';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Button, Checkbox, Col, Input, Radio, Row, Space, Typography } from 'antd';
import { type Dispatch, memo, useState } from 'react';
import { WhyDisabled } from '../../../components/why-disabled.tsx';
import { infoByTaxCode, type Title, titleSearchQuery } from '../api/titles.ts';
import { useDebounced } from '../hooks/use-debounced.ts';
import type { DraftAction } from '../utils/draft.ts';
import { sameDraftParts } from '../utils/memo.ts';
import type { Draft, DraftBuyer } from '../utils/types.ts';
import { Field } from './field.tsx';

// 购买方 (domain.md §1.5): enterprise or person, name with title autocomplete, tax code with lookup,
// address/phone/bank for the remark, e-mail and mobile for delivery.

type Props = { draft: Draft; dispatch: Dispatch<DraftAction> };

function fromTitle(t: Title): Partial<DraftBuyer> {
  return {
    title_type: t.title_type === 1 ? 1 : 2,
    name: t.name,
    tax_code: t.tax_code ?? '',
    address: t.address ?? '',
    phone: t.phone ?? '',
    bank_name: t.bank_name ?? '',
    bank_account: t.bank_account ?? '',
    email: t.email ?? '',
    mobile: t.mobile ?? '',
  };
}

function BuyerBlockImpl({ draft, dispatch }: Props) {
  const b = draft.buyer;
  const set = (patch: Partial<DraftBuyer>) => dispatch({ type: 'buyer', patch });
  const keyword = useDebounced(b.name.trim());
  const titles = useQuery(titleSearchQuery(keyword));
  const [looking, setLooking] = useState(false);
  const [lookupNote, setLookupNote] = useState('');
  const special = draft.invoice_type !== null && SPECIAL_INVOICE_TYPES.includes(draft.invoice_type);
  const personal = b.title_type === 1;

  async function lookup() {
    const code = b.tax_code.trim();
    if (!code) return;
    setLooking(true);
    setLookupNote('');
    try {
      const info = await infoByTaxCode(code);
      if (info?.title) {
        set({ ...fromTitle(info.title), tax_code: code });
        return;
      }
      if (!info?.name) {
        setLookupNote(`未查到该${TERMS.taxCode}的企业信息，请手动填写`);
        return;
      }
      set({ name: info.name, title_type: 2 });
    } catch {
      setLookupNote('查询失败，请手动填写');
    } finally {
      setLooking(false);
    }
  }

  const options = (titles.data ?? []).map((t) => ({
    value: `${t.id}`,
    label: (
      <Space direction="vertical" size={0}>
        <span>{t.name}</span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t.tax_code || (t.title_type === 1 ? '个人' : '')}
        </Typography.Text>
      </Space>
    ),
  }));

  return (
    <>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Field path="buyer.title_type" label={TERMS.buyerType}>
            <Radio.Group
              aria-label={TERMS.buyerType}
              value={b.title_type}
              onChange={(e) => set({ title_type: e.target.value })}
              options={[...BUYER_TYPE_OPTIONS]}
            />
          </Field>
        </Col>
        <Col xs={24} md={12} />
        <Col xs={24} md={12}>
          <Field
            path="buyer.name"
            label="名称"
            id="buyer-name"
            required
            warningAction={
              <Button type="link" size="small" onClick={() => set({ title_type: 1 })}>
                改为个人
              </Button>
            }
            extra={personal && b.name.trim() ? `将开具为“${b.name.trim()}（个人）”` : undefined}
          >
            <AutoComplete
              id="buyer-name"
              value={b.name}
              options={options}
              onChange={(v) => set({ name: v })}
              onSelect={(id: string) => {
                const t = titles.data?.find((x) => `${x.id}` === id);
                if (t) set(fromTitle(t));
              }}
              placeholder={personal ? '请输入个人姓名' : `输入名称搜索${TERMS.buyerTitle}`}
              maxLength={300}
            />
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field
            path="buyer.tax_code"
            label={TERMS.taxCode}
            id="buyer-tax-code"
            required={special || !personal}
            extra={lookupNote || (special ? `开具${TERMS.specialInvoice}时必填` : undefined)}
          >
            <Space.Compact style={{ width: '100%' }}>
              <Input
                id="buyer-tax-code"
                value={b.tax_code}
                onChange={(e) => set({ tax_code: e.target.value.toUpperCase().trim() })}
                placeholder={personal ? '个人可不填' : `统一社会信用代码/${TERMS.taxCode}`}
                maxLength={20}
              />
              <WhyDisabled reason={!b.tax_code.trim() && `请先填写${TERMS.taxCode}`}>
                <Button icon={<SearchOutlined />} loading={looking} onClick={lookup}>
                  查询
                </Button>
              </WhyDisabled>
            </Space.Compact>
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field path="buyer.address" label="地址" id="buyer-address">
            <Input
              id="buyer-address"
              value={b.address}
              onChange={(e) => set({ address: e.target.value })}
              maxLength={300}
            />
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field path="buyer.phone" label="电话" id="buyer-phone">
            <Input
              id="buyer-phone"
              value={b.phone}
              onChange={(e) => set({ phone: e.target.value.trim() })}
              maxLength={60}
            />
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field path="buyer.bank_name" label="开户银行" id="buyer-bank">
            <Input
              id="buyer-bank"
              value={b.bank_name}
              onChange={(e) => set({ bank_name: e.target.value })}
              maxLength={120}
            />
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field path="buyer.bank_account" label="银行账号" id="buyer-account">
            <Input
              id="buyer-account"
              value={b.bank_account}
              onChange={(e) => set({ bank_account: e.target.value.replace(/\s/g, '') })}
              maxLength={100}
            />
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field path="buyer.email" label="接收邮箱" id="buyer-email">
            <Input
              id="buyer-email"
              value={b.email}
              onChange={(e) => set({ email: e.target.value.trim() })}
              maxLength={100}
            />
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field path="buyer.mobile" label="接收手机号" id="buyer-mobile">
            <Input
              id="buyer-mobile"
              value={b.mobile}
              onChange={(e) => set({ mobile: e.target.value.trim() })}
              maxLength={11}
            />
          </Field>
        </Col>
      </Row>
      <WhyDisabled reason={!b.email.trim() && '请先填写接收邮箱'}>
        <Checkbox
          checked={draft.send_email && b.email.trim() !== ''}
          onChange={(e) => dispatch({ type: 'field', patch: { send_email: e.target.checked } })}
        >
          开具后发送发票到接收邮箱
        </Checkbox>
      </WhyDisabled>
    </>
  );
}

export const BuyerBlock = memo(BuyerBlockImpl, sameDraftParts(['buyer', 'invoice_type', 'send_email']));
