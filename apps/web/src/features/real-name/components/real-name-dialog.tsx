import {
  AUTH_STATUS,
  AUTH_WAY,
  CODE,
  isRealNameSmsMode,
  MSG,
  maskPhone,
  REAL_NAME_DIALOG_WIDTH,
  REAL_NAME_RESEND_SECONDS,
} from '@kaipiao/shared';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { Button, Form, Input, Modal, message, Space } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useCountdown } from '../../../hooks/use-countdown.ts';
import { alertError } from '../../../lib/antd/feedback.ts';
import { ApiError, isApiError } from '../../../lib/api-error.ts';
import {
  getJcQrCode,
  getRealPersonAuth,
  type RealNameDevice,
  sendRealNameSms,
  submitRealNameSms,
} from '../api/real-name.ts';
import styles from './real-name.module.css';
import { decodeQr, RealNameQr } from './real-name-qr.tsx';

/** spec §3 real-name dialog data */
export type RealNameDialogData = {
  device_id: number;
  channel: string;
  tax_code: string;
  terminal_code: string;
  tax_account: string;
  tax_mobile: string;
  name: string;
  /** 0 税务APP, otherwise 个人所得税APP */
  auth_type: number;
  auth_status: number;
  /** "1" SMS, "2" QR */
  auth_way: string;
  ele_tax_login_type: string;
  /** the user opened it (tax-account page), not the device-authorisation socket */
  isInitiative: boolean;
  /** base64 QR text */
  qr_code: string;
};

export type RealNameDialogProps = {
  open: boolean;
  data: RealNameDialogData;
  onClose: () => void;
  /** the SMS login went through */
  onSuccess?: () => void;
  /** after the closing animation (dialog host) */
  afterClose?: () => void;
};

type SmsForm = {
  tax_account: string;
  tax_password: string;
  phone: string;
  encryPhone: string;
  sms_code: string;
};

// "already logged in" / "login successful" in the send answer (spec §4)
const LOGGED_IN_TEXT = /已登录|登录成功/;
const MASKED_PASSWORD = '********';
const QR_POLL_MS = 3000;

/** A read-only form value as plain text (the form still holds it, spec §2's field list). */
function PlainValue({ id, value }: { id?: string; value?: string }) {
  return (
    <span id={id} className="ant-form-text">
      {value}
    </span>
  );
}

/** spec §2 real-name authentication dialog: SMS login or tax-app QR, 500 px wide. */
export function RealNameDialog({ open, data, onClose, onSuccess, afterClose }: RealNameDialogProps) {
  const smsMode = isRealNameSmsMode(data.channel, data.auth_way);
  const device: RealNameDevice = useMemo(
    () => ({
      device_id: data.device_id,
      channel: data.channel,
      tax_code: data.tax_code,
      terminal_no: data.terminal_code,
    }),
    [data.device_id, data.channel, data.tax_code, data.terminal_code],
  );
  const [qrCode, setQrCode] = useState(data.qr_code);
  const [authStatus, setAuthStatus] = useState(data.auth_status);
  const [authType, setAuthType] = useState(data.auth_type);
  const [hintOpen, setHintOpen] = useState(false);
  const [loadingQr, setLoadingQr] = useState(false);
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const countdown = useCountdown();
  const [form] = Form.useForm<SmsForm>();

  // the socket (or the opener) may bring a new status and QR while the dialog is open
  useEffect(() => {
    setQrCode(data.qr_code);
    setAuthStatus(data.auth_status);
    setAuthType(data.auth_type);
  }, [data.qr_code, data.auth_status, data.auth_type]);

  // spec §4: the hint dialog closes by itself once auth_status becomes 1
  useEffect(() => {
    if (authStatus === AUTH_STATUS.valid) setHintOpen(false);
  }, [authStatus]);

  const qrFailed = useCallback(() => {
    setAuthStatus(AUTH_STATUS.expired);
    setHintOpen(true);
  }, []);

  /** spec §4 refresh: a QR with status 1 replaces the shown one; otherwise status 3 and the hint. */
  const refreshQr = useCallback(async () => {
    setLoadingQr(true);
    try {
      if (data.isInitiative) {
        const r = await getJcQrCode(device);
        if (r.qrCode && r.authStatus === AUTH_STATUS.valid) {
          setQrCode(r.qrCode);
          setAuthStatus(AUTH_STATUS.valid);
          setAuthType(r.authType);
        } else qrFailed();
      } else {
        const r = await getRealPersonAuth(device.device_id, 1);
        if (r.qrCode && r.authStatus === AUTH_STATUS.valid) {
          setQrCode(r.qrCode);
          setAuthStatus(AUTH_STATUS.valid);
          setAuthType(r.auth_type);
        } else qrFailed();
      }
    } catch {
      qrFailed();
    } finally {
      setLoadingQr(false);
    }
  }, [data.isInitiative, device, qrFailed]);

  // spec §4: an initiative login with way "2" asks for a QR on open
  const requested = useRef(false);
  useEffect(() => {
    if (!open || requested.current || smsMode) return;
    if (data.isInitiative && data.auth_way === AUTH_WAY.qr) {
      requested.current = true;
      void refreshQr();
    }
  }, [open, smsMode, data.isInitiative, data.auth_way, refreshQr]);

  // an initiative QR: the person scans in the app; ask every 3 s until authenticated or lapsed
  useEffect(() => {
    if (!open || smsMode || !data.isInitiative || authStatus !== AUTH_STATUS.valid) return;
    const timer = setInterval(async () => {
      try {
        const r = await getRealPersonAuth(device.device_id, undefined, false);
        if (r.auth_status === AUTH_STATUS.done) {
          void message.success(MSG.REAL_NAME_DONE);
          onSuccess?.();
          onClose();
        } else if (r.auth_status === AUTH_STATUS.expired || r.auth_status === AUTH_STATUS.appRelogin) {
          setAuthStatus(r.auth_status);
        }
      } catch {
        // asked again on the next tick
      }
    }, QR_POLL_MS);
    return () => clearInterval(timer);
  }, [open, smsMode, data.isInitiative, authStatus, device.device_id, onSuccess, onClose]);

  async function sendSms() {
    setSending(true);
    try {
      const { data: r, message: text } = await sendRealNameSms(device, data.ele_tax_login_type);
      if (r.logged_in === 1 || LOGGED_IN_TEXT.test(text)) {
        void message.info(MSG.REAL_NAME_ALREADY_LOGGED_IN);
        return;
      }
      void message.success(MSG.SMS_SENT);
      countdown.start(REAL_NAME_RESEND_SECONDS);
    } catch (error) {
      // spec §8: code 10000 on the real-name SMS send is a success
      if (isApiError(error, CODE.CHANNEL)) {
        void message.success(MSG.SMS_SENT);
        countdown.start(REAL_NAME_RESEND_SECONDS);
      } else if (error instanceof ApiError && error.kind === 'code') {
        alertError(MSG.ERROR_DIALOG_TITLE, error.message);
      } else if (error instanceof ApiError && error.kind !== 'aborted') {
        void message.error(error.message);
      }
    } finally {
      setSending(false);
    }
  }

  async function submit() {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSubmitting(true);
    try {
      await submitRealNameSms(device, data.ele_tax_login_type, {
        phone: data.tax_mobile,
        sms_code: values.sms_code.trim(),
      });
      void message.success(MSG.LOGIN_OK);
      countdown.reset();
      onSuccess?.();
      onClose();
    } catch {
      // the API client showed the error dialog
    } finally {
      setSubmitting(false);
    }
  }

  const title = data.auth_way === AUTH_WAY.sms ? MSG.REAL_NAME_TITLE_LOGIN : MSG.REAL_NAME_TITLE_AUTH;
  return (
    <Modal
      open={open}
      title={title}
      width={REAL_NAME_DIALOG_WIDTH}
      onCancel={onClose}
      afterClose={afterClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        smsMode ? (
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" loading={submitting} onClick={submit}>
              确定
            </Button>
          </Space>
        ) : null
      }
    >
      {smsMode ? (
        <Form<SmsForm>
          form={form}
          labelCol={{ span: 6 }}
          wrapperCol={{ span: 17 }}
          initialValues={{
            tax_account: data.tax_account,
            tax_password: MASKED_PASSWORD,
            phone: data.tax_mobile,
            encryPhone: maskPhone(data.tax_mobile),
            sms_code: '',
          }}
        >
          <Form.Item label={TERMS.taxBureauAccount} name="tax_account">
            <PlainValue />
          </Form.Item>
          <Form.Item label="税局密码" name="tax_password">
            <PlainValue />
          </Form.Item>
          <Form.Item label="手机号" name="encryPhone">
            <PlainValue />
          </Form.Item>
          <Form.Item label="短信验证码" required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item
                name="sms_code"
                noStyle
                rules={[{ required: true, whitespace: true, message: MSG.REAL_NAME_SMS_REQUIRED }]}
              >
                <Input placeholder="请输入短信验证码" maxLength={10} autoComplete="one-time-code" />
              </Form.Item>
              <Button
                onClick={sendSms}
                loading={sending}
                disabled={countdown.running}
                style={{ minWidth: 120 }}
              >
                {countdown.running ? MSG.REAL_NAME_RETRY(countdown.seconds) : MSG.GET_SMS_CODE}
              </Button>
            </Space.Compact>
          </Form.Item>
        </Form>
      ) : (
        <div>
          <p className={styles.person}>实人账号：{data.name}</p>
          <RealNameQr
            qrText={decodeQr(qrCode)}
            authStatus={authStatus}
            loading={loadingQr}
            onRefresh={refreshQr}
          />
          <p className={styles.tip}>{MSG.REAL_NAME_QR_TIP(MSG.REAL_NAME_APP(authType))}</p>
        </div>
      )}
      <Modal
        open={hintOpen}
        title={MSG.ERROR_DIALOG_TITLE}
        onCancel={() => setHintOpen(false)}
        footer={
          <Button type="primary" onClick={() => setHintOpen(false)}>
            我知道了
          </Button>
        }
        width={420}
      >
        {MSG.REAL_NAME_HINT}
      </Modal>
    </Modal>
  );
}
