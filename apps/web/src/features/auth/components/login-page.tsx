import { useState } from 'react';
import { Link } from 'react-router';
import { PageLoading } from '../../../components/lite/page-loading.tsx';
import { useLoginEntry } from '../hooks/use-login-entry.ts';
import { AccountLoginForm } from './account-login-form.tsx';
import styles from './login-page.module.css';
import { QrLoginPanel } from './qr-login-panel.tsx';

const TABS = [
  { key: 'account', label: '账号登录' },
  { key: 'qr', label: '扫码登录' },
] as const;
type TabKey = (typeof TABS)[number]['key'];

/**
 * spec §2 /user/login: account or QR login; URL tokens/tickets/codes sign in directly (spec §4).
 * Drawn without antd so the first load stays small; dialogs bring antd when they open.
 */
export function LoginPage() {
  const { busy } = useLoginEntry();
  const [tab, setTab] = useState<TabKey>('account');

  return (
    <div className={styles.page}>
      <aside className={styles.brand}>
        <div className={styles.logo}>开票台</div>
        <h1>电子发票一站式开具与管理</h1>
        <p>开票、查询统计、门店与设备管理，一个控制台全部搞定</p>
      </aside>
      <main className={styles.card}>
        <h2 className={styles.title}>欢迎登录开票台</h2>
        {busy ? (
          <PageLoading tip="正在登录…" />
        ) : (
          <>
            <div className={styles.tabs} role="tablist" aria-label="登录方式">
              {TABS.map((t) => (
                <button
                  key={t.key}
                  type="button"
                  role="tab"
                  id={`login-tab-${t.key}`}
                  aria-selected={tab === t.key}
                  aria-controls={`login-panel-${t.key}`}
                  className={styles.tab}
                  onClick={() => setTab(t.key)}
                >
                  {t.label}
                </button>
              ))}
            </div>
            <div
              role="tabpanel"
              id={`login-panel-${tab}`}
              aria-labelledby={`login-tab-${tab}`}
              className={styles.panel}
            >
              {tab === 'account' ? <AccountLoginForm /> : <QrLoginPanel />}
            </div>
          </>
        )}
        <div className={styles.links}>
          <Link to="/user/register">免费注册</Link>
          <a href="/help-center/handbook" target="_blank" rel="noreferrer">
            操作手册
          </a>
        </div>
      </main>
    </div>
  );
}
