import { loginStatusQuerySchema, loginStatusResponseSchema, qrCodeResponseSchema } from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { createQrLogin, qrLoginStatus } from './qr-login.ts';

const PUBLIC = { auth: 'public' } as const;

/** spec §7 QR login: the login page shows the QR and polls until a phone confirms it. */
export const qrRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v3/user/qr-code',
    { config: PUBLIC, schema: { response: reply200(qrCodeResponseSchema) } },
    async (req) => ok(await createQrLogin(app.db, `${req.protocol}://${req.host}`)),
  );

  app.get(
    '/v3/user/get-login-status',
    {
      // the poll that sees the confirmation gets the token, and the cookie (plugins/security.ts)
      config: { auth: 'public', issuesSession: true },
      schema: { querystring: loginStatusQuerySchema, response: reply200(loginStatusResponseSchema) },
    },
    async (req) => ok(await qrLoginStatus(app.db, req.query.qr_id)),
  );
};
