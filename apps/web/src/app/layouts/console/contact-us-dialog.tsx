import { MSG } from '@kaipiao/shared/validation/messages';
import { Flex, Modal, QRCode, Typography } from 'antd';
import type { DialogComponent } from '../../../components/dialog-host/index.ts';

/** Where the Contact Us QR leads; set VITE_CONTACT_US_URL to the official account's follow link. */
const CONTACT_US_URL: string =
  import.meta.env.VITE_CONTACT_US_URL ?? `${window.location.origin}/help-center/handbook`;

/** spec §2 Contact Us: follow-the-official-account QR; reply 0 for human service. */
const ContactUsDialog: DialogComponent<'contact-us'> = ({ open, onClose, afterClose }) => (
  <Modal title="联系我们" open={open} onCancel={onClose} afterClose={afterClose} footer={null} width={360}>
    <Flex vertical align="center" gap={12} style={{ padding: '8px 0 16px' }}>
      <QRCode value={CONTACT_US_URL} size={200} bordered={false} />
      <Typography.Text>{MSG.CONTACT_US_TIP}</Typography.Text>
    </Flex>
  </Modal>
);

export default ContactUsDialog;
