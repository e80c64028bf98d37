import {
  checkSecureIdBodySchema,
  checkSecureIdResponseSchema,
  verifySecureIdMobileBodySchema,
  verifySecureIdMobileResponseSchema,
  wecomLoginBodySchema,
  wecomLoginResponseSchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { checkSecureId, verifySecureIdMobile } from './partner-login.ts';
import { wecomLogin } from './wecom-login.ts';

/** answers with a session token: the server also sets it as the HttpOnly cookie (plugins/security.ts) */
const SIGN_IN = { auth: 'public', issuesSession: true } as const;

/** spec §4 login routing: partner token / ticket in the URL, and the work-app code. */
export const signOnRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/v3/multi-factor/check-secure-id',
    {
      config: SIGN_IN,
      schema: { body: checkSecureIdBodySchema, response: reply200(checkSecureIdResponseSchema) },
    },
    async (req) => ok(await checkSecureId(app.db, app.providers.signOn, req.body)),
  );

  app.post(
    '/v3/multi-factor/verify-secure-id-mobile',
    {
      config: SIGN_IN,
      schema: {
        body: verifySecureIdMobileBodySchema,
        response: reply200(verifySecureIdMobileResponseSchema),
      },
    },
    async (req) => ok(await verifySecureIdMobile(app.db, app.env.dataDir, app.providers.signOn, req.body)),
  );

  app.post(
    '/v3/enterprise-we-chat/get-qwuserid-and-corpid',
    { config: SIGN_IN, schema: { body: wecomLoginBodySchema, response: reply200(wecomLoginResponseSchema) } },
    async (req) => ok(await wecomLogin(app.db, app.providers.wecom, req.body)),
  );
};
