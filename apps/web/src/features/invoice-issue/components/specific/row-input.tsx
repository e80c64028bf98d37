import { Input } from 'antd';
import { CellError, useFirstError } from '../field.tsx';

/** A text input in a repeating row, with its error underneath. */
export function RowInput(props: {
  label: string;
  path: string;
  value: string;
  max: number;
  placeholder?: string;
  onChange: (v: string) => void;
}) {
  const error = useFirstError([props.path]);
  return (
    <div>
      <Input
        aria-label={props.label}
        value={props.value}
        maxLength={props.max}
        placeholder={props.placeholder}
        status={error ? 'error' : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <CellError message={error} />
    </div>
  );
}
