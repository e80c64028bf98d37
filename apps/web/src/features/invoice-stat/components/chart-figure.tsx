import { Button, Table, type TableColumnsType } from 'antd';
import { useId, useState } from 'react';
import { Chart, type ChartOption } from './echarts.tsx';

export type ChartData<Row> = {
  columns: TableColumnsType<Row>;
  rows: readonly Row[];
  rowKey: keyof Row & string;
};

/**
 * A chart with its text alternative (WCAG 1.1.1, issue 24 item 7): the canvas is an image named
 * after the chart, and 查看数据表 shows a table with the same numbers the chart draws.
 */
export function ChartFigure<Row extends object>({
  title,
  option,
  data,
}: {
  title: string;
  option: ChartOption;
  data: ChartData<Row>;
}) {
  const [open, setOpen] = useState(false);
  const tableId = useId();
  return (
    <figure style={{ margin: 0 }} aria-label={title}>
      {/* a canvas drawn for a wider window is clipped until the chart redraws (60 ms after its box
          changes), so the page never scrolls sideways meanwhile */}
      <div role="img" aria-label={`${title}图表，数字见“查看数据表”`} style={{ overflow: 'hidden' }}>
        <Chart option={option} />
      </div>
      <Button
        type="link"
        size="small"
        style={{ paddingInline: 0 }}
        aria-expanded={open}
        aria-controls={tableId}
        onClick={() => setOpen((v) => !v)}
      >
        {open ? '收起数据表' : '查看数据表'}
      </Button>
      <div id={tableId} hidden={!open}>
        {open && (
          <Table<Row>
            size="small"
            rowKey={data.rowKey}
            pagination={data.rows.length > 12 ? { pageSize: 12, size: 'small' } : false}
            columns={data.columns}
            dataSource={[...data.rows]}
          />
        )}
      </div>
    </figure>
  );
}
