import type { CheckboxProps } from 'antd';

/**
 * A table row's selection checkbox named after the row (axe: label): antd forwards aria-label to
 * the input, though its CheckboxProps type does not list it. For rowSelection.getCheckboxProps.
 */
export function rowCheckbox(label: string, props: Partial<CheckboxProps> = {}): Partial<CheckboxProps> {
  return { ...props, 'aria-label': label } as Partial<CheckboxProps>;
}
