import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SmsCodeButton } from './sms-code-button.tsx';

describe('SmsCodeButton', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const click = async () => {
    await act(async () => {
      screen.getByRole('button').click();
    });
  };

  it('counts down "Ns后重试" for the seconds the server asks, then offers to send again', async () => {
    render(<SmsCodeButton onSend={async () => 60} />);
    expect(screen.getByRole('button', { name: '获取短信验证码' })).toBeTruthy();
    await click();
    const waiting = screen.getByRole('button', { name: '60s后重试' });
    expect(waiting).toHaveProperty('disabled', true);
    await act(async () => vi.advanceTimersByTime(59_000));
    expect(screen.getByRole('button', { name: '1s后重试' })).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('button', { name: '获取短信验证码' })).toHaveProperty('disabled', false);
  });

  it('does not count down when sending failed', async () => {
    render(
      <SmsCodeButton
        onSend={async () => {
          throw new Error('图形验证码错误');
        }}
      />,
    );
    await click();
    expect(screen.getByRole('button', { name: '获取短信验证码' })).toHaveProperty('disabled', false);
  });
});
