import { Select, type SelectProps } from 'antd';

/**
 * A Select inside a required Form.Item. antd's Form.Item sets aria-required on its control, which
 * for a Select lands on the root <div> (no role: axe aria-allowed-attr, critical) — rc-select
 * never hands it to the combobox. The label's mark and the field's message say it is required.
 */
export function FormSelect<V = unknown>(props: SelectProps<V> & { 'aria-required'?: unknown }) {
  const { 'aria-required': _required, ...rest } = props;
  return <Select<V> {...rest} />;
}
