import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTabsStore } from '../../stores/tabs-store.ts';
import styles from './page-tabs.module.css';

type Props = { activePath: string; extra?: ReactNode };

/**
 * spec §2 page tabs: one per visited titled route, closable; the active one highlighted.
 * Each tab is a link named by its title (aria-current="page" on the active one), with its own close
 * button beside it: a navigation list, not an ARIA tablist, which may own nothing but its tabs
 * (axe: aria-required-children, issue 24 item 7).
 */
export function PageTabs({ activePath, extra }: Props) {
  const tabs = useTabsStore((s) => s.tabs);
  const close = useTabsStore((s) => s.close);
  const navigate = useNavigate();

  function remove(path: string) {
    const next = close(path, activePath);
    if (path === activePath) navigate(next ?? '/');
  }

  return (
    <div className={styles.bar}>
      <nav className={styles.tabs} aria-label="页面标签">
        {tabs.map((t) => {
          const active = t.path === activePath;
          return (
            <div key={t.path} className={active ? `${styles.tab} ${styles.active}` : styles.tab}>
              <Link
                to={t.path}
                aria-current={active ? 'page' : undefined}
                className={styles.title}
                onAuxClick={(e) => {
                  if (e.button !== 1) return;
                  // middle click closes the tab (as before), not a new browser tab
                  e.preventDefault();
                  remove(t.path);
                }}
              >
                {t.name}
              </Link>
              <button
                type="button"
                className={styles.close}
                aria-label={`关闭${t.name}`}
                title="关闭"
                onClick={() => remove(t.path)}
              >
                ×
              </button>
            </div>
          );
        })}
      </nav>
      {extra}
    </div>
  );
}
