import { ReloadOutlined } from '@ant-design/icons';
import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { formatMoney } from '@kaipiao/shared/money/capital';
import type { StatSummary } from '@kaipiao/shared/schemas/query';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Row,
  Segmented,
  Select,
  Space,
  Spin,
  Statistic,
  Table,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { permittedStoresQuery } from '../../../api/stores.ts';
import { DANGER, PRIMARY } from '../../../lib/antd/theme.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { firstStatRange, statRequest, statSummaryQuery } from '../api.ts';
import { kindOption, rateOption, storeOption, trendOption } from '../chart-options.ts';
import { statPresets, statToday } from '../ranges.ts';
import { ChartFigure } from './chart-figure.tsx';

type Granularity = 'day' | 'month';
type Trend = StatSummary['trend'][number];

/** 近7天 … 本年 on the Beijing calendar, worked out when picked (ranges.ts) */
const PRESETS = statPresets();

const yuan = (v: string) => `¥${formatMoney(v)}`;
/** red text on white (the 红字 figure): the theme's danger red, 5.57:1 (antd's #f5222d: 4.08:1) */
const RED = DANGER;

const right = 'right' as const;
const yuanCell = (v: string) => yuan(v);

/** The numbers each chart draws, as the columns of its data table (ChartFigure). */
const trendData = (trend: Trend[], granularity: Granularity) => ({
  rowKey: 'period' as const,
  rows: trend,
  columns: [
    { title: granularity === 'day' ? '日期' : '月份', dataIndex: 'period' },
    { title: TERMS.totalWithTax, dataIndex: 'total_with_tax', align: right, render: yuanCell },
    { title: '开票张数', dataIndex: 'count', align: right },
  ],
});
const kindData = (d: StatSummary) => {
  const total = d.by_kind.reduce((n, k) => n + k.count, 0);
  return {
    rowKey: 'name' as const,
    rows: d.by_kind.map((k) => ({
      ...k,
      share: total ? `${Math.round((k.count / total) * 1000) / 10}%` : '—',
    })),
    columns: [
      { title: TERMS.invoiceKind, dataIndex: 'name' },
      { title: '张数', dataIndex: 'count', align: right },
      { title: '占比', dataIndex: 'share', align: right },
    ],
  };
};
const rateData = (d: StatSummary) => ({
  rowKey: 'label' as const,
  rows: d.by_rate,
  columns: [
    { title: TERMS.taxRate, dataIndex: 'label' },
    { title: TERMS.amount, dataIndex: 'total_amount', align: right, render: yuanCell },
    { title: TERMS.taxAmount, dataIndex: 'total_tax', align: right, render: yuanCell },
  ],
});
const storeData = (d: StatSummary) => ({
  rowKey: 'store_name' as const,
  rows: d.by_store,
  columns: [
    { title: TERMS.store, dataIndex: 'store_name' },
    { title: TERMS.totalWithTax, dataIndex: 'total_with_tax', align: right, render: yuanCell },
  ],
});

const money = (v: string) => (
  <Typography.Text type={v.startsWith('-') ? 'danger' : undefined}>{formatMoney(v)}</Typography.Text>
);

/** spec §2 开票统计 (/query/invoice-stat): by day or month, kind, rate, store; red invoices net out. */
export function StatPage() {
  const business = useSessionStore((s) => s.business);
  const store = useSessionStore((s) => s.store);
  const summary = store?.client_store_id === SUMMARY_STORE_ID;
  const [range, setRange] = useState<[Dayjs, Dayjs]>(firstStatRange);
  const [granularity, setGranularity] = useState<Granularity>('day');
  const [storeIds, setStoreIds] = useState<number[]>([]);
  const stores = useQuery({ ...permittedStoresQuery(), enabled: summary });
  const body = useMemo(() => statRequest(range, granularity, storeIds), [range, granularity, storeIds]);
  const q = useQuery(statSummaryQuery(`${business?.client_id}:${store?.client_store_id}`, body));
  const d = q.data;

  const pickRange = (v: [Dayjs, Dayjs]) => {
    setRange(v);
    // long ranges read better by month; the server allows day-by-day up to 366 days
    if (v[1].diff(v[0], 'day') > 92) setGranularity('month');
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless">
        <Space wrap size={16}>
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            presets={PRESETS}
            disabledDate={(day) => day.isAfter(statToday(), 'day')}
            onChange={(v) => v?.[0] && v[1] && pickRange([v[0], v[1]])}
          />
          <Segmented<Granularity>
            value={granularity}
            onChange={setGranularity}
            options={[
              { label: '按日', value: 'day', disabled: range[1].diff(range[0], 'day') > 365 },
              { label: '按月', value: 'month' },
            ]}
          />
          {summary && (
            <Select
              mode="multiple"
              allowClear
              placeholder={`全部有权限的${TERMS.store}`}
              style={{ minWidth: 240 }}
              maxTagCount="responsive"
              loading={stores.isLoading}
              value={storeIds}
              onChange={setStoreIds}
              options={(stores.data ?? []).map((s) => ({ label: s.name, value: s.client_store_id }))}
            />
          )}
          <Button icon={<ReloadOutlined />} onClick={() => q.refetch()} loading={q.isFetching}>
            刷新
          </Button>
        </Space>
        {summary && (
          <Alert
            style={{ marginTop: 12 }}
            type="info"
            showIcon
            message={`当前为全部${TERMS.store}数据汇总：统计您有权限的所有${TERMS.store}；${TERMS.redInvoice}以负数计入，与对应${TERMS.blueInvoice}相互抵减。`}
          />
        )}
      </Card>

      {q.isError && <Alert type="error" showIcon message="统计数据加载失败，请稍后重试" />}
      <Spin spinning={q.isFetching && !d}>
        {d && (
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Row gutter={[16, 16]}>
              <Col xs={12} lg={6}>
                <Card variant="borderless">
                  <Statistic title="开票张数" value={d.totals.count} suffix="张" />
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {TERMS.blueShort} {d.blue.count} · {TERMS.redShort} {d.red.count}
                  </Typography.Text>
                </Card>
              </Col>
              <Col xs={12} lg={6}>
                <Card variant="borderless">
                  <Statistic title={`${TERMS.totalAmount}（不含税）`} value={yuan(d.totals.total_amount)} />
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {TERMS.redLetter} {yuan(d.red.total_amount)}
                  </Typography.Text>
                </Card>
              </Col>
              <Col xs={12} lg={6}>
                <Card variant="borderless">
                  <Statistic title={TERMS.totalTax} value={yuan(d.totals.total_tax)} />
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {TERMS.redLetter} {yuan(d.red.total_tax)}
                  </Typography.Text>
                </Card>
              </Col>
              <Col xs={12} lg={6}>
                <Card variant="borderless">
                  <Statistic
                    title={TERMS.totalWithTax}
                    value={yuan(d.totals.total_with_tax)}
                    valueStyle={{ color: PRIMARY }}
                  />
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {TERMS.blueShort} {yuan(d.blue.total_with_tax)} · {TERMS.redShort}{' '}
                    <span style={{ color: RED }}>{yuan(d.red.total_with_tax)}</span>
                  </Typography.Text>
                </Card>
              </Col>
            </Row>
            <Card variant="borderless" title={`开票趋势（${granularity === 'day' ? '按日' : '按月'}）`}>
              <ChartFigure
                title="开票趋势"
                option={trendOption(d.trend)}
                data={trendData(d.trend, granularity)}
              />
            </Card>
            <Row gutter={[16, 16]}>
              <Col xs={24} xl={8}>
                <Card variant="borderless" title={`${TERMS.invoiceKind}（张数）`}>
                  {d.by_kind.length ? (
                    <ChartFigure title={TERMS.invoiceKind} option={kindOption(d)} data={kindData(d)} />
                  ) : (
                    <Empty />
                  )}
                </Card>
              </Col>
              <Col xs={24} xl={8}>
                <Card
                  variant="borderless"
                  title={`按${TERMS.taxRate}（${TERMS.amount} / ${TERMS.taxAmount}）`}
                >
                  {d.by_rate.length ? (
                    <ChartFigure title={`按${TERMS.taxRate}`} option={rateOption(d)} data={rateData(d)} />
                  ) : (
                    <Empty />
                  )}
                </Card>
              </Col>
              <Col xs={24} xl={8}>
                <Card variant="borderless" title={`按${TERMS.store}（${TERMS.totalWithTax}）`}>
                  {d.by_store.length ? (
                    <ChartFigure title={`按${TERMS.store}`} option={storeOption(d)} data={storeData(d)} />
                  ) : (
                    <Empty />
                  )}
                </Card>
              </Col>
            </Row>
            <Card variant="borderless" title="明细">
              <Table<Trend>
                rowKey="period"
                size="small"
                dataSource={[...d.trend].reverse()}
                pagination={{
                  defaultPageSize: 10,
                  pageSizeOptions: ['10', '20', '30'],
                  showSizeChanger: true,
                }}
                columns={[
                  { title: granularity === 'day' ? '日期' : '月份', dataIndex: 'period', width: 120 },
                  { title: '开票张数', dataIndex: 'count', align: 'right' },
                  { title: TERMS.blueShort, dataIndex: 'blue_count', align: 'right' },
                  { title: TERMS.redShort, dataIndex: 'red_count', align: 'right' },
                  { title: TERMS.totalAmount, dataIndex: 'total_amount', align: 'right', render: money },
                  { title: TERMS.totalTax, dataIndex: 'total_tax', align: 'right', render: money },
                  { title: TERMS.totalWithTax, dataIndex: 'total_with_tax', align: 'right', render: money },
                ]}
                summary={() => (
                  <Table.Summary.Row>
                    <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
                    <Table.Summary.Cell index={1} align="right">
                      {d.totals.count}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={2} align="right">
                      {d.blue.count}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={3} align="right">
                      {d.red.count}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={4} align="right">
                      {money(d.totals.total_amount)}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={5} align="right">
                      {money(d.totals.total_tax)}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={6} align="right">
                      {money(d.totals.total_with_tax)}
                    </Table.Summary.Cell>
                  </Table.Summary.Row>
                )}
              />
            </Card>
          </Space>
        )}
      </Spin>
    </Space>
  );
}
