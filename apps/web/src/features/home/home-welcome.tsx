import {
  AppstoreOutlined,
  BarChartOutlined,
  ContactsOutlined,
  FileAddOutlined,
  FileSearchOutlined,
  ShopOutlined,
} from '@ant-design/icons';
import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { formatMoney } from '@kaipiao/shared/money/capital';
import type { HomeOverview, StatSums } from '@kaipiao/shared/schemas/query';
import { MSG } from '@kaipiao/shared/validation/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import {
  openDialog,
  queuePrompt,
  useDialogStore,
  usePromptsIdle,
} from '../../components/dialog-host/index.ts';
import { useAccess } from '../../lib/access-context.tsx';
import { toastSuccess } from '../../lib/antd/feedback.ts';
import { scopedKey } from '../../lib/query-scope.ts';
import { useSessionStore } from '../../stores/session-store.ts';
import { closeTaxRateTip, homeOverviewQuery } from './api.ts';
import { FINANCE_TAB_ROOM, FinanceBanner } from './finance-banner.tsx';
import { SmallScaleMeter } from './small-scale-meter.tsx';

function greeting(hour: number) {
  if (hour < 12) return '上午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

type QuickLink = { path: string; title: string; icon: ReactNode };

function quickLinks(hotel: boolean): QuickLink[] {
  return [
    {
      path: hotel ? '/hotel/invoice/online' : '/invoice/online',
      title: '开具发票',
      icon: <FileAddOutlined />,
    },
    {
      path: hotel ? '/hotel/query/invoice' : '/query/invoice',
      title: '发票明细',
      icon: <FileSearchOutlined />,
    },
    { path: '/query/invoice-stat', title: '开票统计', icon: <BarChartOutlined /> },
    {
      path: hotel ? '/hotel/device-project/project' : '/device-project/project',
      title: TERMS.goodsCode,
      icon: <AppstoreOutlined />,
    },
    { path: '/device-project/title', title: TERMS.buyerTitle, icon: <ContactsOutlined /> },
  ];
}

function Kpi({ title, sums, hint }: { title: string; sums: StatSums | undefined; hint?: string }) {
  return (
    <Card variant="borderless" style={{ height: '100%' }}>
      {sums ? (
        <>
          <Statistic title={title} value={`¥${formatMoney(sums.total_with_tax)}`} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {sums.count} 张 · 不含税 ¥{formatMoney(sums.total_amount)} · {TERMS.taxAmount} ¥
            {formatMoney(sums.total_tax)}
            {hint ? ` · ${hint}` : ''}
          </Typography.Text>
        </>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} />
      )}
    </Card>
  );
}

/**
 * 今日开票: the net (blue + red; red amounts are negative) and the blue and red invoices apart, so a
 * negative day reads as what it is (issue 24).
 */
function TodayKpi({ d }: { d: HomeOverview | undefined }) {
  const part = (label: string, sums: StatSums, danger = false) => (
    <Typography.Text type={danger ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
      {label} {sums.count} 张 · ¥{formatMoney(sums.total_with_tax)}
    </Typography.Text>
  );
  return (
    <Card variant="borderless" style={{ height: '100%' }} role="region" aria-label="今日开票">
      {d ? (
        <>
          <Statistic
            title={`今日开票净额（${TERMS.totalWithTax}）`}
            value={`¥${formatMoney(d.today.total_with_tax)}`}
          />
          <Space size={12} wrap>
            {part(TERMS.blueShort, d.today_blue)}
            {part(TERMS.redShort, d.today_red, d.today_red.count > 0)}
          </Space>
        </>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} />
      )}
    </Card>
  );
}

/** /home/index: who and where, the invoicing figures, the tax prompts and quick links. */
export function HomeWelcome() {
  const user = useSessionStore((s) => s.user);
  const business = useSessionStore((s) => s.business);
  const store = useSessionStore((s) => s.store);
  const summary = store?.client_store_id === SUMMARY_STORE_ID;
  const access = useAccess();
  const queryClient = useQueryClient();
  const overview = useQuery(
    homeOverviewQuery(business?.client_id ?? 0, store?.client_store_id ?? SUMMARY_STORE_ID),
  );
  const d = overview.data;
  const entryPending = useDialogStore((s) => s.entryPending);
  const promptsIdle = usePromptsIdle();
  const noticeShown = useRef(false);
  const quickLinksRef = useRef<HTMLDivElement>(null);

  // spec §1 tax notice: once per visit, queued after the console's entry prompts (issue 24 item 9)
  useEffect(() => {
    if (!d?.small_scale.show_notice || noticeShown.current || entryPending) return;
    noticeShown.current = true;
    queuePrompt({
      kind: 'small-scale-notice',
      props: {
        monthSales: d.small_scale.month_sales,
        quarterSales: d.small_scale.quarter_sales,
        monthThreshold: d.small_scale.month_threshold,
        quarterThreshold: d.small_scale.quarter_threshold,
        onAnswered: () => void queryClient.invalidateQueries({ queryKey: scopedKey('home-overview') }),
      },
    });
  }, [d, entryPending, queryClient]);
  // page notices wait for the prompts, and one shows at a time: the tax-rate tip, then the banner
  const taxTipShowing = promptsIdle && d?.tax_rate_tip.show === true;

  async function dismissTip() {
    try {
      await closeTaxRateTip();
      toastSuccess('已关闭该提示');
      await queryClient.invalidateQueries({ queryKey: scopedKey('home-overview') });
    } catch {
      // shown by the API client
    }
  }

  const links = quickLinks(business?.industry === 'hotel').filter((l) => {
    const a = access.of(l.path);
    return a.visible && !a.disabled;
  });

  return (
    <Row gutter={[16, 16]} style={{ marginBottom: FINANCE_TAB_ROOM }}>
      {taxTipShowing && d && (
        <Col span={24}>
          <Alert
            type="warning"
            showIcon
            message={d.tax_rate_tip.title}
            description={d.tax_rate_tip.content}
            action={
              <Button size="small" onClick={dismissTip}>
                我知道了
              </Button>
            }
          />
        </Col>
      )}
      <Col span={24}>
        <Card variant="borderless">
          <Typography.Title level={4} style={{ marginTop: 0 }}>
            {greeting(dayjs().hour())}，{user?.nickname || user?.account || ''}
          </Typography.Title>
          <Descriptions column={{ xs: 1, md: 3 }} size="small">
            <Descriptions.Item label="当前企业">{business?.name ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={TERMS.taxCode}>{business?.tax_code ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={`当前${TERMS.store}`}>
              <Link to="/user/switch-store">
                <ShopOutlined /> {store?.name ?? `请选择${TERMS.store}`}
              </Link>
            </Descriptions.Item>
          </Descriptions>
          {summary && <Alert type="info" showIcon message={MSG.SUMMARY_GUIDE} style={{ marginTop: 12 }} />}
        </Card>
      </Col>
      {overview.isError && (
        <Col span={24}>
          <Alert type="warning" showIcon message="开票数据加载失败，请稍后刷新" />
        </Col>
      )}
      <Col xs={24} md={8}>
        <TodayKpi d={d} />
      </Col>
      <Col xs={24} md={8}>
        <Kpi title={`本月开票（${d?.month_label ?? ''}）`} sums={d?.month} />
      </Col>
      <Col xs={24} md={8}>
        <Kpi
          title={`本季度开票（${d?.quarter_label ?? ''}）`}
          sums={d?.quarter}
          hint={`${TERMS.redShort}已抵减`}
        />
      </Col>
      {d?.small_scale.applies && (
        <Col xs={24} lg={12}>
          <Card
            variant="borderless"
            title="小规模纳税人免征额度"
            extra={
              <Button
                type="link"
                size="small"
                onClick={() =>
                  openDialog('small-scale-notice', {
                    monthSales: d.small_scale.month_sales,
                    quarterSales: d.small_scale.quarter_sales,
                    monthThreshold: d.small_scale.month_threshold,
                    quarterThreshold: d.small_scale.quarter_threshold,
                  })
                }
              >
                政策说明
              </Button>
            }
          >
            <SmallScaleMeter
              monthSales={d.small_scale.month_sales}
              quarterSales={d.small_scale.quarter_sales}
              monthThreshold={d.small_scale.month_threshold}
              quarterThreshold={d.small_scale.quarter_threshold}
            />
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '12px 0 0' }}>
              按普通发票不含税销售额统计，{TERMS.redInvoice}已抵减
              {d.small_scale.partial_scope ? `；仅含您有权限的${TERMS.store}` : ''}。
            </Typography.Paragraph>
          </Card>
        </Col>
      )}
      <Col xs={24} lg={d?.small_scale.applies ? 12 : 24}>
        <Card ref={quickLinksRef} variant="borderless" title="快捷入口" style={{ height: '100%' }}>
          <Space wrap size={[12, 12]}>
            {links.map((l) => (
              <Link key={l.path} to={l.path}>
                <Button icon={l.icon} size="large">
                  {l.title}
                </Button>
              </Link>
            ))}
          </Space>
        </Card>
      </Col>
      <FinanceBanner mayFloat={promptsIdle && !taxTipShowing} keepClear={quickLinksRef} />
    </Row>
  );
}
