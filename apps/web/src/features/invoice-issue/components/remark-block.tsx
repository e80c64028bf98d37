import { TERMS } from '@kaipiao/shared/glossary/terms';
import { Checkbox, Col, Input, Row } from 'antd';
import { type Dispatch, memo } from 'react';
import type { DraftAction } from '../utils/draft.ts';
import { sameDraftParts } from '../utils/memo.ts';
import type { Draft } from '../utils/types.ts';
import { Field } from './field.tsx';

// 备注 (≤ 450 on 数电 blue invoices), whether it prints the buyer's / seller's bank details (the
// bureau's 是否展示购买方/销售方银行账号; the boxes' labels avoid "备注" and "购买方", which other fields'
// labels are found by), and the people: 开票人 prints in the footer, 收款人/复核人 in the
// remark (domain.md §1.3, §1.4).

type Props = { draft: Draft; dispatch: Dispatch<DraftAction> };

export const REMARK_MAX = 450;

function RemarkBlockImpl({ draft, dispatch }: Props) {
  const set = (
    patch: Partial<
      Pick<Draft, 'remark' | 'drawer' | 'payee' | 'reviewer' | 'show_buyer_bank' | 'show_seller_bank'>
    >,
  ) => dispatch({ type: 'field', patch });
  return (
    <Row gutter={16}>
      <Col span={24}>
        <Field path="invoice_info.remark" label={TERMS.remark} id="issue-remark">
          <Input.TextArea
            id="issue-remark"
            value={draft.remark}
            onChange={(e) => set({ remark: e.target.value })}
            showCount
            maxLength={REMARK_MAX}
            autoSize={{ minRows: 2, maxRows: 6 }}
            placeholder={`选填，最多450个字符；${TERMS.payee}、${TERMS.reviewer}会自动附在${TERMS.remark}末尾`}
          />
        </Field>
      </Col>
      <Col span={24}>
        <Checkbox
          checked={draft.show_buyer_bank === true}
          onChange={(e) => set({ show_buyer_bank: e.target.checked })}
        >
          显示{TERMS.buyerShort}开户行及账号
        </Checkbox>
        <Checkbox
          checked={draft.show_seller_bank === true}
          onChange={(e) => set({ show_seller_bank: e.target.checked })}
        >
          显示{TERMS.sellerShort}开户行及账号
        </Checkbox>
      </Col>
      <Col xs={24} md={8}>
        <Field path="invoice_info.drawer" label={TERMS.drawer} id="issue-drawer">
          <Input
            id="issue-drawer"
            value={draft.drawer}
            maxLength={300}
            onChange={(e) => set({ drawer: e.target.value })}
          />
        </Field>
      </Col>
      <Col xs={24} md={8}>
        <Field path="invoice_info.payee" label={TERMS.payee} id="issue-payee">
          <Input
            id="issue-payee"
            value={draft.payee}
            maxLength={150}
            onChange={(e) => set({ payee: e.target.value })}
          />
        </Field>
      </Col>
      <Col xs={24} md={8}>
        <Field path="invoice_info.reviewer" label={TERMS.reviewer} id="issue-reviewer">
          <Input
            id="issue-reviewer"
            value={draft.reviewer}
            maxLength={75}
            onChange={(e) => set({ reviewer: e.target.value })}
          />
        </Field>
      </Col>
    </Row>
  );
}

export const RemarkBlock = memo(
  RemarkBlockImpl,
  sameDraftParts(['remark', 'drawer', 'payee', 'reviewer', 'show_buyer_bank', 'show_seller_bank']),
);
