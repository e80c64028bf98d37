import { partnerAppIdSchema, text } from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { issueSandboxCredential } from '../../providers/sign-on.ts';
import { issueSandboxWecomCode, SANDBOX_WECOM_APPID } from '../../providers/wecom.ts';
import { accountId } from './controls.ts';
import { esc, page } from './html.ts';
import { listAccounts, listWecomMembers } from './repo.ts';

const PUBLIC = { auth: 'public' } as const;
const APP_NAMES: Record<string, string> = {
  '1003': '合作方应用 1003',
  '1014': '合作方应用 1014',
  '22': '合作渠道 22',
};
const DEMO_CORP = 'wwkaipiaodemo';

const ssoQuery = z.object({
  app_id: partnerAppIdSchema.default('1003'),
  account: text().max(64).optional(),
  kind: z.enum(['ticket', 'token']).default('ticket'),
});
const wecomQuery = z.object({
  corp_id: text().max(64).optional(),
  qw_user_id: text().max(64).optional(),
});

/**
 * The sandbox partner sign-on (apps 1003, 1014, source 22) and the work app's enterprise login:
 * pick a user, get sent to /user/login with a ticket, token or code (spec §4 login routing).
 */
export const signOnPages: FastifyPluginAsyncZod = async (app) => {
  app.get('/sandbox/sso/login', { config: PUBLIC, schema: { querystring: ssoQuery } }, async (req, reply) => {
    const { app_id: appId, account, kind } = req.query;
    if (account) {
      const value = await issueSandboxCredential(app.db, await accountId(app.db, account), kind, appId);
      return reply.redirect(`/user/login?${new URLSearchParams({ [kind]: value, app_id: appId })}`);
    }
    const link = (acc: string, k: 'ticket' | 'token', text: string, cls = '') =>
      `<a class="btn ${cls}" href="/sandbox/sso/login?${esc(new URLSearchParams({ app_id: appId, account: acc, kind: k }).toString())}">${text}</a>`;
    const items = (await listAccounts(app.db))
      .map(
        (a) =>
          `<li><span>${esc(a.nickname)}（${esc(a.account)}）</span><span>${link(a.account, 'ticket', '单点登录')}${link(a.account, 'token', '令牌登录', 'plain')}</span></li>`,
      )
      .join('\n');
    const body = `<p class="hint">${esc(APP_NAMES[appId]!)} 的统一登录页。选择账号后，将带着票据（ticket）或登录令牌（token）跳转到开票台。</p><ul>${items}</ul>`;
    return reply.type('text/html; charset=utf-8').send(page(`${APP_NAMES[appId]} · 统一登录`, body));
  });

  app.get(
    '/sandbox/sso/logout',
    { config: PUBLIC, schema: { querystring: z.object({ source: partnerAppIdSchema.default('22') }) } },
    async (req, reply) => {
      const source = req.query.source;
      const body = `<p>您已退出开票台。</p><p><a class="btn" href="/sandbox/sso/login?app_id=${esc(source)}">重新登录</a><a class="btn plain" href="/user/login">使用开票台账号登录</a></p>`;
      return reply.type('text/html; charset=utf-8').send(page(`${APP_NAMES[source]} · 已退出`, body));
    },
  );

  app.get(
    '/sandbox/wecom/login',
    { config: PUBLIC, schema: { querystring: wecomQuery } },
    async (req, reply) => {
      const { corp_id: corpId, qw_user_id: qwUserId } = req.query;
      if (corpId && qwUserId) {
        const code = await issueSandboxWecomCode(app.db, corpId, qwUserId);
        return reply.redirect(`/user/login?${new URLSearchParams({ code, appid: SANDBOX_WECOM_APPID })}`);
      }
      const link = (corp: string, user: string) =>
        `<a class="btn" href="/sandbox/wecom/login?${esc(new URLSearchParams({ corp_id: corp, qw_user_id: user }).toString())}">进入开票台</a>`;
      const members = (await listWecomMembers(app.db)).map(
        (m) =>
          `<li><span>${esc(m.qwUserId)} · ${esc(m.corpId)} · ${m.account ? `已绑定 ${esc(m.account)}` : '未绑定账号'} · 角色 ${m.role}</span>${link(m.corpId, m.qwUserId)}</li>`,
      );
      members.push(
        `<li><span>stranger · ${DEMO_CORP} · 未登记的企业成员</span>${link(DEMO_CORP, 'stranger')}</li>`,
      );
      const body = `<p class="hint">企业微信工作台的开票台应用。选择企业成员，将带着授权码（code）进入开票台。</p><ul>${members.join('\n')}</ul>`;
      return reply.type('text/html; charset=utf-8').send(page('企业微信 · 开票台', body));
    },
  );
};
