import { CODE, type RealNameInfo } from '@kaipiao/shared';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { apiError, apiOk } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { RealNameDialog, type RealNameDialogData } from './real-name-dialog.tsx';

const b64 = (s: string) => btoa(s);

const SMS_DATA: RealNameDialogData = {
  device_id: 7,
  channel: 'GP900000',
  tax_code: '91330106MA2KCF1X8A',
  terminal_code: '',
  tax_account: '91330106MA2KCF1X8A-zhangli',
  tax_mobile: '17612342696',
  name: '王芳',
  auth_type: 0,
  auth_status: 0,
  auth_way: '1',
  ele_tax_login_type: '1',
  isInitiative: true,
  qr_code: '',
};
const QR_DATA: RealNameDialogData = {
  ...SMS_DATA,
  auth_way: '2',
  isInitiative: false,
  auth_status: 1,
  qr_code: b64('https://etax.sandbox.kaipiao.local/realname?t=abc'),
};

/** What GET get-real-person-auth answers for the QR_DATA device (realNameInfoSchema). */
const personAuth = (patch: { qrCode: string; authStatus: number; auth_type: number }): RealNameInfo => ({
  device_id: QR_DATA.device_id,
  channel: QR_DATA.channel,
  tax_code: QR_DATA.tax_code,
  terminal_code: QR_DATA.terminal_code,
  tax_account: QR_DATA.tax_account,
  tax_mobile: QR_DATA.tax_mobile,
  name: QR_DATA.name,
  auth_type: patch.auth_type,
  auth_status: patch.authStatus,
  auth_way: QR_DATA.auth_way,
  ele_tax_login_type: QR_DATA.ele_tax_login_type,
  logged_in: 0,
  login_expires_at: null,
  qrCode: patch.qrCode,
  authStatus: patch.authStatus,
});

/** Lets pending fetch promises and React updates settle under fake timers. */
const flush = async () => {
  for (let i = 0; i < 5; i++) await act(async () => vi.advanceTimersByTimeAsync(0));
};
async function renderDialog(data: RealNameDialogData, onClose = vi.fn()) {
  const view = render(
    <AntdProvider>
      <RealNameDialog open data={data} onClose={onClose} />
    </AntdProvider>,
  );
  const rerender = async (next: RealNameDialogData) => {
    view.rerender(
      <AntdProvider>
        <RealNameDialog open data={next} onClose={onClose} />
      </AntdProvider>,
    );
    await flush();
  };
  await flush();
  return { onClose, rerender };
}

const button = (name: string | RegExp) => screen.getByRole('button', { name });

describe('RealNameDialog', { timeout: 60_000 }, () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('SMS mode for GP900000 with way "1": title, account and masked phone as plain text, 120 s countdown to 0', async () => {
    server.use(
      apiOk(
        'POST',
        '/v3/equipment/get-sms-tax-station',
        { logged_in: 0, wait_seconds: 120 },
        { message: '短信验证码已发送' },
      ),
    );
    await renderDialog(SMS_DATA);
    expect(screen.getByText('登录')).toBeTruthy();
    // read-only values are text, not inputs: the one input is the SMS code's
    expect(screen.getByText('91330106MA2KCF1X8A-zhangli').tagName).toBe('SPAN');
    expect(screen.getByText('176****2696').tagName).toBe('SPAN');
    expect(screen.getByText('********').tagName).toBe('SPAN');
    expect(screen.queryByDisplayValue('91330106MA2KCF1X8A-zhangli')).toBeNull();
    expect(screen.getAllByRole('textbox').map((i) => i.getAttribute('placeholder'))).toEqual([
      '请输入短信验证码',
    ]);
    expect(document.querySelector('input[type="password"]')).toBeNull();
    expect(document.querySelector('.ant-modal')?.getAttribute('style')).toContain('width: 500px');

    fireEvent.click(button('获取短信验证码'));
    await flush();
    const [call] = apiCalls('/v3/equipment/get-sms-tax-station');
    expect(call?.body).toMatchObject({ device_id: 7, channel: 'GP900000' });
    expect(button('120s后重试')).toHaveProperty('disabled', true);
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect(button('119s后重试')).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(118_000));
    expect(button('1s后重试')).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect(button('获取短信验证码')).toHaveProperty('disabled', false);
  });

  it('uses the autonomous send when ele_tax_login_type is "2", and treats code 10000 as sent', async () => {
    server.use(
      apiError('POST', '/v3/equipment/get-sms-autonomous-tax-station', CODE.CHANNEL, {
        message: '验证码已发送',
      }),
    );
    await renderDialog({ ...SMS_DATA, ele_tax_login_type: '2' });
    fireEvent.click(button('获取短信验证码'));
    await flush();
    expect(apiCalls('/v3/equipment/get-sms-autonomous-tax-station')).toHaveLength(1);
    expect(screen.getByText('短信验证码已发送到您的手机，请注意查收')).toBeTruthy();
    expect(button('120s后重试')).toBeTruthy();
    // no error dialog for 10000
    expect(screen.queryByText('验证码已发送')).toBeNull();
  });

  it('only says "already logged in" when the send answers so, with no countdown', async () => {
    // the answer's message alone says so (logged_in 0)
    server.use(
      apiOk(
        'POST',
        '/v3/equipment/get-sms-tax-station',
        { logged_in: 0, wait_seconds: 0 },
        { message: '当前账号已登录' },
      ),
    );
    await renderDialog(SMS_DATA);
    fireEvent.click(button('获取短信验证码'));
    await flush();
    expect(screen.getByText('已登录，无需重复登录')).toBeTruthy();
    expect(button('获取短信验证码')).toHaveProperty('disabled', false);
  });

  it('requires the SMS code, and closes after a successful login', async () => {
    server.use(
      apiOk(
        'POST',
        '/v3/equipment/sms-login-tax-station',
        { logged_in: 1, login_expires_at: '2026-11-23T23:00:00Z' },
        { message: '登录成功' },
      ),
    );
    const { onClose } = await renderDialog(SMS_DATA);
    fireEvent.click(button(/确\s*定/));
    await flush();
    await act(async () => vi.advanceTimersByTimeAsync(500));
    expect(await vi.waitFor(() => screen.getByText('必填，请输入短信验证码'))).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('请输入短信验证码'), { target: { value: '123456' } });
    fireEvent.click(button(/确\s*定/));
    await flush();
    const [call] = apiCalls('/v3/equipment/sms-login-tax-station');
    expect(call?.body).toMatchObject({ sms_code: '123456', phone: '17612342696' });
    expect(onClose).toHaveBeenCalled();
  });

  it('QR mode otherwise: title, person, app name by auth_type; status 3 and 4; refresh failure opens the hint', async () => {
    server.use(
      apiOk(
        'GET',
        '/v3/equipment/get-real-person-auth',
        personAuth({ qrCode: '', authStatus: 3, auth_type: 0 }),
      ),
    );
    const { rerender } = await renderDialog({ ...QR_DATA, channel: 'GP900001', auth_way: '1' });
    // a channel outside the SMS list shows the QR even with way "1"; the title still says login
    expect(screen.getByText('登录')).toBeTruthy();
    await rerender(QR_DATA);
    expect(screen.getByText('认证')).toBeTruthy();
    expect(screen.getByText('实人账号：王芳')).toBeTruthy();
    expect(screen.getByText('请使用税务APP扫描二维码进行实名认证')).toBeTruthy();
    await rerender({ ...QR_DATA, auth_type: 1 });
    expect(screen.getByText('请使用个人所得税APP扫描二维码进行实名认证')).toBeTruthy();

    await rerender({ ...QR_DATA, auth_status: 4 });
    expect(screen.getByText('请重新登录APP后再进行操作')).toBeTruthy();
    await rerender({ ...QR_DATA, auth_status: 3, qr_code: '' });
    expect(screen.getByText('二维码已过期，点击刷新')).toBeTruthy();

    // click the expired picture: no QR in the answer → status 3 stays, the hint opens
    fireEvent.click(screen.getByText('二维码已过期，点击刷新'));
    await flush();
    expect(screen.getByText(/当前税号未登录电子税务局/)).toBeTruthy();

    // the socket brings status 1: the hint closes by itself and the QR is shown again
    await rerender({ ...QR_DATA, auth_status: 1 });
    await flush();
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    const hint = screen.queryByText(/当前税号未登录电子税务局/);
    expect(
      hint === null || hint.closest('.ant-modal-wrap')?.getAttribute('style')?.includes('display: none'),
    ).toBe(true);
    expect(screen.queryByText('二维码已过期，点击刷新')).toBeNull();
  });

  it('a refresh answering a QR with status 1 replaces the QR (non-initiative: judge_invoice_status=1)', async () => {
    const next = b64('https://etax.sandbox.kaipiao.local/realname?t=new');
    server.use(
      apiOk(
        'GET',
        '/v3/equipment/get-real-person-auth',
        personAuth({ qrCode: next, authStatus: 1, auth_type: 1 }),
      ),
    );
    await renderDialog({ ...QR_DATA, auth_status: 3, qr_code: '' });
    fireEvent.click(button(/^刷\s*新$/));
    await flush();
    expect(apiCalls()[0]?.query.judge_invoice_status).toBe('1');
    expect(screen.queryByText('二维码已过期，点击刷新')).toBeNull();
    expect(screen.getByText('请使用个人所得税APP扫描二维码进行实名认证')).toBeTruthy();
    expect(screen.queryByText(/当前税号未登录电子税务局/)).toBeNull();
  });

  it('an initiative QR login (way "2") asks jc-get-qr-code on open', async () => {
    server.use(
      apiOk('POST', '/v3/equipment/jc-get-qr-code', { qrCode: b64('x'), authStatus: 1, authType: 0 }),
    );
    await renderDialog({ ...QR_DATA, isInitiative: true, qr_code: '', auth_status: 0 });
    await flush();
    expect(apiCalls('/v3/equipment/jc-get-qr-code')).toHaveLength(1);
    expect(screen.getByRole('button', { name: /下载二维码/ })).toHaveProperty('disabled', false);
  });
});
