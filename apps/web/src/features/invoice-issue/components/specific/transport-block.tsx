import { PlusOutlined } from '@ant-design/icons';
import { Button, Select, Table } from 'antd';
import type { Dispatch } from 'react';
import type { DraftAction } from '../../utils/draft.ts';
import { VEHICLE_KINDS } from '../../utils/specific-rules.ts';
import type { Draft, DraftTransport } from '../../utils/types.ts';
import { CellError, useFirstError } from '../field.tsx';
import { RowInput } from './row-input.tsx';

// 04 货物运输服务 (domain.md §4.2): transport rows, independent of the item lines.

type Row = { t: DraftTransport; i: number };

function KindCell({ row, onChange }: { row: Row; onChange: (v: string) => void }) {
  const error = useFirstError([`goods_transport.${row.i}.vehicle_type`]);
  return (
    <div>
      <Select
        aria-label={`运输工具种类 第${row.i + 1}条`}
        value={row.t.vehicle_type || undefined}
        status={error ? 'error' : undefined}
        placeholder="请选择"
        style={{ width: '100%' }}
        options={VEHICLE_KINDS.map((k) => ({ value: k, label: k }))}
        onChange={onChange}
      />
      <CellError message={error} />
    </div>
  );
}

export function TransportBlock({ draft, dispatch }: { draft: Draft; dispatch: Dispatch<DraftAction> }) {
  const set = (key: string, patch: Partial<DraftTransport>) =>
    dispatch({ type: 'updateTransport', key, patch });
  const listError = useFirstError(['goods_transport']);
  const text = (field: keyof DraftTransport, label: string, max: number) => ({
    title: label,
    render: (_: unknown, r: Row) => (
      <RowInput
        label={`${label} 第${r.i + 1}条`}
        path={`goods_transport.${r.i}.${field}`}
        value={r.t[field]}
        max={max}
        onChange={(v) => set(r.t.key, { [field]: v })}
      />
    ),
  });
  return (
    <>
      <Table<Row>
        size="small"
        bordered
        pagination={false}
        rowKey={(r) => r.t.key}
        dataSource={draft.transports.map((t, i) => ({ t, i }))}
        columns={[
          { title: '序号', width: 56, align: 'center', render: (_, r) => r.i + 1 },
          {
            title: '运输工具种类',
            width: 150,
            render: (_, r) => <KindCell row={r} onChange={(v) => set(r.t.key, { vehicle_type: v })} />,
          },
          text('vehicle_no', '运输工具牌号', 40),
          text('origin', '起运地', 80),
          text('destination', '到达地', 80),
          text('goods_name', '运输货物名称', 80),
          {
            title: '操作',
            width: 70,
            render: (_, r) => (
              <Button
                type="link"
                danger
                size="small"
                onClick={() => dispatch({ type: 'removeTransport', key: r.t.key })}
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
        onClick={() => dispatch({ type: 'addTransport' })}
      >
        添加运输明细
      </Button>
    </>
  );
}
