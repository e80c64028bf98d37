import { AUTH_CODE } from '@kaipiao/shared';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useDialogStore } from '../../../components/dialog-host/dialog-store.ts';
import { toBase64 } from '../../../lib/encrypt-password.ts';
import { apiError, apiOk } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { LoginPage } from './login-page.tsx';

const PICTURE = 'data:image/svg+xml;base64,PHN2Zy8+';

function renderLogin(url = '/user/login') {
  const router = createMemoryRouter([{ path: '/user/login', element: <LoginPage /> }], {
    initialEntries: [url],
  });
  render(<RouterProvider router={router} />);
  return router;
}

describe('LoginPage', () => {
  beforeEach(() => {
    server.use(apiOk('GET', '/v3/user/picture-code', { picture: PICTURE, unique_code: 'u1' }));
  });

  it('shows account, password and picture code with the captcha image and the login button', async () => {
    renderLogin();
    expect(screen.getByRole('textbox', { name: '账号' })).toBeTruthy();
    expect(screen.getByLabelText('密码')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '验证码' })).toBeTruthy();
    expect(await screen.findByRole('img', { name: '图形验证码' })).toHaveProperty('src', PICTURE);
    expect(screen.getByRole('tab', { name: '账号登录' })).toHaveProperty('ariaSelected', 'true');
  });

  it('says what is missing when submitted empty, and calls no login API', async () => {
    renderLogin();
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByText('请输入账号')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(screen.getByText('请输入4位验证码')).toBeTruthy();
    const calls = apiCalls().map((c) => c.path);
    expect(calls.some((u) => u.includes('account-login') || u.includes('multi-factor'))).toBe(false);
  });

  it('refreshes the captcha when the image is clicked', async () => {
    renderLogin();
    await screen.findByRole('img', { name: '图形验证码' });
    await userEvent.click(screen.getByRole('button', { name: '刷新图形验证码' }));
    const pictureCalls = apiCalls('/v3/user/picture-code');
    expect(pictureCalls.length).toBeGreaterThanOrEqual(2);
  });

  it('opens the phone dialog with the ticket of account-login’s 11007, never asking multi-factor/check (issue 21 N1/L4)', async () => {
    const pair = await crypto.subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['encrypt', 'decrypt'],
    );
    const der = toBase64(await crypto.subtle.exportKey('spki', pair.publicKey));
    const public_key = `-----BEGIN PUBLIC KEY-----\n${der.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
    server.use(
      apiOk('GET', '/v3/user/public-key', { key_id: 'k1', public_key }),
      apiError('POST', '/v3/user/account-login', AUTH_CODE.MFA_REQUIRED, { data: { mfa_ticket: 't-1' } }),
    );
    renderLogin();
    await screen.findByRole('img', { name: '图形验证码' });
    await userEvent.type(screen.getByRole('textbox', { name: '账号' }), 'kaipiao_admin');
    await userEvent.type(screen.getByLabelText('密码'), 'Kaipiao@2026');
    await userEvent.type(screen.getByRole('textbox', { name: '验证码' }), 'abcd');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await vi.waitFor(() =>
      expect(useDialogStore.getState().entries['phone-verify']?.props).toEqual({
        mode: 'login',
        account: 'kaipiao_admin',
        mfa_ticket: 't-1',
      }),
    );
    const calls = apiCalls().map((c) => c.path);
    expect(calls.some((u) => u.includes('multi-factor'))).toBe(false);
  });
});
