import { TERMS } from '@kaipiao/shared/glossary/terms';
import { INVOICE_TYPES } from '@kaipiao/shared/schemas/invoice';
import { AMOUNT_RANGE_INVERTED, LIBRARY_STATUS } from '@kaipiao/shared/schemas/query';
import { DatePicker, Form, Input, InputNumber, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { FoldingFields } from '../../../components/folding-fields.tsx';
import type { LibraryForm } from '../utils.ts';

export type AmountRangeValue = [number | null, number | null];

/** What the search form holds: the dates as picked, the amounts as one range. */
export type FilterValues = Omit<LibraryForm, 'date_range' | 'amount_min' | 'amount_max'> & {
  date_range?: [Dayjs | null, Dayjs | null] | null;
  amount_range?: AmountRangeValue;
};

/** The form's values as `toFilter` takes them (dates as YYYY-MM-DD). */
export function formToLibrary({ date_range, amount_range, ...rest }: FilterValues): LibraryForm {
  const [from, to] = date_range ?? [null, null];
  return {
    ...rest,
    date_range: from && to ? [from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD')] : undefined,
    amount_min: amount_range?.[0],
    amount_max: amount_range?.[1],
  };
}

/** 价税合计 from – to (a form control: value / onChange come from the form item). */
function AmountRange({
  value,
  onChange,
}: {
  value?: AmountRangeValue;
  onChange?: (v: AmountRangeValue) => void;
}) {
  const [min, max] = value ?? [null, null];
  return (
    <Space.Compact style={{ width: '100%' }}>
      <InputNumber
        style={{ width: '50%' }}
        placeholder={`最小${TERMS.totalWithTax}`}
        aria-label={`最小${TERMS.totalWithTax}`}
        precision={2}
        value={min}
        onChange={(v) => onChange?.([v, max])}
      />
      <InputNumber
        style={{ width: '50%' }}
        placeholder={`最大${TERMS.totalWithTax}`}
        aria-label={`最大${TERMS.totalWithTax}`}
        precision={2}
        value={max}
        onChange={(v) => onChange?.([min, v])}
      />
    </Space.Compact>
  );
}

/** An inverted range would match nothing (the server refuses it too): said at the field, not sent. */
const amountRangeRule = {
  validator: (_: unknown, v?: AmountRangeValue) => {
    const [lo, hi] = v ?? [null, null];
    return lo != null && hi != null && lo > hi
      ? Promise.reject(new Error(AMOUNT_RANGE_INVERTED))
      : Promise.resolve();
  },
};

const TYPE_OPTIONS = Object.entries(INVOICE_TYPES).map(([value, label]) => ({ value, label }));
const STATUS_OPTIONS = Object.entries(LIBRARY_STATUS).map(([value, label]) => ({ value, label }));
const DIRECTION_OPTIONS = [
  { value: 'blue', label: TERMS.blueInvoice },
  { value: 'red', label: TERMS.redInvoice },
];
const SPAN = { xs: 24, sm: 12, md: 8, lg: 8, xl: 6, xxl: 6 };
/** Fields shown while the form is folded (收起). */
const FOLDED = 3;

type Props = {
  initialValues: FilterValues;
  /** the summary view: one more filter, 门店 */
  stores?: { options: { label: string; value: number }[]; loading: boolean };
  onSearch: (values: FilterValues) => void;
};

/**
 * The library's search form (spec §2 发票明细): 开票日期, 发票号码, 发票种类, 购买方, 金额范围, 状态,
 * 蓝/红字 and, in the summary view, 门店. 查询 (or Enter in a field) searches from the first page,
 * 重置 puts the opening values back and searches again.
 */
export function LibraryFilters({ initialValues, stores, onSearch }: Props) {
  const [form] = Form.useForm<FilterValues>();
  const fields = [
    <Form.Item key="date_range" name="date_range" label={TERMS.issueDate}>
      <DatePicker.RangePicker style={{ width: '100%' }} />
    </Form.Item>,
    <Form.Item key="invoice_no" name="invoice_no" label={TERMS.invoiceNo}>
      <Input placeholder="完整号码或后几位" maxLength={20} allowClear />
    </Form.Item>,
    <Form.Item key="invoice_types" name="invoice_types" label={TERMS.invoiceKind}>
      <Select
        mode="multiple"
        maxTagCount="responsive"
        allowClear
        placeholder="请选择"
        options={TYPE_OPTIONS}
      />
    </Form.Item>,
    <Form.Item key="buyer" name="buyer" label={TERMS.buyer}>
      <Input placeholder={`${TERMS.buyerShort}名称（模糊）或${TERMS.taxCodeShort}`} allowClear />
    </Form.Item>,
    <Form.Item
      key="amount_range"
      name="amount_range"
      label={`${TERMS.amount}范围`}
      rules={[amountRangeRule]}
      validateTrigger={false}
    >
      <AmountRange />
    </Form.Item>,
    <Form.Item key="statuses" name="statuses" label="状态">
      <Select
        mode="multiple"
        maxTagCount="responsive"
        allowClear
        placeholder="请选择"
        options={STATUS_OPTIONS}
      />
    </Form.Item>,
    <Form.Item key="direction" name="direction" label={`蓝/${TERMS.redShort}`}>
      <Select allowClear placeholder="请选择" options={DIRECTION_OPTIONS} />
    </Form.Item>,
    ...(stores
      ? [
          <Form.Item key="store_ids" name="store_ids" label={TERMS.store}>
            <Select
              mode="multiple"
              maxTagCount="responsive"
              allowClear
              placeholder="请选择"
              loading={stores.loading}
              options={stores.options}
            />
          </Form.Item>,
        ]
      : []),
  ];
  return (
    <Form<FilterValues>
      form={form}
      initialValues={initialValues}
      onFinish={onSearch}
      onReset={() => onSearch(form.getFieldsValue(true))}
      className="kp-library-filters"
    >
      <FoldingFields fields={fields} span={SPAN} shown={FOLDED} />
    </Form>
  );
}
