import { Modal } from 'antd';
import { useRef } from 'react';
import { ScanSettingsForm } from './settings-form.tsx';

type Store = { client_store_id: number; name: string };

/** 门店管理 › 扫码开票设置: the settings of the row's store, in a dialog named after it. */
export function ScanSettingsDialog({ store, onClose }: { store: Store | null; onClose: () => void }) {
  // the store stays shown while the dialog closes
  const last = useRef<Store | null>(store);
  if (store) last.current = store;
  const shown = store ?? last.current;
  return (
    <Modal
      open={store !== null}
      title={`扫码开票设置 · ${shown?.name ?? ''}`}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      {shown && (
        <ScanSettingsForm
          key={shown.client_store_id}
          storeId={shown.client_store_id}
          layout="vertical"
          onSaved={onClose}
        />
      )}
    </Modal>
  );
}
