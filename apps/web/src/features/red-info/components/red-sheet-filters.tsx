import { TERMS } from '@kaipiao/shared/glossary/terms';
import { CONFIRM_STATES, RED_FORM_KINDS } from '@kaipiao/shared/schemas/red-info';
import { Form, Input, Select } from 'antd';
import { FoldingFields } from '../../../components/folding-fields.tsx';
import type { RedSearch } from '../api.ts';

const KIND_OPTIONS = Object.entries(RED_FORM_KINDS).map(([value, label]) => ({ value, label }));
/** the three classes first, then each 确认单 state by its code (01 … 10) */
const STATE_OPTIONS = [
  { value: 'pending', label: '待确认 / 申请中' },
  { value: 'confirmed', label: '已确认 / 审核通过' },
  { value: 'void', label: `已${TERMS.void} / 已撤销` },
  ...Object.entries(CONFIRM_STATES)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([value, label]) => ({ value, label: `${value} ${label}` })),
];
/** three fields a row below 1600 px (the buttons on the next, as the table's search form had them) */
const SPAN = { xs: 24, sm: 12, md: 8, lg: 8, xl: 8, xxl: 6 };
/** Fields shown while the form is folded (收起). */
const FOLDED = 2;

/**
 * 红字信息表's search form: 关键字 (单据编号, 发票号码 or 购方名称), 单据类型, 状态. 查询 (or Enter in a
 * field) searches from the first page; 重置 empties the fields and searches again.
 */
export function RedSheetFilters({ onSearch }: { onSearch: (values: RedSearch) => void }) {
  const [form] = Form.useForm<RedSearch>();
  const fields = [
    <Form.Item key="keyword" name="keyword" label="关键字">
      <Input placeholder={`单据编号、${TERMS.invoiceNo}或${TERMS.buyerShort}名称`} allowClear />
    </Form.Item>,
    <Form.Item key="kind" name="kind" label="单据类型">
      <Select allowClear placeholder="请选择" options={KIND_OPTIONS} />
    </Form.Item>,
    <Form.Item key="state" name="state" label="状态">
      <Select allowClear placeholder="请选择" options={STATE_OPTIONS} />
    </Form.Item>,
  ];
  return (
    <Form<RedSearch>
      form={form}
      name="red-sheet-search"
      onFinish={onSearch}
      onReset={() => onSearch(form.getFieldsValue(true))}
    >
      <FoldingFields fields={fields} span={SPAN} shown={FOLDED} />
    </Form>
  );
}
