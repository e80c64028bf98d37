import type { RealNameInfo } from '@kaipiao/shared';
import { useEffect, useState } from 'react';
import type { DialogComponent } from '../../../components/dialog-host/index.ts';
import { getRealPersonAuth } from '../api/real-name.ts';
import { RealNameDialog } from './real-name-dialog.tsx';

/**
 * The real-name dialog as a global dialog (spec §2: one instance; `openDialog('real-name', { device_id })`
 * from any page, e.g. the device and tax-account pages): loads the device's data, then shows the dialog.
 */
const RealNameHostDialog: DialogComponent<'real-name'> = ({
  open,
  onClose,
  afterClose,
  device_id,
  isInitiative,
}) => {
  const [info, setInfo] = useState<RealNameInfo | null>(null);

  useEffect(() => {
    let live = true;
    getRealPersonAuth(device_id)
      .then((data) => live && setInfo(data))
      .catch(() => live && onClose());
    return () => {
      live = false;
    };
  }, [device_id, onClose]);

  useEffect(() => {
    // nothing was shown: let the host remove the entry
    if (!open && !info) afterClose();
  }, [open, info, afterClose]);

  if (!info) return null;
  return (
    <RealNameDialog
      open={open}
      onClose={onClose}
      afterClose={afterClose}
      data={{ ...info, qr_code: info.qrCode, isInitiative: isInitiative ?? true }}
    />
  );
};

export default RealNameHostDialog;
