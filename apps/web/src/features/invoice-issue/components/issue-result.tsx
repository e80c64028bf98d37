import { DownloadOutlined, FileSearchOutlined, MailOutlined, PlusOutlined } from '@ant-design/icons';
import { formatMoney, INVOICE_TYPES, type IssueResult as Result } from '@kaipiao/shared';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { beijingDateTime } from '@kaipiao/shared/time/beijing';
import { Alert, Result as AntResult, Button, Card, Descriptions, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { downloadUrl } from '../../../api/documents.ts';
import { SendEmailModal } from '../../../components/send-email-modal.tsx';

// After issuing: number, kind, amount and time, the documents, e-mail, and the way on.

type Props = {
  result: Result;
  email: string;
  emailed: boolean;
  /** why this invoice is shown instead of the edited draft */
  note?: string;
  libraryPath: string;
  onContinue: () => void;
};

export function IssueResultPanel({ result, email, emailed, note, libraryPath, onContinue }: Props) {
  const navigate = useNavigate();
  const [mailing, setMailing] = useState(false);
  const kind = INVOICE_TYPES[result.invoice_type as keyof typeof INVOICE_TYPES] ?? result.invoice_type;
  return (
    <Card variant="borderless">
      {note && <Alert type="warning" showIcon message={note} style={{ marginBottom: 16 }} />}
      <AntResult
        status="success"
        title="开票成功"
        subTitle={
          emailed && email
            ? `发票文件将发送至 ${email}，也可在下方下载或重新发送`
            : '可在下方下载发票文件或发送到邮箱'
        }
        extra={
          <Space wrap>
            <Button type="primary" icon={<PlusOutlined />} onClick={onContinue}>
              继续开票
            </Button>
            <Button icon={<DownloadOutlined />} href={downloadUrl(result.invoice_id, 'pdf')} download>
              下载PDF
            </Button>
            <Button icon={<DownloadOutlined />} href={downloadUrl(result.invoice_id, 'xml')} download>
              下载XML
            </Button>
            <Button icon={<MailOutlined />} onClick={() => setMailing(true)}>
              发送邮件
            </Button>
            <Button
              icon={<FileSearchOutlined />}
              onClick={() =>
                navigate(`${libraryPath}?invoice_no=${encodeURIComponent(result.invoice_no ?? '')}`)
              }
            >
              查看发票
            </Button>
          </Space>
        }
      >
        <Descriptions
          column={{ xs: 1, sm: 2, md: 2, lg: 2, xl: 2, xxl: 2 }}
          bordered
          size="small"
          styles={{ label: { whiteSpace: 'nowrap', width: 96 }, content: { whiteSpace: 'nowrap' } }}
          style={{ maxWidth: 880, margin: '0 auto' }}
        >
          {result.invoice_code ? (
            <Descriptions.Item label={TERMS.invoiceCode}>{result.invoice_code}</Descriptions.Item>
          ) : null}
          <Descriptions.Item label={TERMS.invoiceNo}>
            <Typography.Text copyable={{ text: result.invoice_no ?? '' }}>
              <output aria-label={TERMS.invoiceNo}>{result.invoice_no}</output>
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={TERMS.invoiceKind}>{kind}</Descriptions.Item>
          <Descriptions.Item label={TERMS.totalWithTax}>
            {formatMoney(result.total_price_with_tax, { symbol: true })}
          </Descriptions.Item>
          <Descriptions.Item label={TERMS.issueTime}>
            {result.issued_at ? beijingDateTime(result.issued_at) : '—'}
          </Descriptions.Item>
          <Descriptions.Item label="流水号" span={2}>
            {result.serial_no}
          </Descriptions.Item>
        </Descriptions>
      </AntResult>
      <SendEmailModal
        open={mailing}
        invoiceId={result.invoice_id}
        defaultEmail={email}
        onClose={() => setMailing(false)}
      />
    </Card>
  );
}
