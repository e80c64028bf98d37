import { MSG } from '@kaipiao/shared/validation/messages';
import { Modal } from 'antd';
import type { DialogComponent } from '../../../components/dialog-host/index.ts';
import { STORAGE_KEYS } from '../../../lib/storage-keys.ts';

/** spec §2 guide tip on the first entry into the all-stores summary (-1) view. */
const SummaryGuideDialog: DialogComponent<'summary-guide'> = ({ open, onClose, afterClose }) => {
  function close() {
    localStorage.setItem(STORAGE_KEYS.summaryGuide, '1');
    onClose();
  }
  return (
    <Modal
      title={MSG.SUMMARY_STORE_NAME}
      open={open}
      onOk={close}
      onCancel={close}
      okText="我知道了"
      cancelButtonProps={{ style: { display: 'none' } }}
      afterClose={afterClose}
    >
      <p>{MSG.SUMMARY_GUIDE}</p>
    </Modal>
  );
};

export default SummaryGuideDialog;
