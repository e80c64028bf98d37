import { canVoidInvoiceType } from '@kaipiao/shared/schemas/invoice';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { WhyDisabled } from '../why-disabled.tsx';
import { VoidInvoiceModal } from './void-invoice-modal.tsx';

type Invoice = {
  invoice_id: number;
  invoice_type: string;
  invoice_no: string | null;
  issued_at: string | null;
  direction: 'blue' | 'red';
  status: string;
  red_status: string;
};

/**
 * 红冲 / 作废 for an issued blue invoice (the invoice library's detail drawer). 作废 only on kinds that
 * can be voided (paper, domain.md §3.1); 数电 and electronic invoices offer 红冲 alone.
 */
export function InvoiceRedActions({ invoice, onLeave }: { invoice: Invoice; onLeave?: () => void }) {
  const navigate = useNavigate();
  const [voiding, setVoiding] = useState(false);
  if (invoice.direction !== 'blue' || invoice.status !== 'issued') return null;
  return (
    <Space>
      <WhyDisabled reason={invoice.red_status === 'full' && '该发票已全额红冲，没有可红冲的余额'}>
        <Button
          danger
          onClick={() => {
            onLeave?.();
            navigate(`/red-info/modify?invoice_id=${invoice.invoice_id}`);
          }}
        >
          红冲
        </Button>
      </WhyDisabled>
      {canVoidInvoiceType(invoice.invoice_type) && (
        <>
          <Button onClick={() => setVoiding(true)}>作废</Button>
          <VoidInvoiceModal invoice={invoice} open={voiding} onClose={() => setVoiding(false)} />
        </>
      )}
    </Space>
  );
}
