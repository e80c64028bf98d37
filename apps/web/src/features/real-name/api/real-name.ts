import {
  type DeviceAuthCheck,
  ELE_TAX_LOGIN_TYPE,
  type JcQrCodeResponse,
  REAL_NAME_CALLS,
  type RealNameInfo,
  type RealNameSmsResponse,
} from '@kaipiao/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

// spec §7 equipment calls of the real-name dialog, each with its own time-out (33 s / 120 s).

/** The device the dialog acts for: our device_id plus the spec's channel, tax_code, terminal_no. */
export type RealNameDevice = { device_id: number; channel: string; tax_code: string; terminal_no: string };

export const getRealPersonAuth = (deviceId: number, judgeInvoiceStatus?: 1, showError = true) =>
  api.get<RealNameInfo>(REAL_NAME_CALLS.realPersonAuth.path, {
    params: { device_id: deviceId, judge_invoice_status: judgeInvoiceStatus },
    timeout: REAL_NAME_CALLS.realPersonAuth.timeout,
    showError,
  });

/** Initiative QR request. */
export const getJcQrCode = (device: RealNameDevice) =>
  api.post<JcQrCodeResponse>(REAL_NAME_CALLS.qrCode.path, device, {
    timeout: REAL_NAME_CALLS.qrCode.timeout,
  });

/** SMS send, two variants chosen by ele_tax_login_type; failures are the caller's to show (10000 is success). */
export const sendRealNameSms = async (device: RealNameDevice, eleTaxLoginType: string) => {
  const call =
    eleTaxLoginType === ELE_TAX_LOGIN_TYPE.autonomous
      ? REAL_NAME_CALLS.smsAutonomous
      : REAL_NAME_CALLS.smsTaxStation;
  let message = '';
  const data = await api.post<RealNameSmsResponse>(call.path, device, {
    timeout: call.timeout,
    showError: false,
    onMessage: (m) => {
      message = m;
    },
  });
  return { data, message };
};

/** SMS login submit, two variants. */
export const submitRealNameSms = (
  device: RealNameDevice,
  eleTaxLoginType: string,
  form: { phone: string; sms_code: string },
) => {
  const call =
    eleTaxLoginType === ELE_TAX_LOGIN_TYPE.autonomous
      ? REAL_NAME_CALLS.smsLoginAutonomous
      : REAL_NAME_CALLS.smsLoginTaxStation;
  return api.post<{ logged_in: 0 | 1; login_expires_at: string }>(
    call.path,
    { ...device, ...form },
    {
      timeout: call.timeout,
    },
  );
};

/** Whether the business needs the device-authorisation socket (ours: GET /v3/real-name/check-auth). */
export const deviceAuthCheckQuery = (clientId: number | undefined) =>
  queryOptions({
    queryKey: ['real-name', 'check-auth', clientId],
    queryFn: () => api.get<DeviceAuthCheck>('/v3/real-name/check-auth', { showError: false }),
    enabled: clientId !== undefined,
    staleTime: 60_000,
  });
