import {
  CODE,
  logoutResponseSchema,
  MSG,
  okSchema,
  resetPasswordBodySchema,
  sendSmsBodySchema,
  smsSendResponseSchema,
  userInfoSchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { partnerLogoutUrl } from '../../providers/sign-on.ts';
import { deleteSession } from '../session/repo.ts';
import { consumeCaptcha } from './captcha.ts';
import { resetPassword } from './password-change.ts';
import * as repo from './repo.ts';
import { toUserInfo } from './session-issue.ts';
import { sendSmsCode } from './sms-codes.ts';

/** The signed-in user's own account: SMS, password change, info, logout. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/v3/system/send-sms',
    { schema: { body: sendSmsBodySchema, response: reply200(smsSendResponseSchema) } },
    async (req) => {
      const user = await repo.findUserById(app.db, req.session!.userId);
      if (!user) throw new AppError(CODE.UNAUTHORIZED);
      // a signed-in user's codes go to their own mobile, except when binding a new one
      const mobile = req.body.type === 'bind_mobile' && req.body.mobile ? req.body.mobile : user.mobile;
      await consumeCaptcha(app.db, req.body.unique_code, req.body.picture_code);
      return ok(await sendSmsCode(app.db, app.providers.sms, mobile, req.body.type, req.ip), MSG.SMS_SENT);
    },
  );

  app.post(
    '/v3/user/reset-password',
    { schema: { body: resetPasswordBodySchema, response: reply200(okSchema) } },
    async (req) => {
      const ended = await resetPassword(app.db, req.session!, req.body);
      await app.invalidate({ sessions: ended, userId: req.session!.userId });
      return ok(null, MSG.PASSWORD_CHANGED);
    },
  );

  app.get('/v3/user/info', { schema: { response: reply200(userInfoSchema) } }, async (req) => {
    const s = req.session!;
    const user = await repo.findUserById(app.db, s.userId);
    if (!user) throw new AppError(CODE.UNAUTHORIZED);
    return ok(toUserInfo(user, s));
  });

  // spec §4 logout: partner sign-on and source 22 go back to their own pages
  app.get('/v3/user/logout', { schema: { response: reply200(logoutResponseSchema) } }, async (req) => {
    const s = req.session!;
    await deleteSession(app.db, s.tokenHash);
    await app.invalidate({ sessions: [s.tokenHash] });
    return ok({ redirect_url: partnerLogoutUrl(app.env.KAIPIAO_SSO_BASE, s.source) });
  });
};
