import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { TaxClassCode } from '@kaipiao/shared/schemas/goods';
import { useQuery } from '@tanstack/react-query';
import { Select, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { taxClassSearchQuery } from '../api/goods.ts';

type Props = {
  value?: string;
  onChange?: (code: string | undefined, item?: TaxClassCode) => void;
  /** shown before the first search, e.g. the edited item's code */
  initial?: Pick<TaxClassCode, 'code' | 'name' | 'short_name'> | null;
  id?: string;
  placeholder?: string;
};

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** 税收分类编码 picker: search by name, 简称, keyword or code prefix; shows code, name and 简称. */
export function TaxClassSelect({ value, onChange, initial, id, placeholder }: Props) {
  const [keyword, setKeyword] = useState('');
  const debounced = useDebounced(keyword.trim(), 250);
  const { data = [], isFetching } = useQuery(taxClassSearchQuery(debounced));
  const options = useMemo(() => {
    const list = [...data];
    if (initial && !list.some((c) => c.code === initial.code)) list.unshift(initial as TaxClassCode);
    return list.map((c) => ({
      value: c.code,
      item: c,
      label: (
        <Space size={6} wrap={false}>
          <Typography.Text>{c.name}</Typography.Text>
          <Tag color="green" bordered={false}>
            {c.short_name}
          </Tag>
          <Typography.Text type="secondary">{c.code}</Typography.Text>
        </Space>
      ),
    }));
  }, [data, initial]);

  return (
    <Select
      id={id}
      showSearch
      allowClear
      value={value || undefined}
      placeholder={placeholder ?? '输入名称、简称或编码搜索'}
      filterOption={false}
      onSearch={setKeyword}
      loading={isFetching}
      notFoundContent={isFetching ? '搜索中…' : `未找到匹配的${TERMS.taxClassCode}`}
      options={options}
      optionLabelProp="label"
      onChange={(code: string | undefined, opt) => {
        const item = Array.isArray(opt) ? undefined : (opt as { item?: TaxClassCode } | undefined)?.item;
        onChange?.(code, item);
      }}
      popupMatchSelectWidth={520}
    />
  );
}
