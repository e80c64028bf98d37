import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { TrusteeshipItem, TrusteeshipList } from '@kaipiao/shared/schemas/trusteeship';
import { Alert, Checkbox, Descriptions, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { grantStores, handOver, revokeTrusteeship } from '../api/trusteeship.ts';
import { StorePicker } from './store-picker.tsx';

export type DialogState = { kind: 'hand-over' | 'grant' | 'revoke'; device: TrusteeshipItem } | null;

type HandOverForm = { store_ids: number[]; contact_mobile: string; agree: boolean };

function useSubmit(onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>, ok: string) => {
    setBusy(true);
    try {
      await fn();
      toastSuccess(ok);
      onDone();
    } catch {
      // the API client shows the message
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/** 托管 / 授权门店 / 撤销托管 dialogs of the trusteeship page. */
export function TrusteeshipDialogs({
  state,
  stores,
  onClose,
  onChanged,
}: {
  state: DialogState;
  stores: TrusteeshipList['stores'];
  onClose: () => void;
  onChanged: () => void;
}) {
  const [form] = Form.useForm<HandOverForm>();
  const [reason, setReason] = useState('');
  const { busy, run } = useSubmit(() => {
    onChanged();
    onClose();
  });
  const device = state?.device;

  useEffect(() => {
    if (state) setReason('');
  }, [state]);

  if (!state || !device) return null;

  if (state.kind === 'revoke') {
    return (
      <Modal
        open
        title="撤销托管"
        okText="确认撤销"
        okButtonProps={{ danger: true, loading: busy }}
        onCancel={onClose}
        onOk={() => void run(() => revokeTrusteeship({ device_id: device.device_id, reason }), '已撤销托管')}
      >
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={`撤销后，${device.granted_stores.map((s) => s.name).join('、') || `授权${TERMS.store}`}将立即不能通过「${device.name}」开票`}
          description={`托管中心将设备交还贵司；本地绑定该设备的${TERMS.store}仍可插入设备开票。`}
        />
        <Input.TextArea
          aria-label="撤销原因"
          placeholder="撤销原因（选填）"
          maxLength={200}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </Modal>
    );
  }

  const isHandOver = state.kind === 'hand-over';
  return (
    <Modal
      open
      width={560}
      title={
        isHandOver
          ? device.mode === 'account'
            ? `托管${TERMS.digitalAccount}`
            : '托管设备'
          : `授权开票${TERMS.store}`
      }
      okText={isHandOver ? '确认托管' : '保存'}
      okButtonProps={{ loading: busy }}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="设备">
          {device.name}（{device.kind_name}）
        </Descriptions.Item>
        <Descriptions.Item label={device.mode === 'account' ? '账号' : '设备编号'}>
          {device.device_no}
        </Descriptions.Item>
      </Descriptions>
      <Form<HandOverForm>
        form={form}
        layout="vertical"
        initialValues={{
          store_ids: (isHandOver ? device.bound_stores : device.granted_stores).map((s) => s.id),
          contact_mobile: '',
          agree: false,
        }}
        onFinish={(v) =>
          void run(
            () =>
              isHandOver
                ? handOver({
                    device_id: device.device_id,
                    store_ids: v.store_ids,
                    contact_mobile: v.contact_mobile ?? '',
                    agree: v.agree,
                  })
                : grantStores({ device_id: device.device_id, store_ids: v.store_ids }),
            isHandOver ? '托管成功，设备已在托管中心上线' : `授权${TERMS.store}已保存`,
          )
        }
      >
        <Form.Item
          name="store_ids"
          label={`可开票${TERMS.store}`}
          rules={[
            {
              required: true,
              type: 'array',
              min: 1,
              message: `请至少选择一个可使用托管设备开票的${TERMS.store}`,
            },
          ]}
        >
          <StorePicker stores={stores} bound={device.bound_stores} />
        </Form.Item>
        {isHandOver && device.mode === 'account' && (
          <Form.Item
            name="contact_mobile"
            label="办税小号（选填）"
            tooltip="托管中心用于接收电子税务局短信验证码的手机号"
            rules={[{ pattern: /^1\d{10}$/, message: '请输入正确的手机号' }]}
          >
            <Input maxLength={11} placeholder="请输入手机号" />
          </Form.Item>
        )}
        {isHandOver && (
          <>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {device.mode === 'account'
                ? `托管后，托管中心代为保持电子税务局登录会话，授权${TERMS.store}可直接开具${TERMS.digitalInvoice}；实名认证到期时仍需办税人员扫码认证。`
                : `托管后，请将设备寄送至托管中心；设备在托管机房内7×24小时在线，授权${TERMS.store}无需本地插盘即可开票。`}
            </Typography.Paragraph>
            <Form.Item
              name="agree"
              valuePropName="checked"
              rules={[
                {
                  validator: (_, v) =>
                    v ? Promise.resolve() : Promise.reject(new Error('请先阅读并同意《设备托管服务协议》')),
                },
              ]}
            >
              <Checkbox>我已阅读并同意《设备托管服务协议》</Checkbox>
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
