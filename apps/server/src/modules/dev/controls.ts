import {
  CODE,
  devNoticeUnreadBodySchema,
  devQrConfirmBodySchema,
  devQrConfirmResponseSchema,
  devSsoIssueBodySchema,
  devSsoIssueResponseSchema,
  devWecomIssueCodeBodySchema,
  devWecomIssueCodeResponseSchema,
  okSchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { issueSandboxCredential } from '../../providers/sign-on.ts';
import { issueSandboxWecomCode } from '../../providers/wecom.ts';
import { advanceQrLogin } from '../auth/qr-login.ts';
import { forgetNoticeReads } from '../system/repo.ts';
import { findAccount } from './repo.ts';

const PUBLIC = { auth: 'public' } as const;

export async function accountId(db: Db, account: string): Promise<number> {
  const found = await findAccount(db, account);
  if (!found) throw new AppError(CODE.NOT_FOUND, '账号不存在');
  return found.id;
}

/**
 * Sandbox controls standing in for the phone that scans the login QR, the partner that signs a
 * user in, and the work app that authorises a member. Registered only outside production.
 */
export const devControls: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/v3/dev/qr-confirm',
    {
      config: PUBLIC,
      schema: { body: devQrConfirmBodySchema, response: reply200(devQrConfirmResponseSchema) },
    },
    async (req) => {
      const userId = await accountId(app.db, req.body.account);
      return ok(await advanceQrLogin(app.db, req.body.qr_id, userId, req.body.step));
    },
  );

  // the public notice shows again to an account that read it (what a new notice would do)
  app.post(
    '/v3/dev/notice-unread',
    { config: PUBLIC, schema: { body: devNoticeUnreadBodySchema, response: reply200(okSchema) } },
    async (req) => {
      const userId = await accountId(app.db, req.body.account);
      await forgetNoticeReads(app.db, userId);
      await app.invalidate({ users: [userId] });
      return ok(null);
    },
  );

  app.post(
    '/v3/dev/sso/issue',
    {
      config: PUBLIC,
      schema: { body: devSsoIssueBodySchema, response: reply200(devSsoIssueResponseSchema) },
    },
    async (req) => {
      const userId = await accountId(app.db, req.body.account);
      return ok({ ticket: await issueSandboxCredential(app.db, userId, req.body.kind, req.body.app_id) });
    },
  );

  app.post(
    '/v3/dev/wecom/issue-code',
    {
      config: PUBLIC,
      schema: { body: devWecomIssueCodeBodySchema, response: reply200(devWecomIssueCodeResponseSchema) },
    },
    async (req) => {
      const { corp_id, qw_user_id, appid } = req.body;
      return ok({ code: await issueSandboxWecomCode(app.db, corp_id, qw_user_id, appid) });
    },
  );
};
