import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.ts';

describe('loadEnv', () => {
  it('refuses KAIPIAO_FIXED_CAPTCHA when NODE_ENV=production', () => {
    expect(() => loadEnv({ NODE_ENV: 'production', KAIPIAO_FIXED_CAPTCHA: '1234' })).toThrow(
      'KAIPIAO_FIXED_CAPTCHA is refused when NODE_ENV=production',
    );
  });

  it('accepts production when the variable is unset or blank', () => {
    expect(loadEnv({ NODE_ENV: 'production' })).toMatchObject({ isProduction: true });
    expect(
      loadEnv({ NODE_ENV: 'production', KAIPIAO_FIXED_CAPTCHA: '' }).KAIPIAO_FIXED_CAPTCHA,
    ).toBeUndefined();
  });

  it('keeps the fixed picture code outside production', () => {
    const env = loadEnv({ NODE_ENV: 'development', KAIPIAO_FIXED_CAPTCHA: 'ab12' });
    expect(env).toMatchObject({ isProduction: false, KAIPIAO_FIXED_CAPTCHA: 'ab12' });
  });

  it('refuses a fixed picture code that is not 4 letters or digits', () => {
    expect(() => loadEnv({ NODE_ENV: 'development', KAIPIAO_FIXED_CAPTCHA: '12345' })).toThrow();
  });

  it('trusts no proxy by default, so X-Forwarded-For cannot spoof the client IP', () => {
    expect(loadEnv({}).trustProxy).toBe(false);
    expect(loadEnv({ KAIPIAO_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    const twoHops = loadEnv({ KAIPIAO_TRUST_PROXY: '2' }).trustProxy as (a: string, i: number) => boolean;
    expect([0, 1, 2].map((i) => twoHops('10.0.0.1', i))).toEqual([true, true, false]);
    expect(loadEnv({ KAIPIAO_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
  });

  it('uses the sandbox mail outbox unless an smtp:// or smtps:// URL is set', () => {
    expect(loadEnv({}).KAIPIAO_SMTP_URL).toBeUndefined();
    expect(loadEnv({ KAIPIAO_SMTP_URL: '' }).KAIPIAO_SMTP_URL).toBeUndefined();
    const url = 'smtps://mailer:secret@smtp.example.com:465';
    expect(loadEnv({ KAIPIAO_SMTP_URL: url }).KAIPIAO_SMTP_URL).toBe(url);
    expect(() => loadEnv({ KAIPIAO_SMTP_URL: 'http://smtp.example.com' })).toThrow();
    expect(loadEnv({}).KAIPIAO_MAIL_FROM).toContain('@');
  });

  it('leaves background jobs to the default unless KAIPIAO_JOBS is on or off', () => {
    expect(loadEnv({}).KAIPIAO_JOBS).toBeUndefined();
    expect(loadEnv({ KAIPIAO_JOBS: 'on' }).KAIPIAO_JOBS).toBe('on');
    expect(loadEnv({ KAIPIAO_JOBS: 'off' }).KAIPIAO_JOBS).toBe('off');
    expect(() => loadEnv({ KAIPIAO_JOBS: 'maybe' })).toThrow();
    expect(loadEnv({ KAIPIAO_ROLE: 'worker' }).KAIPIAO_ROLE).toBe('worker');
    expect(loadEnv({}).KAIPIAO_ROLE).toBe('all');
  });
});
