import { PlusOutlined } from '@ant-design/icons';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { Button, Input, Select, Space, Table, type TableColumnsType, Typography } from 'antd';
import { type Dispatch, memo, useState } from 'react';
import type { DraftAction } from '../utils/draft.ts';
import { type LineNumbers, shownAmount, shownPrice } from '../utils/line-math.ts';
import { sameDraftParts } from '../utils/memo.ts';
import { AREA_UNITS } from '../utils/specific-rules.ts';
import type { Draft, DraftLine } from '../utils/types.ts';
import { DiscountModal } from './discount-modal.tsx';
import { CellError, useFirstError, useTouch } from './field.tsx';
import { LineNameCell } from './line-name-cell.tsx';
import { RateCell } from './rate-cell.tsx';

// 应税明细: editable lines with derived price/amount/tax that follow every keystroke.

type Props = { draft: Draft; numbers: readonly (LineNumbers | null)[]; dispatch: Dispatch<DraftAction> };
type Row = { line: DraftLine; index: number };

/** the row's link buttons, close together so that the three fit the 操作 column */
const COMPACT = { paddingInline: 4 } as const;

const decimalOnly = (v: string) => v.replace(/[^\d.]/g, '');

function NumberCell(props: {
  label: string;
  index: number;
  paths: string[];
  value: string;
  disabled?: boolean;
  onChange: (v: string) => void;
}) {
  const error = useFirstError(props.paths);
  const touch = useTouch();
  return (
    <div>
      <Input
        aria-label={`${props.label} 第${props.index + 1}行`}
        inputMode="decimal"
        value={props.value}
        disabled={props.disabled}
        status={error ? 'error' : undefined}
        onBlur={() => {
          for (const p of props.paths) touch(p);
        }}
        onChange={(e) => props.onChange(decimalOnly(e.target.value))}
        style={{ textAlign: 'right' }}
      />
      <CellError message={error} />
    </div>
  );
}

function TextCell(props: {
  label: string;
  index: number;
  path: string;
  value: string;
  max: number;
  disabled?: boolean;
  onChange: (v: string) => void;
}) {
  const error = useFirstError([props.path]);
  const touch = useTouch();
  return (
    <div>
      <Input
        aria-label={`${props.label} 第${props.index + 1}行`}
        value={props.value}
        disabled={props.disabled}
        maxLength={props.max}
        status={error ? 'error' : undefined}
        onBlur={() => touch(props.path)}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <CellError message={error} />
    </div>
  );
}

function LinesTableImpl({ draft, numbers, dispatch }: Props) {
  const [discountFor, setDiscountFor] = useState<string | null>(null);
  const inclusive = draft.price_includes_tax;
  const code = draft.specific_business_code;
  const building = code === '03';
  const rent = code === '06';
  const mode = inclusive ? '（含税）' : '（不含税）';
  const update = (key: string, patch: Partial<DraftLine>) => dispatch({ type: 'updateLine', key, patch });
  const rows: Row[] = draft.lines.map((line, index) => ({ line, index }));
  const linesError = useFirstError(['goods_info']);

  const columns: TableColumnsType<Row> = [
    { title: '序号', width: 48, align: 'center', render: (_, r) => r.index + 1 },
    {
      // no width: the name takes what the other columns leave (issue 24 item 1: every column,
      // 税额 included, fits at 1280 px)
      title: TERMS.itemName,
      render: (_, r) => (
        <LineNameCell line={r.line} index={r.index} dispatch={dispatch} readOnly={r.line.line_kind === 1} />
      ),
    },
    ...(building
      ? []
      : ([
          {
            title: TERMS.spec,
            width: 76,
            render: (_, r) => (
              <TextCell
                label={TERMS.spec}
                index={r.index}
                path={`goods_info.${r.index}.spec`}
                value={r.line.spec}
                max={150}
                disabled={r.line.line_kind === 1}
                onChange={(v) => update(r.line.key, { spec: v })}
              />
            ),
          },
          {
            title: rent ? '面积单位' : TERMS.unit,
            width: 72,
            render: (_, r) =>
              rent && r.line.line_kind !== 1 ? (
                <AreaUnitCell
                  index={r.index}
                  value={r.line.unit}
                  onChange={(v) => update(r.line.key, { unit: v })}
                />
              ) : (
                <TextCell
                  label={TERMS.unit}
                  index={r.index}
                  path={`goods_info.${r.index}.unit`}
                  value={r.line.unit}
                  max={300}
                  disabled={r.line.line_kind === 1}
                  onChange={(v) => update(r.line.key, { unit: v })}
                />
              ),
          },
          {
            title: rent ? '面积' : TERMS.quantity,
            width: 80,
            render: (_, r) => (
              <NumberCell
                label={rent ? '面积' : TERMS.quantity}
                index={r.index}
                paths={[`goods_info.${r.index}.quantity`]}
                value={r.line.line_kind === 1 ? '' : r.line.quantity}
                disabled={r.line.line_kind === 1}
                onChange={(v) => update(r.line.key, { quantity: v })}
              />
            ),
          },
          {
            title: `${TERMS.unitPrice}${mode}`,
            width: 120,
            render: (_, r) => (
              <NumberCell
                label={TERMS.unitPrice}
                index={r.index}
                paths={[`goods_info.${r.index}.price`]}
                value={shownPrice(r.line, numbers[r.index], inclusive)}
                disabled={r.line.line_kind === 1}
                onChange={(v) => update(r.line.key, { price: v })}
              />
            ),
          },
        ] satisfies TableColumnsType<Row>)),
    {
      title: `${TERMS.amount}${mode}`,
      width: 120,
      render: (_, r) =>
        r.line.line_kind === 1 ? (
          <Typography.Text type="danger" style={{ display: 'block', textAlign: 'right' }}>
            {shownAmount(r.line, numbers[r.index], inclusive)}
          </Typography.Text>
        ) : (
          <NumberCell
            label={TERMS.amount}
            index={r.index}
            paths={[`goods_info.${r.index}.amount`, `goods_info.${r.index}.amount_with_tax`]}
            value={shownAmount(r.line, numbers[r.index], inclusive)}
            onChange={(v) => update(r.line.key, { amount: v })}
          />
        ),
    },
    {
      title: TERMS.taxRate,
      width: 96,
      render: (_, r) => (
        <RateCell line={r.line} index={r.index} dispatch={dispatch} readOnly={r.line.line_kind === 1} />
      ),
    },
    {
      title: TERMS.taxAmount,
      width: 100,
      align: 'right',
      render: (_, r) => <TaxCell index={r.index} value={numbers[r.index]?.taxAmount ?? ''} />,
    },
    {
      title: '操作',
      width: 124,
      fixed: 'right',
      render: (_, r) => {
        const n = r.index + 1;
        const discount = r.line.line_kind === 1;
        return (
          <Space size={0}>
            {!discount && (
              <Button
                type="link"
                size="small"
                style={COMPACT}
                aria-label={`复制第${n}行`}
                disabled={building}
                onClick={() => dispatch({ type: 'copyLine', key: r.line.key })}
              >
                复制
              </Button>
            )}
            <Button
              type="link"
              size="small"
              style={COMPACT}
              aria-label={discount ? `修改第${n}行折扣` : `折扣第${n}行`}
              disabled={building || (!discount && r.line.line_kind === 2)}
              onClick={() => setDiscountFor(r.line.key)}
            >
              {discount ? '修改' : '折扣'}
            </Button>
            <Button
              type="link"
              size="small"
              style={COMPACT}
              danger
              aria-label={`删除第${n}行`}
              onClick={() => dispatch({ type: 'removeLine', key: r.line.key })}
            >
              删除
            </Button>
          </Space>
        );
      },
    },
  ];

  const target = draft.lines.findIndex((l) => l.key === discountFor);
  const parentAt = target >= 0 && draft.lines[target].line_kind === 1 ? target - 1 : target;
  const parent = parentAt >= 0 ? draft.lines[parentAt] : null;
  const existing =
    parentAt >= 0 && draft.lines[parentAt + 1]?.line_kind === 1 ? draft.lines[parentAt + 1] : null;

  return (
    <>
      <Table<Row>
        rowKey={(r) => r.line.key}
        size="small"
        bordered
        pagination={false}
        dataSource={rows}
        columns={columns}
        scroll={{ x: 960 }}
        rowClassName={(r) => (r.line.line_kind === 1 ? 'kp-discount-row' : '')}
      />
      <CellError message={linesError} />
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        block
        style={{ marginTop: 8 }}
        disabled={building && draft.lines.length >= 1}
        onClick={() => dispatch({ type: 'addLine' })}
      >
        {building ? '建筑服务只能开具一行项目' : '添加行'}
      </Button>
      <DiscountModal
        line={parent}
        numbers={parentAt >= 0 ? numbers[parentAt] : null}
        inclusive={inclusive}
        initial={existing?.discount ?? null}
        onCancel={() => setDiscountFor(null)}
        onOk={(discount) => {
          if (parent) dispatch({ type: 'setDiscount', key: parent.key, discount });
          setDiscountFor(null);
        }}
      />
    </>
  );
}

function AreaUnitCell(props: { index: number; value: string; onChange: (v: string) => void }) {
  const error = useFirstError([`goods_info.${props.index}.unit`]);
  const touch = useTouch();
  return (
    <div>
      <Select
        aria-label={`面积单位 第${props.index + 1}行`}
        value={props.value || undefined}
        status={error ? 'error' : undefined}
        onBlur={() => touch(`goods_info.${props.index}.unit`)}
        style={{ width: '100%' }}
        options={AREA_UNITS.map((u) => ({ value: u, label: u }))}
        onChange={props.onChange}
      />
      <CellError message={error} />
    </div>
  );
}

function TaxCell({ index, value }: { index: number; value: string }) {
  const error = useFirstError([`goods_info.${index}.tax_amount`]);
  return (
    <div>
      <output aria-label={`${TERMS.taxAmount} 第${index + 1}行`} className="kp-num">
        {value}
      </output>
      <CellError message={error} />
    </div>
  );
}

export const LinesTable = memo(
  LinesTableImpl,
  sameDraftParts(['lines', 'price_includes_tax', 'specific_business_code']),
);
