import { AUTH_CODE } from '@kaipiao/shared/errors/codes';
import { MSG } from '@kaipiao/shared/validation/messages';
import { type FormEvent, useEffect, useState } from 'react';
import { CaptchaImage } from '../../../components/captcha-image.tsx';
import { openDialog } from '../../../components/dialog-host/index.ts';
import { LiteButton } from '../../../components/lite/lite-button.tsx';
import { LiteInput } from '../../../components/lite/lite-input.tsx';
import { alertError } from '../../../lib/antd/feedback.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { encryptPassword, forgetPublicKey } from '../../../lib/encrypt-password.ts';
import { STORAGE_KEYS } from '../../../lib/storage-keys.ts';
import { accountLogin } from '../api/login.ts';
import { useCompleteLogin } from '../hooks/use-complete-login.ts';
import { usePictureCode } from '../hooks/use-picture-code.ts';
import { type LoginErrors, type LoginValues, validateLogin } from '../utils/login-form.ts';

const EMPTY: LoginValues = { account: '', password: '', picture_code: '' };

/** Account + password + picture code (spec §2 /user/login); two-factor when the server asks. */
export function AccountLoginForm() {
  const [values, setValues] = useState<LoginValues>(EMPTY);
  const [errors, setErrors] = useState<LoginErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const captcha = usePictureCode();
  const completeLogin = useCompleteLogin();

  // the page's one task: the account field has the focus when the form appears (issue 24 item 7)
  useEffect(() => {
    document.getElementById('login-account')?.focus();
  }, []);

  const field = (name: keyof LoginValues) => ({
    id: `login-${name}`,
    name,
    value: values[name],
    error: errors[name],
    onValueChange: (value: string) => {
      setValues((v) => ({ ...v, [name]: value }));
      if (errors[name]) setErrors((e) => ({ ...e, [name]: undefined }));
    },
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateLogin(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const account = values.account.trim();
    const { password } = values;
    setSubmitting(true);
    const secure_id = localStorage.getItem(STORAGE_KEYS.secureId) ?? undefined;
    try {
      // two-factor is told only after the password and picture code (11007 with a ticket)
      const cipher = await encryptPassword(password);
      const picture_code = values.picture_code.trim();
      const unique_code = captcha.uniqueCode;
      await completeLogin(
        await accountLogin({ account, password: cipher, picture_code, unique_code, secure_id }),
      );
    } catch (error) {
      // a picture code works once: every failed attempt needs a new one
      setValues((v) => ({ ...v, picture_code: '' }));
      void captcha.refresh();
      if (isApiError(error, AUTH_CODE.MFA_REQUIRED)) {
        const { mfa_ticket, mobile } = (error.data ?? {}) as { mfa_ticket?: string; mobile?: string };
        openDialog('phone-verify', { mode: 'login', account, mfa_ticket: mfa_ticket ?? '', mobile });
        return;
      }
      if (isApiError(error, AUTH_CODE.BAD_PASSWORD_CIPHER)) forgetPublicKey();
      alertError(MSG.ERROR_DIALOG_TITLE, error instanceof Error ? error.message : String(error));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate autoComplete="off">
      <LiteInput {...field('account')} placeholder="账号" autoComplete="username" maxLength={64} />
      <LiteInput {...field('password')} type="password" placeholder="密码" autoComplete="current-password" />
      <LiteInput
        {...field('picture_code')}
        placeholder="验证码"
        maxLength={4}
        addon={
          <CaptchaImage picture={captcha.picture} loading={captcha.loading} onRefresh={captcha.refresh} />
        }
      />
      <LiteButton type="submit" primary block loading={submitting}>
        登录
      </LiteButton>
    </form>
  );
}
