import { messageFor } from '@kaipiao/shared/errors/messages';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { voidRefusal } from '@kaipiao/shared/schemas/red-info';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { voidInvoice } from '../../api/invoice-actions.ts';
import { toastSuccess } from '../../lib/antd/feedback.ts';
import { scopedKey } from '../../lib/query-scope.ts';
import { WhyDisabled } from '../why-disabled.tsx';

/**
 * 作废 (domain.md §3.1) from the invoice detail: same-month paper invoices with a reason; any other
 * invoice is told why not and offered 红冲 instead (the server refuses the same cases).
 */
export function VoidInvoiceModal({
  invoice,
  open,
  onClose,
}: {
  invoice: { invoice_id: number; invoice_type: string; issued_at: string | null; invoice_no: string | null };
  open: boolean;
  onClose: () => void;
}) {
  const refusal = voidRefusal(invoice.invoice_type, invoice.issued_at);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const client = useQueryClient();
  const toRed = () => {
    onClose();
    navigate(`/red-info/modify?invoice_id=${invoice.invoice_id}`);
  };
  return (
    <Modal
      title={`${TERMS.void}发票`}
      open={open}
      onCancel={onClose}
      destroyOnHidden
      footer={
        refusal !== null ? (
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" onClick={toRed}>
              去{TERMS.redLetter}
            </Button>
          </Space>
        ) : (
          <Space>
            <Button onClick={onClose}>取消</Button>
            <WhyDisabled reason={!reason.trim() && `请填写${TERMS.void}原因`}>
              <Button
                danger
                type="primary"
                loading={busy}
                onClick={async () => {
                  setBusy(true);
                  try {
                    await voidInvoice({ invoice_id: invoice.invoice_id, reason: reason.trim() });
                    toastSuccess(`发票已${TERMS.void}`);
                    void client.invalidateQueries({ queryKey: scopedKey('invoice-detail') });
                    onClose();
                  } catch {
                    // the API client showed the reason
                  } finally {
                    setBusy(false);
                  }
                }}
              >
                确认{TERMS.void}
              </Button>
            </WhyDisabled>
          </Space>
        )
      }
    >
      {refusal !== null ? (
        <Alert type="warning" showIcon message={messageFor(refusal)} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert
            type="info"
            showIcon
            message={`${TERMS.void}后发票 ${invoice.invoice_no ?? ''} 不可恢复，${TERMS.paperInvoice}须全部联次收回并加盖${TERMS.void}章。`}
          />
          <Input.TextArea
            aria-label={`${TERMS.void}原因`}
            placeholder={`请填写${TERMS.void}原因`}
            maxLength={100}
            showCount
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </Space>
      )}
    </Modal>
  );
}
