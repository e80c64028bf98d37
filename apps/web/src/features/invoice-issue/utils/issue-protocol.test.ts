import { CODE, INVOICE_CODE, type IssueResult } from '@kaipiao/shared';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-error.ts';
import type { BlueInvoicePayload } from './build-request.ts';
import { fieldErrorsOf, type IssueCalls, sendIssue } from './issue-protocol.ts';

const payload = { serial_no: 'WEBabc12345' } as BlueInvoicePayload;

const result = (status: IssueResult['status'], extra: Partial<IssueResult> = {}): IssueResult => ({
  invoice_id: 9,
  serial_no: 'WEBabc12345',
  status,
  invoice_type: '82',
  invoice_code: '',
  invoice_no: status === 'issued' ? '25332000000000000001' : null,
  issued_at: status === 'issued' ? '2025-06-01T02:00:00.000Z' : null,
  total_price_with_tax: '106.00',
  error_message: null,
  ...extra,
});

function calls(over: Partial<IssueCalls>): IssueCalls {
  return {
    issue: vi.fn(async () => result('issued')),
    result: vi.fn(async () => {
      throw new ApiError('code', '没有该流水号', { code: INVOICE_CODE.SERIAL_NOT_FOUND });
    }),
    reconcile: vi.fn(async () => null),
    sleep: vi.fn(async () => {}),
    ...over,
  };
}

describe('sendIssue', () => {
  it('answers issued when the server issues', async () => {
    const c = calls({});
    expect(await sendIssue(payload, c)).toMatchObject({
      kind: 'issued',
      result: { invoice_no: '25332000000000000001' },
    });
    expect(c.result).not.toHaveBeenCalled();
  });

  it('maps 10001 data.errors onto field paths', async () => {
    const c = calls({
      issue: vi.fn(async () => {
        throw new ApiError('code', '第2行税额误差超过0.06', {
          code: CODE.VALIDATION,
          data: {
            errors: [
              { field: 'goods_info.1.tax_amount', message: '第2行税额误差超过0.06' },
              { field: 'buyer[tax_code]', message: 'x' },
            ],
          },
        });
      }),
    });
    expect(await sendIssue(payload, c)).toEqual({
      kind: 'rejected',
      message: '第2行税额误差超过0.06',
      errors: { 'goods_info.1.tax_amount': '第2行税额误差超过0.06', 'buyer[tax_code]': 'x' },
    });
    expect(fieldErrorsOf({ errors: [{ field: 'goods_info[1].amount', message: 'm' }] })).toEqual({
      'goods_info.1.amount': 'm',
    });
  });

  it('after a time-out asks for the serial and finds the invoice', async () => {
    const c = calls({
      issue: vi.fn(async () => {
        throw new ApiError('timeout', '请求超时了，请稍候重试');
      }),
      result: vi.fn().mockResolvedValueOnce(result('issuing')).mockResolvedValueOnce(result('issued')),
    });
    expect(await sendIssue(payload, c)).toMatchObject({ kind: 'issued' });
    expect(c.result).toHaveBeenCalledTimes(2);
    expect(c.result).toHaveBeenCalledWith('WEBabc12345');
  });

  it('an unknown channel answer (13111) is reconciled by serial', async () => {
    const c = calls({
      issue: vi.fn(async () => {
        throw new ApiError('code', '结果未知', {
          code: INVOICE_CODE.CHANNEL_TIMEOUT,
          data: result('unknown'),
        });
      }),
      result: vi.fn(async () => result('unknown')),
      reconcile: vi.fn(async () => result('issued')),
    });
    expect(await sendIssue(payload, c)).toMatchObject({ kind: 'issued' });
    expect(c.reconcile).toHaveBeenCalledWith('WEBabc12345');
  });

  it('stays unknown when the server never saw the request', async () => {
    const c = calls({
      issue: vi.fn(async () => {
        throw new ApiError('network', '网络开小差了，请稍候重试');
      }),
    });
    expect(await sendIssue(payload, c)).toMatchObject({
      kind: 'unknown',
      message: '网络开小差了，请稍候重试',
    });
  });

  it('a coded refusal is a definitive failure, a reused serial a conflict', async () => {
    const over = calls({
      issue: vi.fn(async () => {
        throw new ApiError('code', '超过单张开票限额', { code: INVOICE_CODE.OVER_INVOICE_LIMIT });
      }),
    });
    expect(await sendIssue(payload, over)).toEqual({
      kind: 'failed',
      message: '超过单张开票限额',
      code: INVOICE_CODE.OVER_INVOICE_LIMIT,
    });
    const conflict = calls({
      issue: vi.fn(async () => {
        throw new ApiError('code', '流水号已被使用', { code: INVOICE_CODE.SERIAL_CONFLICT });
      }),
    });
    expect(await sendIssue(payload, conflict)).toMatchObject({ kind: 'conflict' });
  });
});
