import { beijingDay } from '@kaipiao/shared/time/beijing';
import dayjs, { type Dayjs } from 'dayjs';

// 开票统计's date ranges. The server counts invoices by the Beijing calendar day, so "today" is
// Beijing's whatever the browser's time zone (a clerk abroad, a laptop left on UTC).

/** Today on the Beijing calendar, as a date (local midnight of that day). */
export const statToday = (now: Date = new Date()): Dayjs => dayjs(beijingDay(now));

/** The page's first range: 近30天, today included. */
export const firstStatRange = (now?: Date): [Dayjs, Dayjs] => {
  const today = statToday(now);
  return [today.subtract(29, 'day'), today];
};

type Preset = { label: string; value: () => [Dayjs, Dayjs] };

/**
 * The range picker's presets, each worked out when it is picked: a page left open past midnight
 * offers the new day's ranges.
 */
export function statPresets(now: () => Date = () => new Date()): Preset[] {
  const from = (range: (today: Dayjs) => [Dayjs, Dayjs]) => () => range(statToday(now()));
  return [
    { label: '近7天', value: from((t) => [t.subtract(6, 'day'), t]) },
    { label: '近30天', value: () => firstStatRange(now()) },
    { label: '本月', value: from((t) => [t.startOf('month'), t]) },
    {
      label: '上月',
      value: from((t) => [t.subtract(1, 'month').startOf('month'), t.subtract(1, 'month').endOf('month')]),
    },
    { label: '本季度', value: from((t) => [t.startOf('month').subtract(t.month() % 3, 'month'), t]) },
    { label: '近12个月', value: from((t) => [t.subtract(11, 'month').startOf('month'), t]) },
    { label: '本年', value: from((t) => [t.startOf('year'), t]) },
  ];
}
