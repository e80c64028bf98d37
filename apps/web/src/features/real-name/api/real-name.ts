import {
  ELE_TAX_LOGIN_TYPE,
  type JcQrCodeResponse,
  REAL_NAME_CALLS,
  type RealNameInfo,
  type RealNameSmsResponse,
} from '@kaipiao/shared';
import type { CheckTax } from '@kaipiao/shared/schemas/devices';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { scopedKey } from '../../../lib/query-scope.ts';

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

/** How often the device check is asked again (a bureau-raised authorisation opens the socket). */
export const DEVICE_CHECK_INTERVAL_MS = 30_000;

/**
 * spec §4, §7 the device check GET /v3/equipment/check-tax: `check_auth` 1 while a device of the
 * business needs real-name authorisation, which is when the device-authorisation socket is open.
 */
export const deviceCheckQuery = (clientId: number | undefined) =>
  queryOptions({
    queryKey: scopedKey('real-name', 'check-tax', clientId),
    queryFn: () => api.get<CheckTax>('/v3/equipment/check-tax', { showError: false }),
    enabled: clientId !== undefined,
    staleTime: 0,
    refetchInterval: DEVICE_CHECK_INTERVAL_MS,
  });
