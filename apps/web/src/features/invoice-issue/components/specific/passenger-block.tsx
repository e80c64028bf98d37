import { PlusOutlined } from '@ant-design/icons';
import { Button, DatePicker, Select, Table } from 'antd';
import dayjs from 'dayjs';
import type { Dispatch } from 'react';
import type { DraftAction } from '../../utils/draft.ts';
import { ID_TYPE_OPTIONS, PASSENGER_VEHICLE_OPTIONS, SEAT_CLASSES } from '../../utils/specific-rules.ts';
import type { Draft, DraftPassenger } from '../../utils/types.ts';
import { CellError, useFirstError } from '../field.tsx';
import { RowInput } from './row-input.tsx';

// 09 旅客运输服务 (domain.md §4.4): traveller rows with ID type (§5.6), date, route and vehicle.

type Row = { p: DraftPassenger; i: number };
type SetFn = (key: string, patch: Partial<DraftPassenger>) => void;

function PickCell(props: {
  label: string;
  path: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (v: string) => void;
  disabled?: boolean;
}) {
  const error = useFirstError([props.path]);
  return (
    <div>
      <Select
        aria-label={props.label}
        value={props.value || undefined}
        disabled={props.disabled}
        status={error ? 'error' : undefined}
        placeholder="请选择"
        style={{ width: '100%' }}
        showSearch
        optionFilterProp="label"
        options={props.options.map((o) => ({ value: o.value, label: o.label }))}
        onChange={props.onChange}
      />
      <CellError message={error} />
    </div>
  );
}

function DateCell({ row, set }: { row: Row; set: SetFn }) {
  const error = useFirstError([`passenger_transport.${row.i}.travel_date`]);
  return (
    <div>
      <DatePicker
        aria-label={`出行日期 第${row.i + 1}人`}
        value={row.p.travel_date ? dayjs(row.p.travel_date) : null}
        status={error ? 'error' : undefined}
        onChange={(d) => set(row.p.key, { travel_date: d ? d.format('YYYY-MM-DD') : '' })}
      />
      <CellError message={error} />
    </div>
  );
}

export function PassengerBlock({ draft, dispatch }: { draft: Draft; dispatch: Dispatch<DraftAction> }) {
  const set: SetFn = (key, patch) => dispatch({ type: 'updatePassenger', key, patch });
  const listError = useFirstError(['passenger_transport']);
  const text = (field: keyof DraftPassenger, label: string, max: number, width?: number) => ({
    title: label,
    width,
    render: (_: unknown, r: Row) => (
      <RowInput
        label={`${label} 第${r.i + 1}人`}
        path={`passenger_transport.${r.i}.${field}`}
        value={r.p[field]}
        max={max}
        onChange={(v) => set(r.p.key, { [field]: v })}
      />
    ),
  });
  return (
    <>
      <Table<Row>
        size="small"
        bordered
        pagination={false}
        scroll={{ x: 1200 }}
        rowKey={(r) => r.p.key}
        dataSource={draft.passengers.map((p, i) => ({ p, i }))}
        columns={[
          text('traveller', '出行人', 20, 100),
          {
            title: '证件类型',
            width: 170,
            render: (_, r) => (
              <PickCell
                label={`证件类型 第${r.i + 1}人`}
                path={`passenger_transport.${r.i}.id_type`}
                value={r.p.id_type}
                options={ID_TYPE_OPTIONS}
                onChange={(v) => set(r.p.key, { id_type: v })}
              />
            ),
          },
          text('id_no', '证件号码', 20, 180),
          { title: '出行日期', width: 140, render: (_, r) => <DateCell row={r} set={set} /> },
          text('origin', '出发地', 80),
          text('destination', '到达地', 80),
          {
            title: '交通工具',
            width: 110,
            render: (_, r) => (
              <PickCell
                label={`交通工具类型 第${r.i + 1}人`}
                path={`passenger_transport.${r.i}.vehicle_type`}
                value={r.p.vehicle_type}
                options={PASSENGER_VEHICLE_OPTIONS}
                onChange={(v) =>
                  set(r.p.key, { vehicle_type: v, seat_class: SEAT_CLASSES[v] ? r.p.seat_class : '' })
                }
              />
            ),
          },
          {
            title: '等级',
            width: 100,
            render: (_, r) => (
              <PickCell
                label={`等级 第${r.i + 1}人`}
                path={`passenger_transport.${r.i}.seat_class`}
                value={r.p.seat_class}
                disabled={!SEAT_CLASSES[r.p.vehicle_type]}
                options={(SEAT_CLASSES[r.p.vehicle_type] ?? []).map((c) => ({ value: c, label: c }))}
                onChange={(v) => set(r.p.key, { seat_class: v })}
              />
            ),
          },
          {
            title: '操作',
            width: 70,
            fixed: 'right',
            render: (_, r) => (
              <Button
                type="link"
                danger
                size="small"
                onClick={() => dispatch({ type: 'removePassenger', key: r.p.key })}
              >
                删除
              </Button>
            ),
          },
        ]}
      />
      <CellError message={listError} />
      <Button
        type="dashed"
        block
        icon={<PlusOutlined />}
        style={{ marginTop: 8 }}
        onClick={() => dispatch({ type: 'addPassenger' })}
      >
        添加出行人
      </Button>
    </>
  );
}
