import { Form, Typography } from 'antd';
import { createContext, type ReactNode, useContext } from 'react';
import type { FieldErrors } from '../utils/types.ts';

// Errors and warnings by field path (`buyer.tax_code`, `goods_info.1.amount`), client-side and
// from the server alike, shown next to the input that owns the path.

type FieldState = { errors: FieldErrors; warnings: FieldErrors; touch: (path: string) => void };

const FieldContext = createContext<FieldState>({ errors: {}, warnings: {}, touch: () => {} });
export const FieldProvider = FieldContext.Provider;

export function useFieldState(path: string) {
  const ctx = useContext(FieldContext);
  return { error: ctx.errors[path], warning: ctx.warnings[path], touch: () => ctx.touch(path) };
}

/** Marks a field as left: its errors show from now on, as they would at 确认开具 (issue 24 item 2). */
export function useTouch(): (path: string) => void {
  return useContext(FieldContext).touch;
}

/** The first error among several paths (a cell that shows more than one field). */
export function useFirstError(paths: readonly string[]): string | undefined {
  const ctx = useContext(FieldContext);
  for (const p of paths) if (ctx.errors[p]) return ctx.errors[p];
  return undefined;
}

type Props = {
  path: string;
  label: ReactNode;
  /** id of the input, so the label names it */
  id?: string;
  required?: boolean;
  extra?: ReactNode;
  /** shown under the warning (e.g. an action for it) */
  warningAction?: ReactNode;
  children: ReactNode;
};

/** A labelled input with its error (or warning) underneath. */
export function Field({ path, label, id, required, extra, warningAction, children }: Props) {
  const { error, warning, touch } = useFieldState(path);
  const help =
    error ??
    (warning ? (
      <span>
        {warning} {warningAction}
      </span>
    ) : undefined);
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      required={required}
      validateStatus={error ? 'error' : warning ? 'warning' : undefined}
      help={help}
      extra={extra}
    >
      <div onBlur={touch}>{children}</div>
    </Form.Item>
  );
}

/** The error under a table cell's input. */
export function CellError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <Typography.Text
      type="danger"
      role="alert"
      style={{ display: 'block', fontSize: 12, lineHeight: '18px' }}
    >
      {message}
    </Typography.Text>
  );
}
