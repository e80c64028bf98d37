import { emptyDraft, emptyLine } from './draft.ts';
import type { Draft, DraftLine } from './types.ts';

// A complete ordinary-invoice draft for the issue form's unit tests (validate*.test.ts).

export const SELLER = { name: '杭州云栈软件科技有限公司', tax_code: '91330106MA2KC7LM1A' };

export const line = (patch: Partial<DraftLine> = {}): DraftLine => ({
  ...emptyLine(),
  tax_class_code: '3040201010000000000',
  short_name: '信息技术服务',
  name: '软件开发服务',
  tax_rate: '0.06',
  quantity: '1',
  price: '106',
  ...patch,
});

export function draftOf(patch: Partial<Draft> = {}): Draft {
  return {
    ...emptyDraft(),
    device_id: 1,
    invoice_type: '82',
    // an enterprise buyer names its tax code (the shared buyer rules)
    buyer: { ...emptyDraft().buyer, name: '上海某某贸易有限公司', tax_code: '91310115MA1K3BTP2B' },
    lines: [line()],
    ...patch,
  };
}
