import { PrinterOutlined } from '@ant-design/icons';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { useQuery } from '@tanstack/react-query';
import { Button, QRCode, Result, Segmented, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { WhyDisabled } from '../../../components/why-disabled.tsx';
import { invoiceDetailQuery } from '../api.ts';
import { TICKET_WIDTHS, type Ticket, type TicketWidth, ticketOf } from '../ticket.ts';

const row = { display: 'flex', justifyContent: 'space-between', gap: 8 } as const;
const rule = { borderTop: '1px dashed #000', margin: '6px 0' } as const;

function TicketBody({ t, width }: { t: Ticket; width: TicketWidth }) {
  const narrow = width === 58;
  return (
    <div
      data-testid="ticket"
      style={{
        width: `${width}mm`,
        padding: '4mm 3mm',
        boxSizing: 'border-box',
        background: '#fff',
        color: '#000',
        fontFamily: '"SimSun", "Songti SC", "Noto Serif CJK SC", monospace',
        fontSize: narrow ? 11 : 12,
        lineHeight: 1.45,
        wordBreak: 'break-all',
      }}
    >
      <div style={{ textAlign: 'center', fontWeight: 700, fontSize: narrow ? 13 : 15 }}>{t.title}</div>
      <div style={{ textAlign: 'center' }}>{t.seller}</div>
      <div style={{ textAlign: 'center', fontSize: narrow ? 10 : 11 }}>
        {TERMS.taxCodeShort} {t.sellerTaxCode}
      </div>
      <div style={rule} />
      {t.invoiceCode && (
        <div>
          {TERMS.invoiceCode}：{t.invoiceCode}
        </div>
      )}
      <div>
        {TERMS.invoiceNo}：{t.invoiceNo}
      </div>
      <div>
        {TERMS.issueDate}：{t.issuedAt}
      </div>
      {t.checkCode && <div>校验码：{t.checkCode}</div>}
      <div style={rule} />
      <div>
        {TERMS.buyer}：{t.buyer}
      </div>
      {t.buyerTaxCode && (
        <div>
          {TERMS.taxCodeShort}：{t.buyerTaxCode}
        </div>
      )}
      <div style={rule} />
      {t.lines.map((l) => (
        <div key={l.no} style={{ marginBottom: 2 }}>
          <div>{l.name}</div>
          <div style={row}>
            <span>
              {l.detail} {l.rate}
            </span>
            <span>{l.amount}</span>
          </div>
        </div>
      ))}
      <div style={rule} />
      <div style={row}>
        <span>{TERMS.totalAmount}</span>
        <span>{t.totalAmount}</span>
      </div>
      <div style={row}>
        <span>{TERMS.totalTax}</span>
        <span>{t.totalTax}</span>
      </div>
      <div style={{ ...row, fontWeight: 700 }}>
        <span>{TERMS.totalWithTax}</span>
        <span>¥{t.totalWithTax}</span>
      </div>
      <div>（大写）{t.capital}</div>
      {t.remark && (
        <div>
          {TERMS.remark}：{t.remark}
        </div>
      )}
      {t.drawer && (
        <div>
          {TERMS.drawer}：{t.drawer}
        </div>
      )}
      {t.qr && (
        <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', marginTop: 6 }}>
          <QRCode value={t.qr} size={narrow ? 120 : 150} bordered={false} type="svg" />
          <div style={{ fontSize: 10 }}>扫码查验发票</div>
        </div>
      )}
    </div>
  );
}

/** /external/print-ticket?invoice_id=…: an invoice on roll paper (58 / 80 mm), printed with window.print. */
export function TicketPrintPage() {
  const [params] = useSearchParams();
  const raw = Number(params.get('invoice_id'));
  const invoiceId = Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  const initial = Number(params.get('width')) === 58 ? 58 : 80;
  const [width, setWidth] = useState<TicketWidth>(initial);
  const q = useQuery(invoiceDetailQuery(invoiceId));
  if (invoiceId === null) return <Result status="warning" title="缺少发票编号" />;
  const issued = q.data?.invoice.status === 'issued' || q.data?.invoice.status === 'voided';
  return (
    <div style={{ padding: 24, minHeight: '100vh', background: '#f5f5f5' }} className="kp-ticket-page">
      <style>{`@page { size: ${width}mm auto; margin: 0; }
@media print {
  .kp-no-print { display: none !important; }
  .kp-ticket-page { padding: 0 !important; background: #fff !important; min-height: 0 !important; }
}`}</style>
      <Space className="kp-no-print" style={{ marginBottom: 16 }} wrap>
        <span>纸宽</span>
        <Segmented<TicketWidth>
          value={width}
          onChange={setWidth}
          options={TICKET_WIDTHS.map((w) => ({ value: w, label: `${w}mm` }))}
        />
        <WhyDisabled reason={!issued && '发票开具成功后才能打印小票'}>
          <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
            打印
          </Button>
        </WhyDisabled>
      </Space>
      {q.isLoading && <Skeleton active paragraph={{ rows: 8 }} style={{ width: 320 }} />}
      {q.isError && <Result status="warning" title="发票不存在或不属于当前企业" />}
      {q.data && !issued && <Result status="info" title="发票尚未开具成功，不能打印小票" />}
      {q.data && issued && <TicketBody t={ticketOf(q.data)} width={width} />}
    </div>
  );
}
