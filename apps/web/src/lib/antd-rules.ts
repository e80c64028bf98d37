import type { FormRule } from 'antd';
import type { z } from 'zod';

/**
 * antd form rules from a shared zod schema (issue 19 item 6): a field is checked by parsing the whole
 * form with the schema the server parses the request with, so the form and the server refuse the
 * same input with the same Chinese message, cross-field rules included. The label's asterisk is the
 * form item's `required` prop; the schema alone decides what is refused.
 *
 *   const rule = zodRules(titleBodySchema);
 *   <Form.Item name="name" label="名称" required rules={rule('name')}><Input /></Form.Item>
 *
 * A form whose values are not the request itself passes `toRequest`, the same mapping its submit
 * sends, and names the request's field: `zodRules(goodsBodySchema, bodyOf)('tax_rate')` on the
 * form's rate select.
 */
export function zodRules<V = unknown>(schema: z.ZodType, toRequest: (values: V) => unknown = (v) => v) {
  return (field: string | readonly (string | number)[]): FormRule[] => {
    const path = (typeof field === 'string' ? [field] : field).join('.');
    return [
      ({ getFieldsValue }) => ({
        validator: async () => {
          const parsed = await schema.safeParseAsync(toRequest(getFieldsValue(true) as V));
          if (parsed.success) return;
          const issue = parsed.error.issues.find((i) => i.path.join('.') === path);
          if (issue) throw new Error(issue.message);
        },
      }),
    ];
  };
}
