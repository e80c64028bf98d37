import { describe, expect, it } from 'vitest';
import { describeStartError, loadEnv, productionRefusals, StartupError } from './env.ts';

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

  it('binds 127.0.0.1 unless HOST says otherwise', () => {
    expect(loadEnv({}).HOST).toBe('127.0.0.1');
    expect(loadEnv({ HOST: '' }).HOST).toBe('127.0.0.1');
    expect(loadEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('knows only development and test as development-like, and refuses any other NODE_ENV', () => {
    expect(loadEnv({}).isDevelopmentLike).toBe(true);
    expect(loadEnv({ NODE_ENV: 'test' }).isDevelopmentLike).toBe(true);
    const prod = loadEnv({ NODE_ENV: 'production' });
    expect([prod.isDevelopmentLike, prod.isProduction]).toEqual([false, true]);
    for (const NODE_ENV of ['staging', 'prod', 'Production']) {
      expect(() => loadEnv({ NODE_ENV })).toThrow(/NODE_ENV 只能是 development、test 或 production/);
    }
  });

  it('seeds the demo tenant by default outside production only, and refuses it in production', () => {
    expect(loadEnv({}).KAIPIAO_SEED).toBe('demo');
    expect(loadEnv({ KAIPIAO_SEED: 'none' }).KAIPIAO_SEED).toBe('none');
    expect(loadEnv({ NODE_ENV: 'production' }).KAIPIAO_SEED).toBe('none');
    expect(loadEnv({ NODE_ENV: 'production', KAIPIAO_SEED: 'none' }).KAIPIAO_SEED).toBe('none');
    expect(() => loadEnv({ NODE_ENV: 'production', KAIPIAO_SEED: 'demo' })).toThrow(
      /KAIPIAO_SEED=demo is refused when NODE_ENV=production/,
    );
  });

  it('names what production lacks: a real SMS gateway, SMTP and the tax-channel opt-in', () => {
    expect(productionRefusals(loadEnv({}))).toEqual([]);
    const missing = productionRefusals(loadEnv({ NODE_ENV: 'production' })).join('\n');
    expect(missing).toMatch(/KAIPIAO_SMS_URL/);
    expect(missing).toMatch(/KAIPIAO_SMTP_URL/);
    expect(missing).toMatch(/KAIPIAO_CHANNEL/);
    const ready = loadEnv({
      NODE_ENV: 'production',
      KAIPIAO_SMS_URL: 'https://sms.example.com/send',
      KAIPIAO_SMTP_URL: 'smtps://u:p@smtp.example.com:465',
      KAIPIAO_CHANNEL: 'sandbox',
    });
    expect(productionRefusals(ready)).toEqual([]);
    // an external database: every process needs the same secret key
    const external = { ...ready, DATABASE_URL: 'postgres://u:p@db.example.com:5432/kaipiao' };
    expect(productionRefusals(external).join()).toMatch(/KAIPIAO_SECRET_KEY/);
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(productionRefusals({ ...external, KAIPIAO_SECRET_KEY: key })).toEqual([]);
    expect(() => loadEnv({ KAIPIAO_SECRET_KEY: 'c2hvcnQ=' })).toThrow(/KAIPIAO_SECRET_KEY must be 32 bytes/);
    expect(() => loadEnv({ KAIPIAO_SMS_URL: 'ftp://sms' })).toThrow(/KAIPIAO_SMS_URL/);
    expect(() => loadEnv({ KAIPIAO_CHANNEL: 'bureau' })).toThrow();
  });

  it('describes a failed start in words, never as `undefined`', () => {
    expect(describeStartError(undefined)).not.toBe('undefined');
    expect(describeStartError(undefined)).toMatch(/原因不明/);
    expect(describeStartError(new StartupError('端口 5432 已被占用'))).toBe('端口 5432 已被占用');
    expect(describeStartError(new Error('boom'))).toMatch(/^Error: boom/);
  });
});
