import {
  jcQrCodeBodySchema,
  jcQrCodeResponseSchema,
  REAL_NAME_CALLS,
  realNameInfoSchema,
  realNameSmsBodySchema,
  realNameSmsLoginBodySchema,
  realNameSmsLoginResponseSchema,
  realNameSmsResponseSchema,
  realPersonAuthQuerySchema,
} from '@kaipiao/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { assertDeviceInScope, scopeOf } from '../../lib/scope.ts';
import type { RealNameService } from './service.ts';

/**
 * The business the call acts for (the auth plugin checked client_id against the session), once the
 * device is one of the caller's stores' (else 12003 无权限操作该门店).
 */
async function clientFor(req: FastifyRequest, deviceId: number): Promise<number> {
  const scope = scopeOf(req);
  await assertDeviceInScope(req.server.db, scope, deviceId);
  return scope.clientId;
}

const LOGGED_IN = '当前账号已登录';

/**
 * spec §7 equipment calls of the real-name dialog. Whether authorisation is needed is the device
 * check's answer (GET /v3/equipment/check-tax, devices module) from `RealNameService.authNeeds`.
 */
export function realNameRoutes(service: RealNameService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      REAL_NAME_CALLS.realPersonAuth.path,
      {
        config: { scope: 'store' },
        schema: { querystring: realPersonAuthQuerySchema, response: reply200(realNameInfoSchema) },
      },
      async (req) =>
        ok(
          await service.info(
            await clientFor(req, req.query.device_id),
            req.query.device_id,
            req.query.judge_invoice_status === 1,
          ),
        ),
    );

    app.post(
      REAL_NAME_CALLS.qrCode.path,
      {
        config: { scope: 'store' },
        schema: { body: jcQrCodeBodySchema, response: reply200(jcQrCodeResponseSchema) },
      },
      async (req) => ok(await service.qrCode(await clientFor(req, req.body.device_id), req.body.device_id)),
    );

    // the two SMS variants (spec §7, chosen by ele_tax_login_type) reach the same sandbox bureau
    for (const call of [REAL_NAME_CALLS.smsTaxStation, REAL_NAME_CALLS.smsAutonomous]) {
      app.post(
        call.path,
        {
          config: { scope: 'store' },
          schema: { body: realNameSmsBodySchema, response: reply200(realNameSmsResponseSchema) },
        },
        async (req) => {
          const r = await service.sendSms(await clientFor(req, req.body.device_id), req.body.device_id);
          return ok(r, r.logged_in ? LOGGED_IN : '短信验证码已发送');
        },
      );
    }
    for (const call of [REAL_NAME_CALLS.smsLoginTaxStation, REAL_NAME_CALLS.smsLoginAutonomous]) {
      app.post(
        call.path,
        {
          config: { scope: 'store' },
          schema: { body: realNameSmsLoginBodySchema, response: reply200(realNameSmsLoginResponseSchema) },
        },
        async (req) =>
          ok(
            await service.smsLogin(
              await clientFor(req, req.body.device_id),
              req.body.device_id,
              req.body.sms_code,
            ),
            '登录成功',
          ),
      );
    }
  };
}
