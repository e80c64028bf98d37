import {
  BATCH_ROW_STATUS,
  BATCH_STATUS,
  type BatchRowStatus,
  type BatchStatus,
} from '@kaipiao/shared/schemas/batch';
import { Tag } from 'antd';

const BATCH_COLOR: Record<BatchStatus, string> = {
  ready: 'blue',
  running: 'processing',
  paused: 'warning',
  cancelled: 'default',
  done: 'success',
};

const ROW_COLOR: Record<BatchRowStatus, string> = {
  pending: 'default',
  issuing: 'processing',
  issued: 'success',
  failed: 'error',
  skipped: 'default',
};

export function BatchStatusTag({ status, failed = 0 }: { status: BatchStatus; failed?: number }) {
  if (status === 'done' && failed > 0) return <Tag color="warning">已完成（有失败）</Tag>;
  return <Tag color={BATCH_COLOR[status]}>{BATCH_STATUS[status]}</Tag>;
}

export function RowStatusTag({ status }: { status: BatchRowStatus }) {
  return <Tag color={ROW_COLOR[status]}>{BATCH_ROW_STATUS[status]}</Tag>;
}

/** "2026-03-01 10:20:30" in Beijing time. */
