import { LIBRARY_STATUS, type LibraryStatus } from '@kaipiao/shared/schemas/query';
import { Tag } from 'antd';

const COLORS: Record<LibraryStatus, string> = {
  normal: 'success',
  issuing: 'processing',
  failed: 'error',
  unknown: 'warning',
  voided: 'default',
  partial_red: 'orange',
  full_red: 'volcano',
};

/** The library's status tag (正常 / 开具中 / 失败 / 待确认 / 作废 / 部分红冲 / 全额红冲). */
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
      红字
    </Tag>
  ) : (
    <Tag color="blue" bordered={false}>
      蓝字
    </Tag>
  );
}
