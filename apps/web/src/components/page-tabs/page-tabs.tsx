import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTabsStore } from '../../stores/tabs-store.ts';
import styles from './page-tabs.module.css';

type Props = { activePath: string; extra?: ReactNode };

/**
 * spec §2 page tabs: one per visited titled route, closable; the active one highlighted.
 * Each tab is one role=tab named by its title, with its own close button beside it.
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
      <div className={styles.tabs} role="tablist" aria-label="页面标签">
        {tabs.map((t) => {
          const active = t.path === activePath;
          return (
            <div key={t.path} className={active ? `${styles.tab} ${styles.active}` : styles.tab}>
              <button
                type="button"
                role="tab"
                aria-selected={active}
                className={styles.title}
                onClick={() => navigate(t.path)}
                onAuxClick={(e) => e.button === 1 && remove(t.path)}
              >
                {t.name}
              </button>
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
      </div>
      {extra}
    </div>
  );
}
