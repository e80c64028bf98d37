import { fireEvent, render, screen } from '@testing-library/react';
import { Button } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { AntdProvider } from '../lib/antd/provider.tsx';
import { WhyDisabled } from './why-disabled.tsx';

describe('WhyDisabled (issue 24 item 2)', () => {
  it('disables the control and names the reason as its description', () => {
    const click = vi.fn();
    render(
      <AntdProvider>
        <WhyDisabled reason="请先选择开票设备">
          <Button onClick={click}>上传并校验</Button>
        </WhyDisabled>
      </AntdProvider>,
    );
    const button = screen.getByRole('button', { name: '上传并校验' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const described = document.getElementById(button.getAttribute('aria-describedby')!);
    expect(described?.textContent).toBe('请先选择开票设备');
    fireEvent.click(button);
    expect(click).not.toHaveBeenCalled();
  });

  it('says the reason beside the control when asked to', () => {
    render(
      <AntdProvider>
        <WhyDisabled reason="开票设备离线，请检查设备后重新校验" beside>
          <Button>开始开票</Button>
        </WhyDisabled>
      </AntdProvider>,
    );
    const text = screen.getByText('开票设备离线，请检查设备后重新校验');
    expect(text.style.position).not.toBe('absolute');
  });

  it('leaves the control as it is when there is no reason', () => {
    const click = vi.fn();
    render(
      <AntdProvider>
        <WhyDisabled reason={false}>
          <Button onClick={click}>查询</Button>
        </WhyDisabled>
      </AntdProvider>,
    );
    const button = screen.getByRole('button', { name: '查询' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-describedby')).toBeNull();
    fireEvent.click(button);
    expect(click).toHaveBeenCalledOnce();
  });
});
