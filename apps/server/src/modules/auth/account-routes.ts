import {
  CODE,
  logoutResponseSchema,
  MSG,
  okSchema,
  resetPasswordBodySchema,
  SESSION_CODE,
  sendSmsBodySchema,
  smsSendResponseSchema,
  userInfoSchema,
} from '@kaipiao/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { clearSessionCookie, headerToken } from '../../plugins/security.ts';
import { partnerLogoutUrl } from '../../providers/sign-on.ts';
import { deleteSession } from '../session/repo.ts';
import { consumeCaptcha } from './captcha.ts';
import { resetPassword } from './password-change.ts';
import * as repo from './repo.ts';
import { toUserInfo, type UserInfoRow } from './session-issue.ts';
import { sendSmsCode } from './sms-codes.ts';

/** The signed-in user's own account: SMS, password change, info, logout. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * GET /v3/user/info's user row (lib/read-cache.ts): forgotten by every write of the user's own
   * (closing the tax-rate tip, changing the password: plugins/invalidation.ts) and by
   * `app.invalidate({ userId })`; users are written nowhere else.
   */
  const users = app.readCaches.cache<UserInfoRow | null>({ ttlMs: 60_000 });
  const infoRow = async (userId: number): Promise<UserInfoRow | null> => {
    const row = await repo.findUserById(app.db, userId);
    if (!row) return null;
    const { passwordHash: _, ...info } = row;
    return info;
  };

  app.post(
    '/v3/system/send-sms',
    {
      config: { scope: 'user' },
      schema: { body: sendSmsBodySchema, response: reply200(smsSendResponseSchema) },
    },
    async (req) => {
      const user = await repo.findUserById(app.db, req.session!.userId);
      // Stryker disable next-line ConditionalExpression: a session's user exists (sessions reference users, which are never deleted)
      if (!user) throw new AppError(CODE.UNAUTHORIZED);
      // a signed-in user's codes go to their own mobile, except when binding a new one
      const mobile = req.body.type === 'bind_mobile' && req.body.mobile ? req.body.mobile : user.mobile;
      await consumeCaptcha(app.db, req.body.unique_code, req.body.picture_code);
      return ok(
        await sendSmsCode(
          app.db,
          app.env.dataDir,
          app.providers.sms,
          mobile,
          req.body.type,
          req.ip,
          app.clock,
        ),
        MSG.SMS_SENT,
      );
    },
  );

  app.post(
    '/v3/user/reset-password',
    { config: { scope: 'user' }, schema: { body: resetPasswordBodySchema, response: reply200(okSchema) } },
    async (req) => {
      const ended = await resetPassword(app.db, app.env.dataDir, req.session!, req.body);
      await app.invalidate({ sessions: ended, userId: req.session!.userId });
      return ok(null, MSG.PASSWORD_CHANGED);
    },
  );

  app.get(
    '/v3/user/info',
    {
      config: { scope: 'user' },
      // Stryker disable next-line ObjectLiteral: toUserInfo builds exactly the schema's fields in its order, so the answer's JSON is the same unserialised
      schema: { response: reply200(userInfoSchema) },
    },
    async (req) => {
      const s = req.session!;
      // the row is cached (the first screen's read); what is built from it and the session is not
      const user = await users.get('', { userId: s.userId }, () => infoRow(s.userId));
      if (!user) throw new AppError(CODE.UNAUTHORIZED);
      return ok(toUserInfo(user, s));
    },
  );

  // spec §4 logout: partner sign-on and source 22 go back to their own pages
  const logout = async (req: FastifyRequest, reply: FastifyReply) => {
    const s = req.session!;
    await deleteSession(app.db, s.tokenHash);
    await app.invalidate({ sessions: [s.tokenHash] });
    clearSessionCookie(req, reply);
    return ok({ redirect_url: partnerLogoutUrl(app.env.KAIPIAO_SSO_BASE, s.source) });
  };
  // Stryker disable next-line ObjectLiteral: the answer is exactly the schema's one field, so its JSON is the same unserialised
  const logoutSchema = { response: reply200(logoutResponseSchema) };
  // the console's logout (plugins/security.ts refuses it from another site's page)
  app.post('/v3/user/logout', { config: { scope: 'user' }, schema: logoutSchema }, logout);
  // the spec's GET stays for API clients with the access-token header; a link on another site
  // carries only the cookie and must not end the session (issue 21 L3)
  app.get('/v3/user/logout', { config: { scope: 'user' }, schema: logoutSchema }, async (req, reply) => {
    if (!headerToken(req)) throw new AppError(SESSION_CODE.LOGOUT_NEEDS_POST);
    return logout(req, reply);
  });
};
