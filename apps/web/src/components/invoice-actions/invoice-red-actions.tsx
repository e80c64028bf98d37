import { TERMS } from '@kaipiao/shared/glossary/terms';
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
      <WhyDisabled
        reason={
          invoice.red_status === 'full' && `该发票已全额${TERMS.redLetter}，没有可${TERMS.redLetter}的余额`
        }
      >
        <Button
          danger
          onClick={() => {
            onLeave?.();
            navigate(`/red-info/modify?invoice_id=${invoice.invoice_id}`);
          }}
        >
          {TERMS.redLetter}
        </Button>
      </WhyDisabled>
      {canVoidInvoiceType(invoice.invoice_type) && (
        <>
          <Button onClick={() => setVoiding(true)}>{TERMS.void}</Button>
          <VoidInvoiceModal invoice={invoice} open={voiding} onClose={() => setVoiding(false)} />
        </>
      )}
    </Space>
  );
}
