import { formatMoney } from '@kaipiao/shared';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Popconfirm, Space, Spin, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { projectsQuery, taxRatesQuery } from '../../../api/projects.ts';
import { specificBusinessQuery } from '../api/specific-business.ts';
import { useAutoDevice, useDevices } from '../hooks/use-devices.ts';
import { type IssueFormOptions, useIssueForm } from '../hooks/use-issue-form.ts';
import { emptyDraft, emptyLine } from '../utils/draft.ts';
import type { IssueCalls } from '../utils/issue-protocol.ts';
import type { Draft } from '../utils/types.ts';
import { BuyerBlock } from './buyer-block.tsx';
import { DeviceBar } from './device-bar.tsx';
import { FieldProvider } from './field.tsx';
import { HotelStayBlock } from './hotel-stay-block.tsx';
import styles from './invoice-issue.module.css';
import { InvoicePreview } from './invoice-preview.tsx';
import { IssueResultPanel } from './issue-result.tsx';
import { LinesTable } from './lines-table.tsx';
import { RemarkBlock } from './remark-block.tsx';
import { SmallScaleReasonField } from './small-scale-reason-field.tsx';
import { SpecificBlock } from './specific/specific-block.tsx';
import { TotalsBar } from './totals-bar.tsx';

// 单张开票 (spec §2 /invoice/online, /hotel/invoice/online): device and kind, buyer, lines with live
// totals, special-business blocks, remark; preview; idempotent submit; the result.

export type IssueFormProps = {
  hotel: boolean;
  storeId: number;
  storageKey: string;
  seller: IssueFormOptions['seller'];
  drawer: string;
  libraryPath: string;
  calls?: IssueCalls;
};

/** Brings the first field in error into view and puts the cursor in it (issue 24 item 2). */
export function scrollToFirstError() {
  requestAnimationFrame(() => {
    const item = document.querySelector<HTMLElement>('.ant-form-item-has-error, [role="alert"]');
    item?.scrollIntoView?.({ block: 'center' });
    item
      ?.querySelector<HTMLElement>('input:not([type="hidden"]), textarea, [role="combobox"], [tabindex="0"]')
      ?.focus({
        preventScroll: true,
      });
  });
}

export function IssueForm(props: IssueFormProps) {
  const { devices, limitsFor, loading, loaded } = useDevices(props.storeId);
  // the business's own rates (no goods code): whether it is small-scale (the 3% reason)
  const ownRates = useQuery(taxRatesQuery(''));
  const form = useIssueForm({
    storageKey: props.storageKey,
    hotel: props.hotel,
    seller: props.seller,
    drawer: props.drawer,
    limitsFor,
    calls: props.calls,
    initial: props.hotel ? () => hotelDraft(props.drawer) : undefined,
    taxpayerType: ownRates.data?.taxpayer_type,
  });
  const { draft, dispatch, phase } = form;
  useAutoDevice(devices, draft, dispatch);
  const specific = useQuery(specificBusinessQuery());
  const [previewing, setPreviewing] = useState(false);
  useHotelDefault(props.hotel, form);
  const fields = useMemo(
    () => ({ errors: form.errors, warnings: form.warnings, touch: form.touch }),
    [form.errors, form.warnings, form.touch],
  );

  if (phase === 'issued' && form.result) {
    return (
      <IssueResultPanel
        result={form.result}
        email={draft.buyer.email}
        emailed={draft.send_email}
        note={form.resultNote}
        libraryPath={props.libraryPath}
        onContinue={form.startNew}
      />
    );
  }

  const busy = phase === 'submitting' || phase === 'checking';
  const errorCount = Object.keys(form.errors).length;
  // 预览 and 开具发票 run every check 确认开具 runs: a form in error opens no preview, and shows
  // (and focuses) its first field in error instead
  const open = () => {
    if (form.validateAll()) setPreviewing(true);
    else scrollToFirstError();
  };
  const confirm = async () => {
    if (!form.validateAll()) {
      setPreviewing(false);
      scrollToFirstError();
      return;
    }
    await form.submit();
    setPreviewing(false);
  };

  return (
    <FieldProvider value={fields}>
      <Spin spinning={phase === 'checking'} tip="正在确认上次提交的开票结果…">
        <Form layout="vertical" className={styles.form} component="div">
          {phase === 'unknown' && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              message="开票结果待确认"
              description={form.notice}
              action={
                <Button size="small" onClick={form.checkResult}>
                  刷新结果
                </Button>
              }
            />
          )}
          {loaded && !devices.length && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              message={`当前${TERMS.store}没有可用的${TERMS.device}，请联系管理员在“设备管理”中为${TERMS.store}分配设备`}
            />
          )}
          <Card variant="borderless" title="开票信息" className={styles.card}>
            <DeviceBar
              draft={draft}
              dispatch={dispatch}
              devices={devices}
              loading={loading}
              specific={specific.data ?? []}
              allowSpecific={!props.hotel}
            />
          </Card>
          <Card
            variant="borderless"
            title={`${TERMS.buyer}信息`}
            className={styles.card}
            extra={
              <Typography.Text type="secondary">
                {TERMS.seller}：{props.seller.name}（{props.seller.tax_code}）
              </Typography.Text>
            }
          >
            <BuyerBlock draft={draft} dispatch={dispatch} />
          </Card>
          {props.hotel && (
            <Card variant="borderless" title="入住信息" className={styles.card}>
              <HotelStayBlock draft={draft} dispatch={dispatch} />
            </Card>
          )}
          <Card variant="borderless" title="项目信息" className={styles.card}>
            <LinesTable draft={draft} numbers={form.numbers} dispatch={dispatch} />
            <TotalsBar totals={form.totals} />
          </Card>
          <SpecificBlock draft={draft} dispatch={dispatch} />
          <Card
            variant="borderless"
            title={`${TERMS.remark}与${TERMS.drawer}`}
            className={styles.card}
            style={{ marginTop: 16 }}
          >
            {form.reasonNeeded && (
              <SmallScaleReasonField value={draft.small_scale_reason} dispatch={dispatch} />
            )}
            <RemarkBlock draft={draft} dispatch={dispatch} />
          </Card>
          {form.serverMessages.length > 0 && (
            <Alert
              type="error"
              showIcon
              style={{ marginTop: 16 }}
              message="开票信息未通过校验，请按提示修改"
              description={
                <ul style={{ margin: 0, paddingLeft: 18 }}>
                  {form.serverMessages.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              }
            />
          )}
          <div className={styles.actions}>
            <Space className={styles.actionsTotal} size={16} wrap>
              <span>
                {TERMS.totalWithTax}{' '}
                <Typography.Text strong className={styles.grand}>
                  {formatMoney(form.totals.totalWithTax, { symbol: true })}
                </Typography.Text>
              </span>
              <Typography.Text type="secondary">{form.totals.capital}</Typography.Text>
              {errorCount > 0 && (
                <Typography.Link type="danger" onClick={scrollToFirstError}>
                  还有 {errorCount} 处需要修改
                </Typography.Link>
              )}
            </Space>
            <Popconfirm
              title="清空当前填写的内容？"
              description={`${TERMS.device}和${TERMS.drawer}会保留`}
              okText="清空"
              cancelText="取消"
              onConfirm={form.clear}
            >
              <Button disabled={busy}>清空</Button>
            </Popconfirm>
            <Button onClick={open} disabled={busy}>
              预览
            </Button>
            <Button type="primary" onClick={open} loading={phase === 'submitting'} disabled={busy}>
              {phase === 'unknown' ? '重新提交' : '开具发票'}
            </Button>
          </div>
        </Form>
      </Spin>
      <InvoicePreview
        open={previewing}
        payload={form.payload}
        numbers={form.numbers}
        totals={form.totals}
        submitting={phase === 'submitting'}
        onCancel={() => setPreviewing(false)}
        onConfirm={confirm}
      />
    </FieldProvider>
  );
}

/** 住宿服务 3070402000000000000 (domain.md §6.2): the hotel form's first line until a goods code is found. */
export const LODGING = {
  tax_class_code: '3070402000000000000',
  short_name: '住宿服务',
  name: '住宿费',
} as const;

function hotelDraft(drawer: string): Draft {
  const draft = emptyDraft({ hotel: true, drawer });
  draft.lines = [{ ...emptyLine(), ...LODGING, unit: '天' }];
  return draft;
}

/** The hotel form fills its 住宿费 line from the business's own 住宿 goods code, when it has one. */
function useHotelDefault(hotel: boolean, form: ReturnType<typeof useIssueForm>) {
  const projects = useQuery({ ...projectsQuery('住宿'), enabled: hotel });
  const { draft, dispatch } = form;
  const first = draft.lines[0];
  const untouched =
    draft.lines.length === 1 &&
    first.goods_id === null &&
    (first.name === '' || first.name === LODGING.name) &&
    !first.price &&
    !first.amount;
  const lodging = projects.data?.list.find((p) => p.short_name.includes('住宿') || p.name.includes('住宿'));
  useEffect(() => {
    if (hotel && untouched && lodging) dispatch({ type: 'pickProject', key: first.key, project: lodging });
  }, [hotel, untouched, lodging, first.key, dispatch]);
}
