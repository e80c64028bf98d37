import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTabsStore } from '../../stores/tabs-store.ts';
import styles from './page-tabs.module.css';

type Props = { activePath: string; extra?: ReactNode };

/** room kept beside a tab scrolled into view, so its neighbour shows there is more */
const MARGIN = 24;

/**
 * spec §2 page tabs: one per visited titled route, closable; the active one highlighted.
 * Each tab is a link named by its title (aria-current="page" on the active one), with its own close
 * button beside it: a navigation list, not an ARIA tablist, which may own nothing but its tabs
 * (axe: aria-required-children, issue 24 item 7).
 *
 * More tabs than fit scroll sideways (the wheel scrolls them too), the active one is always scrolled
 * into view, and a menu lists every open tab and closes the others or all of them.
 */
export function PageTabs({ activePath, extra }: Props) {
  const tabs = useTabsStore((s) => s.tabs);
  const close = useTabsStore((s) => s.close);
  const closeOthers = useTabsStore((s) => s.closeOthers);
  const clear = useTabsStore((s) => s.clear);
  const navigate = useNavigate();
  const strip = useRef<HTMLElement>(null);

  function remove(path: string) {
    const next = close(path, activePath);
    if (path === activePath) navigate(next ?? '/');
  }

  // the active tab in view: only the strip scrolls, never the page
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the tabs change too (a tab opened or closed moves the active one)
  useEffect(() => {
    const s = strip.current;
    const tab = s?.querySelector('[aria-current="page"]')?.parentElement;
    if (!s || !tab) return;
    const box = s.getBoundingClientRect();
    const own = tab.getBoundingClientRect();
    if (own.left < box.left) s.scrollLeft -= box.left - own.left + MARGIN;
    else if (own.right > box.right) s.scrollLeft += own.right - box.right + MARGIN;
  }, [activePath, tabs]);

  // a mouse wheel has no sideways motion: turn its turns into the strip's scroll while it can scroll
  useEffect(() => {
    const s = strip.current;
    if (!s) return;
    const onWheel = (e: WheelEvent) => {
      if (s.scrollWidth <= s.clientWidth || Math.abs(e.deltaX) >= Math.abs(e.deltaY)) return;
      e.preventDefault();
      s.scrollLeft += e.deltaY;
    };
    s.addEventListener('wheel', onWheel, { passive: false });
    return () => s.removeEventListener('wheel', onWheel);
  }, []);

  const menu: MenuProps = {
    items: [
      ...tabs.map((t) => ({
        key: t.path,
        label: t.path === activePath ? <strong>{t.name}</strong> : t.name,
      })),
      { type: 'divider' as const },
      { key: 'close-others', label: '关闭其他标签页', disabled: tabs.length < 2 },
      { key: 'close-all', label: '关闭全部标签页', disabled: tabs.length === 0 },
    ],
    onClick: ({ key }) => {
      if (key === 'close-others') closeOthers(activePath);
      else if (key === 'close-all') {
        clear();
        navigate('/');
      } else navigate(key);
    },
  };

  return (
    <div className={styles.bar}>
      <nav ref={strip} className={styles.tabs} aria-label="页面标签">
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
      <Dropdown menu={menu} trigger={['click']} placement="bottomRight">
        <Button type="text" aria-label="全部标签页" title="全部标签页" icon={<DownOutlined />} />
      </Dropdown>
      {extra}
    </div>
  );
}
