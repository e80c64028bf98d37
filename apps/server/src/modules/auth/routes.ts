import {
  accountLoginBodySchema,
  loginResponseSchema,
  logoutResponseSchema,
  mfaCheckBodySchema,
  mfaCheckResponseSchema,
  mfaLoginBodySchema,
  okSchema,
  pictureCodeResponseSchema,
  publicKeyResponseSchema,
  regSmsBodySchema,
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
import { consumeCaptcha, createCaptcha } from './captcha.ts';
import { currentKey } from './keys.ts';
import * as repo from './repo.ts';
import * as service from './service.ts';
import { toUserInfo } from './session-issue.ts';
import { sendSmsCode } from './sms-codes.ts';

const PUBLIC = { auth: 'public' } as const;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v3/user/picture-code',
    { config: PUBLIC, schema: { response: reply200(pictureCodeResponseSchema) } },
    async () => ok(await createCaptcha(app.db, app.env.KAIPIAO_FIXED_CAPTCHA)),
  );

  app.get(
    '/v3/user/public-key',
    { config: PUBLIC, schema: { response: reply200(publicKeyResponseSchema) } },
    async () => {
      const key = await currentKey(app.db);
      return ok({ key_id: key.id, public_key: key.publicKey });
    },
  );

  app.post(
    '/v3/user/account-login',
    { config: PUBLIC, schema: { body: accountLoginBodySchema, response: reply200(loginResponseSchema) } },
    async (req) => ok(await service.accountLogin(app.db, req.body), '登录成功'),
  );

  app.post(
    '/v3/multi-factor/check',
    { config: PUBLIC, schema: { body: mfaCheckBodySchema, response: reply200(mfaCheckResponseSchema) } },
    async (req) => ok(await service.mfaCheck(app.db, req.body.account, req.body.secure_id)),
  );

  // spec §7: reg-sms (mobile, picture_code, unique_code) → number; needs a valid picture code first
  app.post(
    '/v3/multi-factor/reg-sms',
    { config: PUBLIC, schema: { body: regSmsBodySchema, response: reply200(smsSendResponseSchema) } },
    async (req) => {
      await consumeCaptcha(app.db, req.body.unique_code, req.body.picture_code);
      return ok(
        await sendSmsCode(app.db, app.providers.sms, req.body.mobile, 'login', req.ip),
        '短信验证码已发送到您的手机，请注意查收',
      );
    },
  );

  app.post(
    '/v3/multi-factor/login',
    { config: PUBLIC, schema: { body: mfaLoginBodySchema, response: reply200(loginResponseSchema) } },
    async (req) => ok(await service.mfaLogin(app.db, req.body), '登录成功'),
  );

  app.post(
    '/v3/system/send-sms',
    { schema: { body: sendSmsBodySchema, response: reply200(smsSendResponseSchema) } },
    async (req) => {
      const user = await repo.findUserById(app.db, req.session!.userId);
      if (!user) throw new AppError(401);
      // a signed-in user's codes go to their own mobile, except when binding a new one
      const mobile = req.body.type === 'bind_mobile' && req.body.mobile ? req.body.mobile : user.mobile;
      await consumeCaptcha(app.db, req.body.unique_code, req.body.picture_code);
      return ok(
        await sendSmsCode(app.db, app.providers.sms, mobile, req.body.type, req.ip),
        '短信验证码已发送到您的手机，请注意查收',
      );
    },
  );

  app.post(
    '/v3/user/reset-password',
    { schema: { body: resetPasswordBodySchema, response: reply200(okSchema) } },
    async (req) => {
      await service.resetPassword(app.db, req.session!.userId, req.body);
      return ok(null, '密码修改成功');
    },
  );

  app.get('/v3/user/info', { schema: { response: reply200(userInfoSchema) } }, async (req) => {
    const s = req.session!;
    const user = await repo.findUserById(app.db, s.userId);
    if (!user) throw new AppError(401);
    return ok(toUserInfo(user, s));
  });

  // spec §4 logout: partner sign-on and source 22 go back to their own pages
  app.get('/v3/user/logout', { schema: { response: reply200(logoutResponseSchema) } }, async (req) => {
    const s = req.session!;
    await deleteSession(app.db, s.tokenHash);
    app.accessService.forgetSession(s.tokenHash);
    return ok({ redirect_url: partnerLogoutUrl(app.env.KAIPIAO_SSO_BASE, s.source) });
  });
};
