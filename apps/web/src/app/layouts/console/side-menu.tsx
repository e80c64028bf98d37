import { PLATFORM_WXWORK } from '@kaipiao/shared/constants/menu';
import { Menu, type MenuProps, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAccess } from '../../../lib/access-context.tsx';
import { useSessionStore } from '../../../stores/session-store.ts';
import { prefetchRoute, prefetchWhenIdle } from '../../prefetch.ts';
import { type AppRoute, CONSOLE_ROUTES, MAIN_MENU } from '../../route-config.tsx';
import { MenuIcon } from './menu-icons.tsx';

type Item = Required<MenuProps>['items'][number];

function label(route: AppRoute, vip: boolean) {
  return (
    <span>
      {route.title}
      {vip && (
        <Tag color="gold" bordered={false} style={{ marginInlineStart: 6 }}>
          VIP
        </Tag>
      )}
      {route.isNew && (
        <Tag color="red" bordered={false} style={{ marginInlineStart: 6 }}>
          NEW
        </Tag>
      )}
    </span>
  );
}

/** The sidebar, derived from the route table and filtered by menu-list (spec §2, §4). */
export function SideMenu({
  area,
  route,
  collapsed,
  onPick,
}: {
  area: 'main' | 'group';
  route?: AppRoute;
  collapsed: boolean;
  /** after a page was picked (the phone's drawer closes) */
  onPick?: () => void;
}) {
  const access = useAccess();
  const navigate = useNavigate();
  const isWxwork = useSessionStore((s) => s.platform === PLATFORM_WXWORK);
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  const section = route?.section;

  useEffect(() => {
    if (section) setOpenKeys((keys) => (keys.includes(section) ? keys : [...keys, section]));
  }, [section]);

  const shown = (r: AppRoute) => !r.hidden && access.of(r.path).visible;
  const leaf = (r: AppRoute, icon?: AppRoute['icon']): Item => ({
    key: r.path,
    icon: icon ? <MenuIcon name={icon} /> : undefined,
    label: label(r, access.of(r.path).vip),
    // the page's code and first requests start while the pointer rests on it (issue 24 item 6)
    onMouseEnter: () => prefetchRoute(r.path),
  });

  let items: Item[];
  if (area === 'group') {
    // spec §2: taxpayer management is hidden inside the work app
    items = CONSOLE_ROUTES.filter((r) => r.layout === 'group' && shown(r))
      .filter((r) => !(isWxwork && r.path === '/group/taxpayer'))
      .map((r) => leaf(r, r.icon));
  } else {
    items = MAIN_MENU.flatMap((section): Item[] => {
      const routes = CONSOLE_ROUTES.filter((r) => r.section === section.key && shown(r));
      if (routes.length === 0) return [];
      if (!section.submenu) return routes.map((r) => leaf(r, section.icon));
      return [
        {
          key: section.key,
          icon: <MenuIcon name={section.icon} />,
          label: section.title,
          children: routes.map((r) => leaf(r)),
        },
      ];
    });
  }

  // every page of the menu: its code loads while the browser is idle after the console is shown
  const menuPaths = CONSOLE_ROUTES.filter(
    (r) => shown(r) && (area === 'group' ? r.layout === 'group' : r.layout !== 'group'),
  )
    .map((r) => r.path)
    .join(' ');
  useEffect(() => (menuPaths ? prefetchWhenIdle(menuPaths.split(' ')) : undefined), [menuPaths]);

  const selected = route ? [route.activeMenu ?? route.path] : [];
  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={selected}
      {...(collapsed ? {} : { openKeys })}
      onOpenChange={setOpenKeys}
      onClick={({ key }) => {
        navigate(key);
        onPick?.();
      }}
    />
  );
}
