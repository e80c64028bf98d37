import { act, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../lib/antd/provider.tsx';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';
import { FinanceBanner } from './finance-banner.tsx';

/** 快捷入口 stand-in at a given place in jsdom's 1024×768 viewport */
function Home({ mayFloat, rect }: { mayFloat: boolean; rect: Partial<DOMRect> }) {
  const ref = useRef<HTMLDivElement>(null);
  return (
    <MemoryRouter>
      <AntdProvider>
        <div
          ref={(el) => {
            ref.current = el;
            if (el)
              el.getBoundingClientRect = () => ({ left: 0, top: 0, right: 0, bottom: 0, ...rect }) as DOMRect;
          }}
        >
          快捷入口
        </div>
        <FinanceBanner mayFloat={mayFloat} keepClear={ref} />
      </AntdProvider>
    </MemoryRouter>
  );
}

const CLEAR = { left: 200, top: 300, right: 700, bottom: 400 };
/** reaches into the lower right corner, where the card floats */
const UNDER_CARD = { left: 200, top: 500, right: 1000, bottom: 700 };

const card = () => screen.queryByRole('button', { name: '收起金融服务' });
const tab = () => screen.queryByRole('button', { name: '打开金融服务' });

describe('finance banner (issue 24 item 9)', () => {
  afterEach(() => localStorage.clear());

  it('floats when nothing else interrupts and it lies over nothing to keep clear', () => {
    render(<Home mayFloat rect={CLEAR} />);
    expect(card()).not.toBeNull();
    expect(tab()).toBeNull();
  });

  it('waits as its tab while a prompt or another notice shows', () => {
    render(<Home mayFloat={false} rect={CLEAR} />);
    expect(card()).toBeNull();
    expect(tab()).not.toBeNull();
  });

  it('waits as its tab where it would lie over 快捷入口; the tab still opens it, and closing is remembered', () => {
    render(<Home mayFloat rect={UNDER_CARD} />);
    expect(card()).toBeNull();
    act(() => fireEvent.click(tab()!));
    expect(card()).not.toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.financeBanner)).toBeNull();
    act(() => fireEvent.click(card()!));
    expect(card()).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.financeBanner)).toBe('1');
  });

  it('stays folded on a later visit when the clerk folded it', () => {
    localStorage.setItem(STORAGE_KEYS.financeBanner, '1');
    render(<Home mayFloat rect={CLEAR} />);
    expect(card()).toBeNull();
    expect(tab()).not.toBeNull();
  });
});
