import type { UserInfo } from '@kaipiao/shared';
import { api } from '../../../lib/api.ts';

// Signed-in account calls: user info, logout, password change (spec §7).
export const getUserInfo = () => api.get<UserInfo>('/v3/user/info');

/** POST: the server ends the session and clears its cookie (a GET by cookie alone is refused) */
export const logoutSession = () =>
  api.post<{ redirect_url: string | null }>('/v3/user/logout', {}, { showError: false, timeout: 5000 });

/** mobile omitted: the code goes to the signed-in user's own phone */
export const sendAccountSms = (body: { type: 'reset_password'; picture_code: string; unique_code: string }) =>
  api.post<{ number: number }>('/v3/system/send-sms', body);

export const resetPassword = (body: {
  mobile_code: string;
  new_password: string;
  password_confirm: string;
}) => api.post<null>('/v3/user/reset-password', body);
