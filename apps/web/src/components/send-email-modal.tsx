import { PATTERNS } from '@kaipiao/shared';
import { Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { sendInvoiceEmail } from '../api/documents.ts';
import { toastSuccess } from '../lib/antd/feedback.ts';

// 发送邮件: the PDF and XML to an address (POST /v3/invoice-detail/send-email).

type Props = { open: boolean; invoiceId: number; defaultEmail: string; onClose: () => void };

export function SendEmailModal({ open, invoiceId, defaultEmail, onClose }: Props) {
  const [email, setEmail] = useState(defaultEmail);
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (open) {
      setEmail(defaultEmail);
      setError('');
    }
  }, [open, defaultEmail]);

  async function send() {
    const to = email.trim();
    if (!PATTERNS.email.test(to)) {
      setError(to ? '邮箱格式不正确' : '请输入邮箱');
      return;
    }
    setSending(true);
    try {
      await sendInvoiceEmail(invoiceId, to);
      toastSuccess(`已发送到 ${to}`);
      onClose();
    } catch {
      // the API client has shown the reason
    } finally {
      setSending(false);
    }
  }

  return (
    <Modal
      open={open}
      title="发送邮件"
      okText="发送"
      cancelText="取消"
      confirmLoading={sending}
      onOk={send}
      onCancel={onClose}
    >
      <Form layout="vertical">
        <Form.Item
          label="接收邮箱"
          htmlFor="send-email"
          validateStatus={error ? 'error' : undefined}
          help={error || undefined}
        >
          <Input
            id="send-email"
            value={email}
            onChange={(e) => setEmail(e.target.value.trim())}
            onPressEnter={send}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
