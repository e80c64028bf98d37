import { render } from '@testing-library/react';
import { Select } from 'antd';
import { describe, expect, it } from 'vitest';
import { DeviceOption, DeviceValue } from './device-label.tsx';

const digital = {
  device_id: 1,
  name: '数电账户（电子发票服务平台）',
  kind: 'digital',
  kind_name: '数电账户',
  is_main: true,
  extension_no: 0,
  locked: false,
  online: true,
} as const;
const branch = {
  ...digital,
  device_id: 2,
  name: '税务UKey',
  kind: 'ukey',
  kind_name: '税务UKey',
  is_main: false,
  extension_no: 1,
  online: false,
} as const;
const locked = {
  ...digital,
  device_id: 3,
  name: '金税盘',
  kind: 'golden_disc',
  kind_name: '金税盘',
  locked: true,
} as const;

describe('device labels', () => {
  it('the list names kind, disc and state', () => {
    const { container } = render(<DeviceOption device={branch} />);
    expect(container.textContent).toBe('税务UKey税务UKey分盘1离线');
  });

  it('the chosen device shows its name, disc and state only — the state never pushed out by the kind', () => {
    const { container, rerender } = render(<DeviceValue device={digital} />);
    expect(container.textContent).toBe('数电账户（电子发票服务平台）在线');
    rerender(<DeviceValue device={branch} />);
    expect(container.textContent).toBe('税务UKey（分盘1）离线');
    rerender(<DeviceValue device={locked} />);
    expect(container.textContent).toBe('金税盘（主盘）已锁死');
  });

  it('in a select, the box shows the chosen value label, the list the full one', () => {
    const devices = [digital, branch];
    const { container } = render(
      <Select
        open
        value={1}
        options={devices.map((d) => ({ value: d.device_id, label: <DeviceOption device={d} /> }))}
        labelRender={({ value }) => <DeviceValue device={devices.find((d) => d.device_id === value)!} />}
      />,
    );
    expect(container.querySelector('.ant-select-selection-item')?.textContent).toBe(
      '数电账户（电子发票服务平台）在线',
    );
    expect([...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent)).toEqual([
      '数电账户（电子发票服务平台）数电账户在线',
      '税务UKey税务UKey分盘1离线',
    ]);
  });
});
