import { MSG } from '@kaipiao/shared/validation/messages';
import { PATTERNS } from '@kaipiao/shared/validation/patterns';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { CaptchaImage } from '../../../components/captcha-image.tsx';
import type { DialogComponent } from '../../../components/dialog-host/index.ts';
import { SmsCodeButton } from '../../../components/sms-code-button.tsx';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { encryptPassword } from '../../../lib/encrypt-password.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { getUserInfo, resetPassword, sendAccountSms } from '../api/account.ts';
import { useLogout } from '../hooks/use-logout.ts';
import { usePictureCode } from '../hooks/use-picture-code.ts';

type Values = { new_password: string; password_confirm: string; picture_code: string; mobile_code: string };

const passwordRules = [{ required: true, pattern: PATTERNS.password, message: MSG.PASSWORD_RULE }];

/**
 * spec §2/§5 change password: a new picture code and the hint on open, the form reset on close.
 * `forced` (password older than 90 days) cannot be closed until the password is changed.
 */
const ChangePasswordModal: DialogComponent<'change-password'> = ({ open, onClose, afterClose, forced }) => {
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);
  const captcha = usePictureCode(open);
  const logout = useLogout();
  const user = useSessionStore((s) => s.user);
  const weak = useSessionStore((s) => s.weakPassword);
  const expired = forced || user?.password_expired === 1;
  const hint = expired ? MSG.PASSWORD_EXPIRED_HINT : weak ? MSG.PASSWORD_WEAK_HINT : MSG.PASSWORD_CHANGE_HINT;

  async function sendCode() {
    const { picture_code } = await form.validateFields(['picture_code']);
    try {
      const { number } = await sendAccountSms({
        type: 'reset_password',
        picture_code,
        unique_code: captcha.uniqueCode,
      });
      toastSuccess(MSG.SMS_SENT);
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
    setSubmitting(true);
    try {
      const [new_password, password_confirm] = await Promise.all([
        encryptPassword(values.new_password),
        encryptPassword(values.password_confirm),
      ]);
      await resetPassword({ mobile_code: values.mobile_code, new_password, password_confirm });
      toastSuccess(MSG.PASSWORD_CHANGED);
      onClose();
      getUserInfo()
        .then((info) => useSessionStore.getState().setUser(info))
        .catch(() => undefined);
    } catch {
      // shown by the API client's error dialog
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      title="修改密码"
      open={open}
      width={480}
      okText="确定"
      cancelText="取消"
      confirmLoading={submitting}
      onOk={submit}
      onCancel={forced ? undefined : onClose}
      closable={!forced}
      keyboard={!forced}
      maskClosable={false}
      footer={(_, { OkBtn, CancelBtn }) => (
        <>
          {forced ? <Button onClick={logout}>退出登录</Button> : <CancelBtn />}
          <OkBtn />
        </>
      )}
      afterClose={() => {
        form.resetFields();
        afterClose();
      }}
    >
      <Alert
        type={weak || expired ? 'warning' : 'info'}
        showIcon
        message={hint}
        style={{ marginBottom: 16 }}
      />
      <Form form={form} layout="vertical" autoComplete="off">
        {user?.mobile && <Form.Item label="手机号">{user.mobile}</Form.Item>}
        <Form.Item label="新密码" name="new_password" rules={passwordRules}>
          <Input.Password placeholder="新密码" autoComplete="new-password" maxLength={18} />
        </Form.Item>
        <Form.Item
          label="确认密码"
          name="password_confirm"
          dependencies={['new_password']}
          validateFirst
          rules={[
            ...passwordRules,
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || value === getFieldValue('new_password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(MSG.PASSWORD_MISMATCH)),
            }),
          ]}
        >
          <Input.Password placeholder="确认密码" autoComplete="new-password" maxLength={18} />
        </Form.Item>
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
        <Form.Item label="短信验证码" required>
          <div style={{ display: 'flex', gap: 8 }}>
            <Form.Item
              name="mobile_code"
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

export default ChangePasswordModal;
