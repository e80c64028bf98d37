import { describe, expect, it } from 'vitest';
import { validateLogin } from './login-form.ts';

describe('validateLogin', () => {
  it('passes a complete form', () => {
    expect(
      validateLogin({ account: 'kaipiao_clerk', password: 'Kaipiao@2026', picture_code: 'a1B2' }),
    ).toEqual({});
  });

  it('asks for the account, the password and a 4-character picture code', () => {
    expect(validateLogin({ account: '  ', password: '', picture_code: '12' })).toEqual({
      account: '请输入账号',
      password: '请输入密码',
      picture_code: '请输入4位验证码',
    });
  });
});
