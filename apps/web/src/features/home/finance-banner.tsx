import { BankOutlined, CloseOutlined } from '@ant-design/icons';
import { Button, Card, Typography } from 'antd';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';

/** antd's orange-8: white text on it reaches WCAG AA (on orange-6 #fa8c16 it was 2.37:1) */
const FINANCE_ORANGE = '#ad4e00';

const GAP = 24;
const WIDTH = 260;
const TAB_BOTTOM = 8;
/** room the home page keeps below its last row, so that the tab lies over none of it */
export const FINANCE_TAB_ROOM = 48;

const intersects = (a: DOMRect, b: { left: number; top: number; right: number; bottom: number }) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Whether the floating card, at the viewport's lower right, would lie over `keepClear` — measured on
 * scroll (any scroller), resize and when either changes size.
 */
function useWouldCover(keepClear: RefObject<HTMLElement | null>, card: RefObject<HTMLElement | null>) {
  const [covers, setCovers] = useState(true);
  useEffect(() => {
    const measure = () => {
      const target = keepClear.current;
      if (!target) return;
      const height = card.current?.offsetHeight || 140;
      const right = window.innerWidth - GAP;
      const bottom = window.innerHeight - GAP;
      setCovers(
        intersects(target.getBoundingClientRect(), {
          left: right - WIDTH,
          top: bottom - height,
          right,
          bottom,
        }),
      );
    };
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (keepClear.current) observer?.observe(keepClear.current);
    if (card.current) observer?.observe(card.current);
    const row = keepClear.current?.parentElement?.parentElement;
    if (row) observer?.observe(row);
    // the content above 快捷入口 grows and shrinks (a notice, the figures): the page's height moves it
    observer?.observe(document.body);
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, { capture: true, passive: true });
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure, { capture: true });
    };
  }, [keepClear, card]);
  return covers;
}

/**
 * spec §2 layout: the floating finance banner on home, closable to a side tab (the fold is
 * remembered). Its page is /huo-dong/op-loan. Issue 24 item 9: it floats only when no prompt or
 * other page notice is showing (`mayFloat`) and it would not lie over `keepClear` (快捷入口);
 * otherwise it waits as the side tab, without remembering that as the clerk's fold.
 */
export function FinanceBanner({
  mayFloat,
  keepClear,
}: {
  mayFloat: boolean;
  keepClear: RefObject<HTMLElement | null>;
}) {
  const [folded, setFolded] = useState(() => localStorage.getItem(STORAGE_KEYS.financeBanner) === '1');
  const card = useRef<HTMLDivElement>(null);
  const covers = useWouldCover(keepClear, card);
  /** the clerk opened it from the tab: it shows whatever else is on the page */
  const [asked, setAsked] = useState(false);
  const fold = (v: boolean) => {
    setFolded(v);
    if (v) localStorage.setItem(STORAGE_KEYS.financeBanner, '1');
    else localStorage.removeItem(STORAGE_KEYS.financeBanner);
  };
  if (folded || (!asked && (!mayFloat || covers))) {
    return (
      <button
        type="button"
        aria-label="打开金融服务"
        onClick={() => {
          fold(false);
          setAsked(true);
        }}
        style={{
          // the viewport's lower right corner, below the page's last row (home keeps room for it)
          position: 'fixed',
          right: 0,
          bottom: TAB_BOTTOM,
          zIndex: 900,
          padding: '4px 10px 4px 12px',
          border: 'none',
          borderRadius: '14px 0 0 14px',
          background: FINANCE_ORANGE,
          color: '#fff',
          cursor: 'pointer',
          boxShadow: '0 2px 8px rgba(0,0,0,.15)',
        }}
      >
        <BankOutlined /> 金融服务
      </button>
    );
  }
  return (
    <Card
      ref={card}
      size="small"
      style={{
        position: 'fixed',
        right: GAP,
        bottom: GAP,
        width: WIDTH,
        zIndex: 900,
        boxShadow: '0 6px 16px rgba(0,0,0,.12)',
      }}
      styles={{ body: { background: 'linear-gradient(135deg,#fff7e6,#ffffff)' } }}
    >
      <Button
        type="text"
        size="small"
        aria-label="收起金融服务"
        icon={<CloseOutlined />}
        onClick={() => {
          fold(true);
          setAsked(false);
        }}
        style={{ position: 'absolute', right: 4, top: 4 }}
      />
      <Typography.Text strong>
        <BankOutlined style={{ color: FINANCE_ORANGE }} /> 开票贷 · 金融服务
      </Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '6px 0 8px' }}>
        凭开票数据申请经营贷款，线上申请，快速审批。
      </Typography.Paragraph>
      <Link to="/huo-dong/op-loan">
        <Button type="primary" size="small" style={{ background: FINANCE_ORANGE }}>
          立即了解
        </Button>
      </Link>
    </Card>
  );
}
