import { TERMS } from '@kaipiao/shared/glossary/terms';
import { LIBRARY_STATUS, type LibraryStatus } from '@kaipiao/shared/schemas/query';
import { Tag } from 'antd';

// preset colours, not antd's status ones (success/processing/error/warning): a status tag draws its
// text in the bright colour itself (#52c41a on #f6ffed, 2.2:1), a preset tag in the colour's 7th
// shade, which the theme (lib/antd/theme.ts) keeps at 4.5:1 or more
const COLORS: Record<LibraryStatus, string> = {
  normal: 'green',
  issuing: 'blue',
  failed: 'red',
  unknown: 'gold',
  voided: 'default',
  partial_red: 'orange',
  full_red: 'volcano',
};

/** The library's status tag (正常 / 开具中 / 开具失败 / 结果待确认 / 已作废 / 部分红冲 / 全额红冲: LIBRARY_STATUS). */
export function StatusTag({ status }: { status: LibraryStatus }) {
  return (
    <Tag color={COLORS[status]} bordered={false}>
      {LIBRARY_STATUS[status]}
    </Tag>
  );
}

/** 蓝字 / 红字 */
export function DirectionTag({ direction }: { direction: 'blue' | 'red' }) {
  return direction === 'red' ? (
    <Tag color="red" bordered={false}>
      {TERMS.redShort}
    </Tag>
  ) : (
    <Tag color="blue" bordered={false}>
      {TERMS.blueShort}
    </Tag>
  );
}
