import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AntdProvider } from '../../lib/antd/provider.tsx';
import { apiOk } from '../../test/api.ts';
import { apiCalls, server } from '../../test/msw.ts';
import { SmallScaleMeter, usedPercent } from './small-scale-meter.tsx';
import SmallScaleNoticeDialog from './small-scale-notice-dialog.tsx';

describe('small-scale meter and notice', { timeout: 60_000 }, () => {
  it('measures sales against the thresholds', () => {
    expect(usedPercent('75932.98', '100000.00')).toBe(75.9);
    expect(usedPercent('0.00', '300000.00')).toBe(0);
    expect(usedPercent('120000.00', '100000.00')).toBe(120);
  });

  it('says how much is left, or that the month is over the exemption', () => {
    render(
      <AntdProvider>
        <SmallScaleMeter
          monthSales="120000.00"
          quarterSales="287181.85"
          monthThreshold="100000.00"
          quarterThreshold="300000.00"
        />
      </AntdProvider>,
    );
    expect(screen.getByText(/已超过本月免征额度/)).toBeTruthy();
    expect(screen.getByText('距免征额度还有 ¥12,818.15')).toBeTruthy();
  });

  it('shows the spec text; 不再提醒 and 确定 are sent to the server', async () => {
    server.use(apiOk('POST', '/v3/home/small-scale-notice', null));
    const onClose = vi.fn();
    const onAnswered = vi.fn();
    render(
      <AntdProvider>
        <SmallScaleNoticeDialog
          open
          onClose={onClose}
          afterClose={() => undefined}
          monthSales="100.00"
          quarterSales="100.00"
          monthThreshold="100000.00"
          quarterThreshold="300000.00"
          onAnswered={onAnswered}
        />
      </AntdProvider>,
    );
    expect(screen.getByText(/2023年1月1日至2027年12月31日/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '不再提醒' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [call] = apiCalls();
    expect(call?.path).toBe('/v3/home/small-scale-notice');
    expect(call?.body).toEqual({ action: 'never' });
    expect(onAnswered).toHaveBeenCalled();
  });
});
