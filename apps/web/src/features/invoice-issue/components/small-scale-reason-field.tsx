import { SMALL_SCALE_3_PERCENT_REASONS, type SmallScaleReason } from '@kaipiao/shared';
import { Select } from 'antd';
import { type Dispatch, memo } from 'react';
import type { DraftAction } from '../utils/draft.ts';
import { Field } from './field.tsx';

// 开具3%征收率原因 (`slsm`, domain.md §2.6): a small-scale seller issuing a 3% line while the 1%
// reduction runs says why. The form shows it only then; the reasons are long, so options wrap.

const OPTIONS = (Object.keys(SMALL_SCALE_3_PERCENT_REASONS) as SmallScaleReason[]).map((value) => ({
  value,
  label: SMALL_SCALE_3_PERCENT_REASONS[value],
}));

type Props = { value: '' | SmallScaleReason | undefined; dispatch: Dispatch<DraftAction> };

function SmallScaleReasonFieldImpl({ value, dispatch }: Props) {
  return (
    <Field path="small_scale_reason" label="开具3%征收率原因" id="issue-small-scale-reason" required>
      <Select<SmallScaleReason>
        id="issue-small-scale-reason"
        value={value || undefined}
        placeholder="请选择开具原因"
        options={OPTIONS}
        optionRender={(o) => <span style={{ whiteSpace: 'normal' }}>{o.label}</span>}
        onChange={(v) => dispatch({ type: 'field', patch: { small_scale_reason: v } })}
        style={{ width: '100%' }}
      />
    </Field>
  );
}

export const SmallScaleReasonField = memo(SmallScaleReasonFieldImpl);
