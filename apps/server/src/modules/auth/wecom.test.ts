import { AUTH_CODE, PLATFORM_WXWORK } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO } from '../../../test/helper.ts';
import { ssoTickets } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  t = await buildTestApp();
});

const corp_id = DEMO.wecom.corpId;
const issueCode = async (qw_user_id: string, appid?: string) =>
  (await call(t.app, 'POST', '/v3/dev/wecom/issue-code', { body: { corp_id, qw_user_id, appid } })).json.data
    .code as string;
const lookUp = (code: string, appid = 'sandbox') =>
  call(t.app, 'POST', '/v3/enterprise-we-chat/get-qwuserid-and-corpid', { body: { code, appid } });

describe('POST /v3/enterprise-we-chat/get-qwuserid-and-corpid', () => {
  it('signs a registered member in on platform wxwork', async () => {
    const res = await lookUp(await issueCode(DEMO.wecom.clerk));
    expect(res.json.data).toMatchObject({
      corp_id,
      qw_user_id: DEMO.wecom.clerk,
      is_register: 1,
      role: 2,
      user: { account: DEMO.clerk.account, platform: PLATFORM_WXWORK },
    });
    const info = await call(t.app, 'GET', '/v3/user/info', { token: res.json.data.token });
    expect(info.json.data).toMatchObject({ account: DEMO.clerk.account, platform: 'wxwork' });
  });

  it('gives a role 0 member no token (add-employee branch)', async () => {
    const res = await lookUp(await issueCode(DEMO.wecom.newHire));
    expect(res.json.data).toEqual({ corp_id, qw_user_id: DEMO.wecom.newHire, is_register: 1, role: 0 });
  });

  it('says is_register 0 for a member the console has never seen', async () => {
    const res = await lookUp(await issueCode('stranger'));
    expect(res.json.data).toEqual({ corp_id, qw_user_id: 'stranger', is_register: 0, role: 0 });
  });

  it('answers 40029 for a used code', async () => {
    const code = await issueCode(DEMO.wecom.clerk);
    expect((await lookUp(code)).json.code).toBe(0);
    const again = await lookUp(code);
    expect(again.json).toEqual({
      code: AUTH_CODE.WECOM_CODE_INVALID,
      message: '企业微信授权已失效，请重新进入',
      data: null,
    });
  });

  it('answers 40029 for an unknown code, an expired one and one issued for another app', async () => {
    expect((await lookUp('no-such-code')).json.code).toBe(40029);
    const expired = await issueCode(DEMO.wecom.clerk);
    await t.db
      .update(ssoTickets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(ssoTickets.ticket, sha256(expired)));
    expect((await lookUp(expired)).json.code).toBe(40029);
    expect((await lookUp(await issueCode(DEMO.wecom.clerk, 'other-app'))).json.code).toBe(40029);
  });
});
