import { Modal, Typography } from 'antd';
import type { DialogComponent } from '../../components/dialog-host/index.ts';
import { markNoticeRead } from './api.ts';

/** spec §2 public notice: shown once; closing marks it read on the server. */
const PublicNoticeDialog: DialogComponent<'public-notice'> = ({
  open,
  onClose,
  afterClose,
  id,
  title,
  content,
}) => {
  function close() {
    void markNoticeRead(id).catch(() => undefined);
    onClose();
  }
  return (
    <Modal
      title={title}
      open={open}
      onOk={close}
      onCancel={close}
      okText="我知道了"
      cancelButtonProps={{ style: { display: 'none' } }}
      afterClose={afterClose}
      maskClosable={false}
    >
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{content}</Typography.Paragraph>
    </Modal>
  );
};

export default PublicNoticeDialog;
