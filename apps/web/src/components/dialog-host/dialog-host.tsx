import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { type DialogKind, type DialogPropsMap, useDialogStore } from './dialog-store.ts';

export type DialogControl = { open: boolean; onClose: () => void; afterClose: () => void };
export type DialogComponent<K extends DialogKind> = ComponentType<DialogPropsMap[K] & DialogControl>;
export type DialogRegistry = {
  [K in DialogKind]: LazyExoticComponent<DialogComponent<K>> | DialogComponent<K>;
};

// the dialogs are antd's; antd (and its zh_CN setup) loads with the first dialog opened
const AntdProvider = lazy(() =>
  import('../../lib/antd/provider.tsx').then((m) => ({ default: m.AntdProvider })),
);

/** Renders the global dialogs; each kind's component is loaded only when first opened. */
export function DialogHost({ registry }: { registry: DialogRegistry }) {
  const entries = useDialogStore((s) => s.entries);
  const { close, remove } = useDialogStore.getState();
  if (Object.keys(entries).length === 0) return null;
  return (
    <Suspense fallback={null}>
      <AntdProvider>
        {(Object.keys(entries) as DialogKind[]).map((kind) => {
          const entry = entries[kind];
          if (!entry) return null;
          const Dialog = registry[kind] as ComponentType<DialogControl & Record<string, unknown>>;
          return (
            <Dialog
              key={`${kind}:${entry.seq}`}
              {...(entry.props as Record<string, unknown>)}
              open={entry.open}
              onClose={() => close(kind)}
              afterClose={() => remove(kind)}
            />
          );
        })}
      </AntdProvider>
    </Suspense>
  );
}
