import { TERMS } from '@kaipiao/shared/glossary/terms';
import { SMALL_SCALE_NOTICE_TEXT } from '@kaipiao/shared/schemas/query';
import { Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import type { DialogComponent } from '../../components/dialog-host/index.ts';
import { answerSmallScaleNotice } from './api.ts';
import { SmallScaleMeter } from './small-scale-meter.tsx';

/**
 * spec §1 tax notice for small-scale taxpayers, with this month's and quarter's sales against the
 * exemption thresholds. 不再提醒: never again for this user and business; 确定: not again today.
 */
const SmallScaleNoticeDialog: DialogComponent<'small-scale-notice'> = ({
  open,
  onClose,
  afterClose,
  monthSales,
  quarterSales,
  monthThreshold,
  quarterThreshold,
  onAnswered,
}) => {
  const [busy, setBusy] = useState<'never' | 'confirm' | null>(null);
  async function answer(action: 'never' | 'confirm') {
    setBusy(action);
    try {
      await answerSmallScaleNotice(action);
      onAnswered?.();
    } catch {
      // shown by the API client; close anyway, the notice comes back next time
    } finally {
      setBusy(null);
      onClose();
    }
  }
  return (
    <Modal
      title="小规模纳税人增值税优惠政策提示"
      open={open}
      width={560}
      maskClosable={false}
      onCancel={onClose}
      afterClose={afterClose}
      footer={[
        <Button key="never" loading={busy === 'never'} onClick={() => answer('never')}>
          不再提醒
        </Button>,
        <Button key="ok" type="primary" loading={busy === 'confirm'} onClick={() => answer('confirm')}>
          确定
        </Button>,
      ]}
    >
      <Typography.Paragraph>{SMALL_SCALE_NOTICE_TEXT}</Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        以下为本企业开具的普通发票销售额（不含税，{TERMS.redInvoice}已抵减），供判断是否超过免征额度参考：
      </Typography.Paragraph>
      <SmallScaleMeter
        monthSales={monthSales}
        quarterSales={quarterSales}
        monthThreshold={monthThreshold}
        quarterThreshold={quarterThreshold}
      />
    </Modal>
  );
};

export default SmallScaleNoticeDialog;
