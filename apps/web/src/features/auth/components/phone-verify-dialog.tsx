import { MSG } from '@kaipiao/shared/validation/messages';
import { PATTERNS } from '@kaipiao/shared/validation/patterns';
import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { CaptchaImage } from '../../../components/captcha-image.tsx';
import type { DialogComponent } from '../../../components/dialog-host/index.ts';
import { SmsCodeButton } from '../../../components/sms-code-button.tsx';
import { STORAGE_KEYS } from '../../../lib/storage-keys.ts';
import { multiFactorLogin, sendLoginSms, sendTicketSms, verifySecureIdMobile } from '../api/login.ts';
import { useCompleteLogin } from '../hooks/use-complete-login.ts';
import { usePictureCode } from '../hooks/use-picture-code.ts';
import { cancelVerificationPath } from '../utils/login-routing.ts';

type Values = { picture_code: string; mobile: string; sms_code: string };

/**
 * spec §2/§5 phone verification for two-factor login and for sign-on tokens the server does not
 * trust yet. Call failures appear in the API client's error dialog (OK only, no cancel).
 */
const PhoneVerifyDialog: DialogComponent<'phone-verify'> = ({ open, onClose, afterClose, ...request }) => {
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);
  // two-factor login: the ticket stands for the password and picture code already given; the code
  // goes to the bound mobile, shown masked — nothing to type but the code
  const byTicket = request.mode === 'login';
  const [sentTo, setSentTo] = useState<string | null>(null);
  const captcha = usePictureCode(open && !byTicket);
  const completeLogin = useCompleteLogin();
  const navigate = useNavigate();
  const [search] = useSearchParams();

  async function sendCode() {
    if (request.mode === 'login') {
      const sent = await sendTicketSms({ account: request.account, mfa_ticket: request.mfa_ticket });
      setSentTo(sent.mobile);
      return sent.number;
    }
    const { picture_code, mobile } = await form.validateFields(['picture_code', 'mobile']);
    try {
      const { number } = await sendLoginSms({ mobile, picture_code, unique_code: captcha.uniqueCode });
      return number;
    } catch (error) {
      form.setFieldValue('picture_code', '');
      void captcha.refresh();
      throw error;
    }
  }

  async function submit() {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const { mobile, sms_code } = values;
    setSubmitting(true);
    try {
      if (request.mode === 'login') {
        const secure_id = localStorage.getItem(STORAGE_KEYS.secureId) ?? undefined;
        const result = await multiFactorLogin({
          account: request.account,
          mfa_ticket: request.mfa_ticket,
          sms_code,
          secure_id,
        });
        onClose();
        await completeLogin(result);
      } else {
        const { token, ticket, app_id } = request;
        const result = await verifySecureIdMobile({ sms_captcha: sms_code, mobile, token, ticket, app_id });
        onClose();
        await completeLogin(result);
      }
    } catch {
      // shown by the API client's error dialog
    } finally {
      setSubmitting(false);
    }
  }

  function cancel() {
    onClose();
    navigate(cancelVerificationPath(search), { replace: true });
  }

  const hint =
    request.mode === 'secure-id' && request.mobile
      ? `为了您的账号安全，请验证绑定的手机号 ${request.mobile}`
      : request.mode === 'login'
        ? sentTo
          ? `验证码已发送至 ${sentTo}`
          : `为了您的账号安全，本次登录需要验证绑定的手机号${request.mobile ? ` ${request.mobile}` : ''}`
        : '为了您的账号安全，本次登录需要验证手机号';

  return (
    <Modal
      title="手机号验证"
      open={open}
      width={440}
      maskClosable={false}
      okText="确定"
      cancelText="取消"
      confirmLoading={submitting}
      onOk={submit}
      onCancel={cancel}
      afterClose={afterClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary" role="status">
        {hint}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} autoComplete="off">
        {byTicket ? (
          <Form.Item label="手机号">
            <Typography.Text>{request.mobile || '账号绑定的手机号'}</Typography.Text>
          </Form.Item>
        ) : (
          <>
            <Form.Item label="图形验证码" required>
              <div style={{ display: 'flex', gap: 8 }}>
                <Form.Item
                  name="picture_code"
                  noStyle
                  rules={[{ required: true, pattern: PATTERNS.pictureCode, message: MSG.PICTURE_CODE }]}
                >
                  <Input placeholder="验证码" aria-label="验证码" maxLength={4} />
                </Form.Item>
                <CaptchaImage
                  compact
                  picture={captcha.picture}
                  loading={captcha.loading}
                  onRefresh={captcha.refresh}
                />
              </div>
            </Form.Item>
            <Form.Item
              label="手机号"
              name="mobile"
              rules={[{ required: true, pattern: PATTERNS.mobile, message: MSG.MOBILE_REQUIRED }]}
            >
              <Input placeholder="手机号" maxLength={11} inputMode="numeric" />
            </Form.Item>
          </>
        )}
        <Form.Item label="短信验证码" required>
          <div style={{ display: 'flex', gap: 8 }}>
            <Form.Item
              name="sms_code"
              noStyle
              rules={[{ required: true, pattern: PATTERNS.smsCode, message: MSG.SMS_CODE_REQUIRED }]}
            >
              <Input placeholder="短信验证码" aria-label="短信验证码" maxLength={6} inputMode="numeric" />
            </Form.Item>
            <SmsCodeButton onSend={sendCode} />
          </div>
        </Form.Item>
      </Form>
    </Modal>
  );
};

export default PhoneVerifyDialog;
