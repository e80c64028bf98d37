import { QueryClientProvider } from '@tanstack/react-query';
import { AccessProvider } from '../../lib/access-context.tsx';
import type { GuardedRoute } from '../../lib/permissions.ts';
import { queryClient } from '../../lib/query-client.ts';
import { CONSOLE_ROUTES } from '../route-config.tsx';
import { ConsoleShell } from './console/console-shell.tsx';

const GUARDED: readonly GuardedRoute[] = CONSOLE_ROUTES.map((r) => ({
  path: r.path,
  permission: r.permission,
  hidden: r.hidden,
  area: r.layout === 'group' ? 'group' : 'main',
}));

/** The desktop console (spec §2 Layout), shown once the menu permissions are loaded. */
export function ConsoleLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <AccessProvider routes={GUARDED}>
        <ConsoleShell />
      </AccessProvider>
    </QueryClientProvider>
  );
}
