import { z } from 'zod';
import { fieldLabel } from './text.ts';

/**
 * Chinese for every validation failure a schema does not word itself (issue 21 / 11: no English
 * "Invalid input: expected number, received NaN" reaches a user). A schema's own message always
 * wins; this names the field from `FIELD_LABELS` and says what is wrong in plain words. Installed
 * once, globally, when `@kaipiao/shared` loads — the server's validation and the web forms alike.
 */

type Issue = {
  code?: string;
  path?: readonly PropertyKey[];
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  format?: string;
  divisor?: number;
  keys?: readonly string[];
  values?: readonly unknown[];
};

const UNIT: Record<string, string> = { string: '个字', array: '项', set: '项', file: '字节' };

/** Names of the ids and paging fields every list and action takes (FIELD_LABELS has the form fields). */
const COMMON_LABELS: Record<string, string> = {
  page: '页码',
  page_size: '每页条数',
  id: '编号',
  ids: '编号',
  kind: '类型',
  type: '类型',
  status: '状态',
  action: '操作',
  full: '是否全额',
  agree: '同意协议',
  count: '数量',
  store_id: '门店',
  store_ids: '门店',
  client_store_id: '门店',
  device_id: '开票设备',
  target_device_id: '目标设备',
  invoice_id: '发票',
  invoice_ids: '发票',
  batch_id: '批次',
  record_id: '导出记录',
  form_id: '红字确认单',
  org_id: '集团',
  client_id: '企业',
  granularity: '统计粒度',
  statuses: '发票状态',
  direction: '蓝字/红字',
};

function labelOf(path: readonly PropertyKey[]): string {
  const label = fieldLabel(path);
  // Stryker disable next-line ConditionalExpression,StringLiteral: no FIELD_LABELS key ends in a COMMON_LABELS key, so a labelled path never has a common name instead
  if (!label.startsWith('字段')) return label;
  const last = [...path].reverse().find((k): k is string => typeof k === 'string');
  return (last && COMMON_LABELS[last]) || label;
}

export function chineseIssueMessage(iss: Issue): string {
  const label = labelOf(iss.path ?? []);
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined || iss.input === null) return `请填写${label}`;
      if (iss.expected === 'number' || iss.expected === 'int' || iss.expected === 'bigint')
        return `${label}须为数字`;
      if (iss.expected === 'array') return `${label}须为列表`;
      // Stryker disable next-line ConditionalExpression,StringLiteral: an object gets the default words (格式不正确) anyway
      if (iss.expected === 'object') return `${label}格式不正确`;
      if (iss.expected === 'boolean') return `${label}须为是或否`;
      return `${label}格式不正确`;
    case 'too_small': {
      const min = Number(iss.minimum);
      if (iss.origin === 'string') return min <= 1 ? `请填写${label}` : `${label}至少${min}${UNIT.string}`;
      if (iss.origin === 'array' || iss.origin === 'set')
        return min <= 1 ? `请至少选择一项${label}` : `${label}至少${min}项`;
      return `${label}不能${iss.inclusive === false ? '小于或等于' : '小于'}${min}`;
    }
    case 'too_big': {
      const max = Number(iss.maximum);
      if (iss.origin === 'string') return `${label}最多${max}${UNIT.string}`;
      if (iss.origin === 'array' || iss.origin === 'set') return `${label}最多${max}项`;
      return `${label}不能${iss.inclusive === false ? '大于或等于' : '大于'}${max}`;
    }
    case 'invalid_format':
      return `${label}格式不正确`;
    case 'not_multiple_of':
      return `${label}须为${iss.divisor}的整数倍`;
    case 'invalid_value':
      return `${label}的取值无效`;
    case 'unrecognized_keys':
      return `不支持的字段：${(iss.keys ?? []).join('、')}`;
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return `${label}格式不正确`;
    default:
      return `${label}不正确`;
  }
}

let installed = false;

/** Makes `chineseIssueMessage` zod's message for every issue a schema leaves unworded (idempotent). */
export function installChineseMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: (iss) => chineseIssueMessage(iss as unknown as Issue) });
}

installChineseMessages();
