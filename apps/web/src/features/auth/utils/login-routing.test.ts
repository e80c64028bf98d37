import { describe, expect, it } from 'vitest';
import {
  cancelVerificationPath,
  decideSecureId,
  decideWecom,
  homePath,
  landingPath,
  readLoginEntry,
  safeRedirect,
} from './login-routing.ts';

const q = (s: string) => new URLSearchParams(s);

describe('readLoginEntry', () => {
  it('asks for the secure-id check when the URL carries a token', () => {
    expect(readLoginEntry(q('token=t1'))).toEqual({ kind: 'secure-id', token: 't1' });
  });

  it('asks for the secure-id check with app id and source when the URL carries a ticket', () => {
    expect(readLoginEntry(q('ticket=s1&app_id=1003&source=5'))).toEqual({
      kind: 'secure-id',
      ticket: 's1',
      app_id: '1003',
      source: '5',
    });
  });

  it('looks up the work-app user when the URL carries a code', () => {
    expect(readLoginEntry(q('code=c1&appid=wx9'))).toEqual({ kind: 'wecom', code: 'c1', appid: 'wx9' });
  });

  it('shows the form otherwise', () => {
    expect(readLoginEntry(q('redirect=/home/index'))).toEqual({ kind: 'form' });
    expect(readLoginEntry(q('token='))).toEqual({ kind: 'form' });
  });
});

describe('decideSecureId', () => {
  const tokenEntry = { kind: 'secure-id', token: 'url-token' } as const;
  const ticketEntry = { kind: 'secure-id', ticket: 'tk', app_id: '1014', source: '9' } as const;

  it('signs in with the returned token and stores the source when auth_status is 1', () => {
    expect(decideSecureId({ auth_status: 1, token: 'new', source: '22' }, ticketEntry)).toEqual({
      kind: 'signed-in',
      token: 'new',
      source: '22',
    });
  });

  it('keeps the URL token when auth_status is 1 and none is returned', () => {
    expect(decideSecureId({ auth_status: 1, source: '' }, tokenEntry)).toEqual({
      kind: 'signed-in',
      token: 'url-token',
      source: '',
    });
  });

  it('fails when auth_status is 1 but there is no token at all', () => {
    expect(decideSecureId({ auth_status: 1, source: '' }, ticketEntry).kind).toBe('failed');
  });

  it('opens phone verification carrying token, ticket and mobile when auth_status is 2', () => {
    expect(decideSecureId({ auth_status: 2, mobile: '138****0000', source: '' }, ticketEntry)).toEqual({
      kind: 'verify-phone',
      mobile: '138****0000',
      ticket: 'tk',
      token: undefined,
      app_id: '1014',
    });
  });
});

describe('decideWecom', () => {
  const base = { corp_id: 'corp1', qw_user_id: 'u1', is_register: 1 as const, role: 1 };

  it('goes home when registered with a token', () => {
    expect(decideWecom({ data: { ...base, token: 'tok' } })).toEqual({ kind: 'home', token: 'tok' });
  });

  it('adds the employee when unregistered without a token', () => {
    expect(decideWecom({ data: { ...base, is_register: 0 } })).toEqual({
      kind: 'redirect',
      to: '/user/wxwork-register?type=add-employee&corp_id=corp1&qw_user_id=u1',
    });
  });

  it('adds the employee when the role is 0', () => {
    expect(decideWecom({ data: { ...base, role: 0 } })).toMatchObject({
      to: expect.stringContaining('type=add-employee'),
    });
  });

  it('registers otherwise', () => {
    expect(decideWecom({ data: { ...base, is_register: 0, token: 'tok' } })).toEqual({
      kind: 'redirect',
      to: '/user/wxwork-register?corp_id=corp1&qw_user_id=u1',
    });
    expect(decideWecom({ data: base }).kind).toBe('redirect');
  });

  it('goes to the enterprise login on code 40029', () => {
    expect(decideWecom({ errorCode: 40029 })).toEqual({
      kind: 'enterprise-login',
      url: '/sandbox/wecom/login',
    });
  });

  it('fails on any other error code', () => {
    expect(decideWecom({ errorCode: 11012 })).toEqual({ kind: 'failed' });
  });
});

describe('landingPath', () => {
  it('follows a same-site redirect param first', () => {
    expect(landingPath({ redirect: '/query/invoice?x=1', hasBusiness: false, isMobile: false })).toBe(
      '/query/invoice?x=1',
    );
  });

  it('ignores redirects to other origins or back to login', () => {
    expect(safeRedirect('//evil.example')).toBeNull();
    expect(safeRedirect('https://evil.example')).toBeNull();
    expect(safeRedirect('/user/login?redirect=/x')).toBeNull();
  });

  it('goes to store switching when no business is selected', () => {
    expect(landingPath({ hasBusiness: false, isMobile: true })).toBe('/user/switch-store');
  });

  it('sends mobile user agents to /m-home/index and desktop ones to /', () => {
    expect(landingPath({ hasBusiness: true, isMobile: true })).toBe('/m-home/index');
    expect(landingPath({ hasBusiness: true, isMobile: false })).toBe('/');
    expect(homePath(true)).toBe('/m-home/index');
    expect(homePath(false)).toBe('/home/index');
  });
});

describe('cancelVerificationPath', () => {
  it('keeps taxCode, source and targetModule and drops the credentials', () => {
    expect(
      cancelVerificationPath(q('ticket=tk&taxCode=91310000&source=22&targetModule=invoice&app_id=1')),
    ).toBe('/user/login?taxCode=91310000&source=22&targetModule=invoice');
    expect(cancelVerificationPath(q('token=t'))).toBe('/user/login');
  });
});
