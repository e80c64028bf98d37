import { z } from 'zod';
import { TERMS } from '../glossary/terms.ts';
import { PG_INT_MAX } from '../schemas/common.ts';
import { MSG } from './messages.ts';
import { FIELD_LABELS, fieldLabel, textLabel } from './text.ts';

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
  count: TERMS.quantity,
  store_id: TERMS.store,
  store_ids: TERMS.store,
  client_store_id: TERMS.store,
  device_id: TERMS.device,
  target_device_id: '目标设备',
  invoice_id: '发票',
  invoice_ids: '发票',
  batch_id: '批次',
  record_id: '导出记录',
  form_id: TERMS.redConfirmForm,
  org_id: '集团',
  client_id: '企业',
  granularity: '统计粒度',
  statuses: '发票状态',
  direction: `${TERMS.blueShort}/${TERMS.redShort}`,
};

function labelOf(path: readonly PropertyKey[]): string {
  return fieldName(path) ?? fieldLabel(path);
}

/**
 * The Chinese name of the field at `path` from the shared label map (FIELD_LABELS, most specific
 * path first, then the common names of ids and paging); undefined when it has none.
 */
export function fieldName(path: readonly PropertyKey[]): string | undefined {
  const keys = path.filter((k): k is string => typeof k === 'string');
  for (let i = 0; i < keys.length; i++) {
    const label = FIELD_LABELS[keys.slice(i).join('.')];
    if (label) return label;
  }
  const last = keys.at(-1);
  return (last && COMMON_LABELS[last]) || undefined;
}

type Def = { type?: string; [k: string]: unknown };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** The schema a value at `path` is checked against (wrappers, lists, unions and pipes followed). */
export function schemaAt(schema: unknown, path: readonly PropertyKey[]): unknown {
  let s = schema;
  let i = 0;
  for (let step = 0; step < 200 && s; step++) {
    const def = defOf(s);
    if (!def) return undefined;
    const key = path[i];
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'catch':
      case 'readonly':
      case 'nonoptional':
        s = def.innerType;
        continue;
      case 'pipe':
        s = defOf(def.in)?.type === 'transform' ? def.out : def.in;
        continue;
      case 'lazy':
        s = (def.getter as () => unknown)();
        continue;
    }
    if (i === path.length) return s;
    switch (def.type) {
      case 'object':
        s = (def.shape as Record<PropertyKey, unknown>)[key as PropertyKey] ?? def.catchall;
        break;
      case 'array':
        s = def.element;
        break;
      case 'record':
        s = def.valueType;
        break;
      case 'intersection':
        return schemaAt(def.left, path.slice(i)) ?? schemaAt(def.right, path.slice(i));
      case 'union':
        for (const o of def.options as unknown[]) {
          const found = schemaAt(o, path.slice(i));
          if (found) return found;
        }
        return undefined;
      default:
        return undefined;
    }
    i++;
  }
  return s;
}

/** The label a field's text() was given, in it or in one of its union's options (a mobile or ''). */
function ownLabel(schema: unknown): string | undefined {
  const def = defOf(schema);
  if (def?.type === 'union') {
    for (const o of def.options as unknown[]) {
      const label = ownLabel(schemaAt(o, []));
      if (label) return label;
    }
  }
  return textLabel(schema);
}

// the spec's own words (spec §5) stay exactly as the spec gives them
const SPEC_MESSAGES = new Set<unknown>(Object.values(MSG));
// the same field in other words: the forms' 购买方 / 销售方 are the label map's 购方 / 销方, and an
// 18-character 纳税人识别号 is the 统一社会信用代码 its checksum message names
const sameWords = (s: string) =>
  s
    .replace(/购买方/g, TERMS.buyerShort)
    .replace(/销售方/g, TERMS.sellerShort)
    .replace(/统一社会信用代码/g, TERMS.taxCode);

/**
 * A validation answer's message with its field named (issue 11): `门店名称：…` when the message a
 * schema gave does not name the field already. The name is the one the field's text() was given
 * (`text('门店编号')`), else the shared label map's; a message that names either, a field with no
 * Chinese name, and the spec's fixed messages are left as they are. Zod's own words, when a schema
 * gives none, name the field already (chineseIssueMessage).
 */
export function withFieldName(message: string, path: readonly PropertyKey[], schema?: unknown): string {
  if (SPEC_MESSAGES.has(message)) return message;
  const names = [schema === undefined ? undefined : ownLabel(schemaAt(schema, path)), fieldName(path)].filter(
    (n): n is string => Boolean(n),
  );
  if (names.length === 0 || names.some((n) => sameWords(message).includes(sameWords(n)))) return message;
  return `${names[0]}：${message}`;
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
      // a bound no one types (an id's PostgreSQL range, a safe integer's) is no number to quote
      if (min <= -PG_INT_MAX) return `${label}超出允许范围`;
      return `${label}不能${iss.inclusive === false ? '小于或等于' : '小于'}${min}`;
    }
    case 'too_big': {
      const max = Number(iss.maximum);
      if (iss.origin === 'string') return `${label}最多${max}${UNIT.string}`;
      if (iss.origin === 'array' || iss.origin === 'set') return `${label}最多${max}项`;
      if (max >= PG_INT_MAX) return `${label}超出允许范围`;
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

/**
 * Makes `chineseIssueMessage` zod's message for every issue a schema leaves unworded (idempotent),
 * over zod's own zh-CN locale: zod asks a schema's message first, then this, then the locale, so
 * nothing ever falls back to English.
 */
export function installChineseMessages(): void {
  if (installed) return;
  installed = true;
  z.config(z.locales.zhCN());
  z.config({ customError: (iss) => chineseIssueMessage(iss as unknown as Issue) });
}

installChineseMessages();
