import { Breadcrumb } from 'antd';
import type { AppRoute } from '../../route-config.tsx';
import { MAIN_MENU } from '../../route-config.tsx';
import styles from './console.module.css';

/** spec §2 page header in the default (on the grey page) or white theme. */
export function PageHeader({ route }: { route?: AppRoute }) {
  if (!route?.title) return null;
  const section = MAIN_MENU.find((s) => s.key === route.section && s.submenu);
  const white = route.headerTheme === 'white';
  return (
    <div className={white ? `${styles.pageHeader} ${styles.pageHeaderWhite}` : styles.pageHeader}>
      {section && <Breadcrumb items={[{ title: section.title }, { title: route.title }]} />}
      <h1 className={styles.pageTitle}>{route.title}</h1>
    </div>
  );
}
