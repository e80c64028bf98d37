import { useEffect } from 'react';
import { Outlet, useMatches, useRouteError } from 'react-router';
import { DialogHost } from '../components/dialog-host/index.ts';
import styles from '../components/lite/lite.module.css';
import { DIALOGS } from './dialogs.tsx';
import type { RouteHandle } from './router.tsx';

const PRODUCT = '开票台';

function DocumentTitle() {
  const matches = useMatches();
  const title = (matches.at(-1)?.handle as RouteHandle | undefined)?.route.title;
  useEffect(() => {
    document.title = title ? `${title} - ${PRODUCT}` : PRODUCT;
  }, [title]);
  return null;
}

export function RootRoute() {
  return (
    <>
      <DocumentTitle />
      <Outlet />
      <DialogHost registry={DIALOGS} />
    </>
  );
}

/** A crashed page or a chunk that failed to load (e.g. after a deploy): offer a reload. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className={styles.pageLoading} role="alert">
      <strong>页面加载失败</strong>
      <span>页面出错了，请刷新后重试</span>
      <button type="button" className={styles.button} data-primary onClick={() => window.location.reload()}>
        刷新页面
      </button>
    </div>
  );
}
