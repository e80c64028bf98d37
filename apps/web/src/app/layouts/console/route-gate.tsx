import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useAccess } from '../../../lib/access-context.tsx';
import type { AppRoute } from '../../route-config.tsx';
import styles from './console.module.css';

/** spec §4: a route the menu does not permit → /403; a disabled (gray) one shows its prompt, inert. */
export function RouteGate({ route, children }: { route?: AppRoute; children: ReactNode }) {
  const access = useAccess();
  if (!route) return children;
  const state = access.of(route.path);
  if (!state.visible) return <Navigate to="/403" replace />;
  if (!state.disabled) return children;
  return (
    <>
      <Alert type="warning" showIcon message={state.prompt} style={{ marginBottom: 16 }} />
      <div className={styles.disabledPage} inert aria-disabled>
        {children}
      </div>
    </>
  );
}
