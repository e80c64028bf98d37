import { PrinterOutlined } from '@ant-design/icons';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { RedForm } from '@kaipiao/shared/schemas/red-info';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Popconfirm, Result, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { type RedAction, redAction, redFormQuery } from '../api.ts';
import { RedFormView } from './red-form-view.tsx';

const DONE: Record<RedAction, string> = {
  confirm: `已确认，${TERMS.redInvoice}开具中`,
  reject: `已拒绝该${TERMS.redConfirmForm}`,
  revoke: '已撤销',
  issue: `${TERMS.redInvoice}已提交开具`,
};

/** What the console may do with a form now (server-computed `actions`). */
export function RedFormActions({ form, onDone }: { form: RedForm; onDone: (f: RedForm) => void }) {
  const [busy, setBusy] = useState<RedAction | null>(null);
  const run = async (a: RedAction) => {
    setBusy(a);
    try {
      const f = await redAction(a, form.form_id);
      const issued = (a === 'issue' || a === 'confirm') && f.red_invoice?.status === 'issued';
      toastSuccess(issued ? `${TERMS.redInvoice}已开具：${f.red_invoice?.invoice_no ?? ''}` : DONE[a]);
      onDone(f);
    } catch {
      // the API client showed the reason
    } finally {
      setBusy(null);
    }
  };
  const a = form.actions;
  return (
    <Space wrap>
      {a.confirm && (
        <Button type="primary" loading={busy === 'confirm'} onClick={() => run('confirm')}>
          确认
        </Button>
      )}
      {a.reject && (
        <Popconfirm
          title={`拒绝${TERMS.buyer}录入的${TERMS.redConfirmForm}？`}
          onConfirm={() => run('reject')}
        >
          <Button danger loading={busy === 'reject'}>
            拒绝
          </Button>
        </Popconfirm>
      )}
      {a.issue && (
        <Button type="primary" loading={busy === 'issue'} onClick={() => run('issue')}>
          开具{TERMS.redInvoice}
        </Button>
      )}
      {a.revoke && (
        <Popconfirm title={`撤销后该单据${TERMS.void}，确定撤销？`} onConfirm={() => run('revoke')}>
          <Button loading={busy === 'revoke'}>撤销</Button>
        </Popconfirm>
      )}
      <Button
        icon={<PrinterOutlined />}
        href={`/external/print-red-info?form_id=${form.form_id}`}
        target="_blank"
      >
        打印
      </Button>
    </Space>
  );
}

/** The form's detail with its actions (opened from the list, or after filling one in). */
export function RedFormDrawer({ formId, onClose }: { formId: number | null; onClose: () => void }) {
  const q = useQuery(redFormQuery(formId));
  const client = useQueryClient();
  return (
    <Drawer
      title={q.data ? `${q.data.kind_name}详情` : `${TERMS.redShort}信息详情`}
      width={960}
      open={formId !== null}
      onClose={onClose}
      destroyOnHidden
      extra={
        q.data && (
          <RedFormActions
            form={q.data}
            onDone={(f) => {
              client.setQueryData(redFormQuery(f.form_id).queryKey, f);
              void client.invalidateQueries({ queryKey: scopedKey('red-info', 'list') });
            }}
          />
        )
      }
    >
      {q.isLoading && <Skeleton active paragraph={{ rows: 10 }} />}
      {q.isError && <Result status="warning" title="单据不存在或不属于当前企业" />}
      {q.data && <RedFormView form={q.data} />}
    </Drawer>
  );
}
