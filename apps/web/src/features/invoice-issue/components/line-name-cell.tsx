import { TERMS } from '@kaipiao/shared/glossary/terms';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Button, Popover, Select, Space, Tag, Typography } from 'antd';
import { type Dispatch, useState } from 'react';
import { projectsQuery, taxClassSearchQuery } from '../../../api/projects.ts';
import { useDebounced } from '../hooks/use-debounced.ts';
import type { DraftAction } from '../utils/draft.ts';
import type { DraftLine } from '../utils/types.ts';
import { CellError, useFirstError, useTouch } from './field.tsx';

// 项目名称: pick a goods code (fills code, 简称, rate, unit, price) or type a name and choose the
// classification code by hand; printed as `*简称*名称` (domain.md §1.3).

type Props = { line: DraftLine; index: number; dispatch: Dispatch<DraftAction>; readOnly: boolean };

function CodeEditor({ line, dispatch }: { line: DraftLine; dispatch: Dispatch<DraftAction> }) {
  const [keyword, setKeyword] = useState('');
  const search = useQuery(taxClassSearchQuery(useDebounced(keyword.trim())));
  const options = (search.data ?? [])
    .filter((c) => !c.is_summary)
    .map((c) => ({
      value: c.code,
      label: (
        <Space direction="vertical" size={0}>
          <span>
            *{c.short_name}*{c.name}
          </span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {c.code}
          </Typography.Text>
        </Space>
      ),
    }));
  return (
    <Space direction="vertical" style={{ width: 320 }}>
      <Select
        aria-label={`搜索${TERMS.taxClassCode}`}
        showSearch
        filterOption={false}
        value={line.tax_class_code || undefined}
        placeholder="输入名称或编码搜索，如 软件、住宿"
        onSearch={setKeyword}
        loading={search.isFetching}
        options={options}
        style={{ width: '100%' }}
        optionLabelProp="value"
        onChange={(code: string) => {
          const c = search.data?.find((x) => x.code === code);
          if (!c) return;
          // a new code may admit other rates: the rate is chosen again
          dispatch({
            type: 'updateLine',
            key: line.key,
            patch: {
              tax_class_code: c.code,
              short_name: c.short_name,
              goods_id: null,
              tax_rate: '',
              zero_rate_flag: '',
              preferential_code: '',
            },
          });
        }}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {line.short_name
          ? `票面显示：*${line.short_name}*${line.name || TERMS.itemName}`
          : `常用项目可在“${TERMS.goodsCode}”中维护后直接选用`}
      </Typography.Text>
    </Space>
  );
}

export function LineNameCell({ line, index, dispatch, readOnly }: Props) {
  const [focused, setFocused] = useState(false);
  const touch = useTouch();
  const keyword = useDebounced(line.name.trim());
  const projects = useQuery({ ...projectsQuery(keyword), enabled: focused && !readOnly });
  const error = useFirstError([
    `goods_info.${index}.name`,
    `goods_info.${index}.tax_class_code`,
    `goods_info.${index}.short_name`,
    `goods_info.${index}.goods_id`,
    `goods_info.${index}.line_kind`,
    `goods_info.${index}.preferential_code`,
    `goods_info.${index}.zero_rate_flag`,
  ]);
  const full = line.short_name ? `*${line.short_name}*${line.name}` : line.name;

  if (readOnly) {
    return (
      <div>
        <Space size={4}>
          <Tag color="orange">折扣</Tag>
          <span>{full}</span>
        </Space>
        <CellError message={error} />
      </div>
    );
  }
  const options = (projects.data?.list ?? []).map((p) => ({
    value: `#${p.id}`,
    label: (
      <Space direction="vertical" size={0}>
        <span>
          *{p.short_name}*{p.name}
        </span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {p.tax_class_code} · {p.spec || '—'} · {p.unit || '—'}
        </Typography.Text>
      </Space>
    ),
  }));
  return (
    <div>
      <AutoComplete
        aria-label={`${TERMS.itemName} 第${index + 1}行`}
        value={line.name}
        options={options}
        status={error ? 'error' : undefined}
        style={{ width: '100%' }}
        popupMatchSelectWidth={360}
        placeholder="输入名称或编码搜索商品"
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          // leaving the name checks it and its code, as 确认开具 would (issue 24 item 2)
          touch(`goods_info.${index}.name`);
          touch(`goods_info.${index}.tax_class_code`);
        }}
        onChange={(v: string) => {
          // a picked option also arrives here first; onSelect then fills the whole line
          if (!v.startsWith('#')) dispatch({ type: 'updateLine', key: line.key, patch: { name: v } });
        }}
        onSelect={(v: string) => {
          const p = projects.data?.list.find((x) => `#${x.id}` === v);
          if (p) dispatch({ type: 'pickProject', key: line.key, project: p });
        }}
      />
      <Popover
        trigger="click"
        title={TERMS.taxClassCode}
        content={<CodeEditor line={line} dispatch={dispatch} />}
      >
        {/* a narrow name column (1280 px) ends the code in …; the popover shows it in full */}
        <Button type="link" size="small" style={{ padding: 0, height: 20, fontSize: 12, maxWidth: '100%' }}>
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {line.tax_class_code
              ? `*${line.short_name || '?'}* ${line.tax_class_code}`
              : `选择${TERMS.taxClassCode}`}
          </span>
        </Button>
      </Popover>
      <CellError message={error} />
    </div>
  );
}
