import { Layout, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The help centre's plain frame (outside the console shell). */
export function HelpFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Layout style={{ minHeight: '100vh', background: '#f5f7fa' }}>
      <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 16, background: '#fff' }}>
        <Link to="/" style={{ fontSize: 18, fontWeight: 600 }}>
          开票台
        </Link>
        <Typography.Text type="secondary">帮助中心</Typography.Text>
      </Layout.Header>
      <Layout.Content style={{ width: '100%', maxWidth: 880, margin: '24px auto', padding: '0 16px' }}>
        <Typography style={{ background: '#fff', padding: '24px 32px', borderRadius: 8 }}>
          <Typography.Title level={2}>{title}</Typography.Title>
          {children}
        </Typography>
      </Layout.Content>
    </Layout>
  );
}
