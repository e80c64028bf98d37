import { BankOutlined, CloseOutlined } from '@ant-design/icons';
import { Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';

/** antd's orange-8: white text on it reaches WCAG AA (on orange-6 #fa8c16 it was 2.37:1) */
const FINANCE_ORANGE = '#ad4e00';

/**
 * spec §2 layout: the floating finance banner on home, closable to a side tab (the fold is
 * remembered). Its page is /huo-dong/op-loan.
 */
export function FinanceBanner() {
  const [folded, setFolded] = useState(() => localStorage.getItem(STORAGE_KEYS.financeBanner) === '1');
  const fold = (v: boolean) => {
    setFolded(v);
    if (v) localStorage.setItem(STORAGE_KEYS.financeBanner, '1');
    else localStorage.removeItem(STORAGE_KEYS.financeBanner);
  };
  if (folded) {
    return (
      <button
        type="button"
        aria-label="打开金融服务"
        onClick={() => fold(false)}
        style={{
          position: 'fixed',
          right: 0,
          bottom: 160,
          zIndex: 900,
          writingMode: 'vertical-rl',
          padding: '12px 6px',
          border: 'none',
          borderRadius: '6px 0 0 6px',
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
      size="small"
      style={{
        position: 'fixed',
        right: 24,
        bottom: 24,
        width: 260,
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
        onClick={() => fold(true)}
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
