import { formatMoney } from '@kaipiao/shared/money/capital';
import { dec } from '@kaipiao/shared/money/decimal';
import { Progress, Space, Typography } from 'antd';

/** Share of a threshold, 0–100 (Progress caps it; the text says when it is over). */
export function usedPercent(sales: string, threshold: string): number {
  const t = Number(threshold);
  return t > 0 ? Math.max(0, Math.round((Number(sales) / t) * 1000) / 10) : 0;
}

function Meter({ label, sales, threshold }: { label: string; sales: string; threshold: string }) {
  const pct = usedPercent(sales, threshold);
  const over = Number(sales) > Number(threshold);
  return (
    <div>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text>{label}</Typography.Text>
        <Typography.Text type={over ? 'danger' : 'secondary'}>
          ¥{formatMoney(sales)} / ¥{formatMoney(threshold)}
        </Typography.Text>
      </Space>
      <Progress
        aria-label={`${label}占免征额度`}
        percent={Math.min(pct, 100)}
        status={over ? 'exception' : pct >= 80 ? 'active' : 'normal'}
        strokeColor={over ? undefined : pct >= 80 ? '#faad14' : '#52c41a'}
        format={() => `${pct}%`}
      />
      <Typography.Text type={over ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
        {over
          ? `已超过${label.slice(0, 2)}免征额度，超出部分不享受免征增值税`
          : `距免征额度还有 ¥${formatMoney(dec(threshold).minus(dec(sales)))}`}
      </Typography.Text>
    </div>
  );
}

/** Month and quarter ordinary-invoice sales (tax-exclusive) against ¥100,000 / ¥300,000. */
export function SmallScaleMeter(p: {
  monthSales: string;
  quarterSales: string;
  monthThreshold: string;
  quarterThreshold: string;
}) {
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Meter label="本月销售额" sales={p.monthSales} threshold={p.monthThreshold} />
      <Meter label="本季销售额" sales={p.quarterSales} threshold={p.quarterThreshold} />
    </Space>
  );
}
