import { MSG } from '@kaipiao/shared/validation/messages';
import { PATTERNS } from '@kaipiao/shared/validation/patterns';

export type LoginValues = { account: string; password: string; picture_code: string };
export type LoginErrors = Partial<Record<keyof LoginValues, string>>;

/** The login form's rules; picture code: exactly 4 characters (spec §9). */
export function validateLogin(values: LoginValues): LoginErrors {
  const errors: LoginErrors = {};
  if (!values.account.trim()) errors.account = MSG.ACCOUNT_REQUIRED;
  if (!values.password) errors.password = MSG.PASSWORD_REQUIRED;
  if (!PATTERNS.pictureCode.test(values.picture_code.trim())) errors.picture_code = MSG.PICTURE_CODE;
  return errors;
}
