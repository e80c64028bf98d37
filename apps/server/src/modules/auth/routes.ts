import {
  accountLoginBodySchema,
  loginResponseSchema,
  MSG,
  mfaCheckBodySchema,
  mfaCheckResponseSchema,
  mfaLoginBodySchema,
  mfaTicketSmsBodySchema,
  mfaTicketSmsResponseSchema,
  pictureCodeResponseSchema,
  publicKeyResponseSchema,
  regSmsBodySchema,
  smsSendResponseSchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { accountRoutes } from './account-routes.ts';
import { consumeCaptcha, createCaptcha } from './captcha.ts';
import { currentKey } from './keys.ts';
import { qrRoutes } from './qr-routes.ts';
import * as service from './service.ts';
import { signOnRoutes } from './sign-on-routes.ts';
import { sendSmsCode } from './sms-codes.ts';

const PUBLIC = { auth: 'public' } as const;
/** answers with a session token: the server also sets it as the HttpOnly cookie (plugins/security.ts) */
const SIGN_IN = { auth: 'public', issuesSession: true } as const;

/** spec §7 login and user: the password login, two-factor, and (registered below) the other entries. */
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
    { config: SIGN_IN, schema: { body: accountLoginBodySchema, response: reply200(loginResponseSchema) } },
    async (req) =>
      ok(await service.accountLogin(app.db, app.env.dataDir, req.body, req.ip, app.clock()), MSG.LOGIN_OK),
  );

  app.post(
    '/v3/multi-factor/check',
    { config: PUBLIC, schema: { body: mfaCheckBodySchema, response: reply200(mfaCheckResponseSchema) } },
    async () => ok(service.mfaCheck()),
  );

  // spec §7: reg-sms (mobile, picture_code, unique_code) → number; needs a valid picture code first
  app.post(
    '/v3/multi-factor/reg-sms',
    { config: PUBLIC, schema: { body: regSmsBodySchema, response: reply200(smsSendResponseSchema) } },
    async (req) => {
      await consumeCaptcha(app.db, req.body.unique_code, req.body.picture_code);
      return ok(
        await sendSmsCode(
          app.db,
          app.env.dataDir,
          app.providers.sms,
          req.body.mobile,
          'login',
          req.ip,
          app.clock,
        ),
        MSG.SMS_SENT,
      );
    },
  );

  // the phone-verification dialog's code: to the bound mobile of the ticket's account (no picture
  // code again, no number typed — issue 24 item 2); same limits as every login code
  app.post(
    '/v3/multi-factor/ticket-sms',
    {
      config: PUBLIC,
      schema: { body: mfaTicketSmsBodySchema, response: reply200(mfaTicketSmsResponseSchema) },
    },
    async (req) =>
      ok(
        await service.mfaTicketSms(app.db, app.env.dataDir, app.providers.sms, req.body, req.ip, app.clock),
        MSG.SMS_SENT,
      ),
  );

  app.post(
    '/v3/multi-factor/login',
    { config: SIGN_IN, schema: { body: mfaLoginBodySchema, response: reply200(loginResponseSchema) } },
    async (req) => ok(await service.mfaLogin(app.db, app.env.dataDir, req.body), MSG.LOGIN_OK),
  );

  await app.register(accountRoutes);
  await app.register(qrRoutes);
  await app.register(signOnRoutes);
};
