import { PrinterOutlined } from '@ant-design/icons';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Skeleton, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { redFormQuery } from '../api.ts';
import { RedFormView } from './red-form-view.tsx';

/** The printable red form: title, the form's fields and lines; the button hides when printing. */
export function RedPrintPage() {
  const [params] = useSearchParams();
  const raw = Number(params.get('form_id'));
  const formId = Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  const q = useQuery(redFormQuery(formId));
  if (formId === null) return <Result status="warning" title="缺少单据编号" />;
  return (
    <div style={{ maxWidth: 1000, margin: '24px auto', padding: '0 24px', background: '#fff' }}>
      <style>{'@media print { .kp-no-print { display: none !important; } }'}</style>
      {q.isLoading && <Skeleton active paragraph={{ rows: 10 }} />}
      {q.isError && <Result status="warning" title="单据不存在或不属于当前企业" />}
      {q.data && (
        <>
          <Typography.Title level={3} style={{ textAlign: 'center' }}>
            {q.data.kind === 'confirm'
              ? '红字发票信息确认单'
              : q.data.kind === 'info_sheet'
                ? `开具${TERMS.redShort}增值税专用发票信息表`
                : `${TERMS.redInvoice}申请单`}
          </Typography.Title>
          <div className="kp-no-print" style={{ textAlign: 'right', marginBottom: 12 }}>
            <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
              打印
            </Button>
          </div>
          <RedFormView form={q.data} print />
        </>
      )}
    </div>
  );
}
