import { beijingDay, PG_INT_MAX } from '@kaipiao/shared';
import {
  applyStockBodySchema,
  checkTaxSchema,
  deviceDetailSchema,
  deviceItemSchema,
  filingBodySchema,
  filingItemSchema,
  healthRowSchema,
  moveStockBodySchema,
  stockMovementSchema,
  taxAccountBodySchema,
  taxAccountItemSchema,
} from '@kaipiao/shared/schemas/devices';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { encodedOk, sendEncoded, storesKey } from '../../lib/read-cache.ts';
import { employeeScope, scopeOf } from '../../lib/scope.ts';
import { assertStoreVisible } from '../stores/service.ts';
import * as accounts from './accounts.ts';
import * as common from './common.ts';
import { defineFilingLockJob } from './filing-locks.ts';
import * as filings from './filings.ts';
import * as service from './service.ts';
import * as stock from './stock.ts';

const STORE_MENUS = ['/group/client-store', '/hotel/group/client-store'] as const;
const DEVICE_MENUS = [
  '/device-project/device',
  '/device-project/account',
  '/invoice-manage/receive',
  '/invoice-manage/dispense',
  '/report-summary/summary',
  ...STORE_MENUS,
] as const;
const ACCOUNT_MENU = '/device-project/account';
const STOCK_MENUS = [
  '/invoice-manage/receive',
  '/invoice-manage/dispense',
  '/device-project/device',
] as const;

const idQuery = z.object({ id: z.coerce.number().int().positive().max(PG_INT_MAX) });
const idBody = z.object({ id: z.number().int().positive().max(PG_INT_MAX) });
const done = z.object({ id: z.number() });

/**
 * Devices, 电子税务局 accounts, invoice stock and monthly filing (issue 5; spec §7 Client and
 * stores / Equipment). Every id is looked up inside the session's business (another's → 21001/21002/21005).
 */
export const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  // the editor's cached access (known stores, white-listed menu) is reloaded at once; others' within its TTL
  const refresh = (req: FastifyRequest) => app.invalidate({ userId: req.session!.userId });
  defineFilingLockJob(app);
  /**
   * The device check (spec §4: the console shell runs it on every page) kept per business and
   * store scope (lib/read-cache.ts): forgotten by every write of the business (plugins/invalidation.ts),
   * an invoice issued (the issued hook), the sandbox controls and the filing-lock sweep; a login or a
   * QR that lapses ends it on the app's clock.
   */
  const checks = app.readCaches.cache<Awaited<ReturnType<typeof service.checkTax>>>({
    ttlMs: 60_000,
    until: (v) => v.until,
    now: () => app.clock().getTime(),
  });

  // ---- devices (spec §7 Projects/Equipment) ----
  app.get(
    '/v3/client/client-equ-list',
    {
      config: { menu: DEVICE_MENUS, scope: 'store' },
      schema: { response: reply200(z.array(deviceItemSchema)) },
    },
    async (req) => ok(await common.listDevices(app, scopeOf(req))),
  );
  app.post(
    '/v3/client-store/tax-equipment-list',
    {
      // a POST that reads (a lock it applies announces itself: filing-locks.ts)
      config: { menu: DEVICE_MENUS, scope: 'store', readsOnly: true },
      schema: {
        body: z
          .object({ store_id: z.number().int().min(-PG_INT_MAX).max(PG_INT_MAX).optional() })
          .default({}),
        response: reply200(z.array(deviceItemSchema)),
      },
    },
    async (req) => {
      const storeId = req.body.store_id;
      const scope = scopeOf(req);
      if (storeId !== undefined && storeId > 0) await assertStoreVisible(app, scope, storeId);
      return ok(await common.listDevices(app, scope, storeId));
    },
  );
  app.get(
    '/v3/equipment/detail',
    {
      config: { menu: DEVICE_MENUS, scope: 'store' },
      schema: { querystring: idQuery, response: reply200(deviceDetailSchema) },
    },
    async (req) => ok(await service.deviceDetail(app, scopeOf(req), req.query.id)),
  );
  app.get(
    '/v3/equipment/group-by-channel',
    {
      config: { menu: DEVICE_MENUS, scope: 'store' },
      schema: {
        response: reply200(
          z.array(
            z.object({
              channel: z.string(),
              kind_name: z.string(),
              devices: z.array(
                z.object({
                  device_id: z.number(),
                  name: z.string(),
                  is_main: z.boolean(),
                  online: z.boolean(),
                }),
              ),
            }),
          ),
        ),
      },
    },
    async (req) => ok(await service.groupByChannel(app, scopeOf(req))),
  );
  // the console shell runs the device check for every user of the business (spec §4), so no menu
  // entry is required; the list holds only the devices of the user's stores
  app.get(
    '/v3/equipment/check-tax',
    { config: { scope: 'store' }, schema: { response: reply200(checkTaxSchema) } },
    async (req, reply) => {
      const scope = scopeOf(req);
      // the answer is the business's devices as the employee's stores see them, on this day (a
      // 锁死期 that has come is applied on the first read of a day)
      const key = `${storesKey(employeeScope(scope).storeIds)}|${beijingDay()}`;
      const answer = await checks.get(key, { clientId: scope.clientId }, () => service.checkTax(app, scope));
      // the schema leaves `until` out
      return sendEncoded(reply, encodedOk(answer, checkTaxSchema));
    },
  );
  app.get(
    '/v3/equipment/session-health',
    {
      config: { menu: DEVICE_MENUS, scope: 'store' },
      schema: { response: reply200(z.array(healthRowSchema)) },
    },
    async (req) => ok(await accounts.healthBoard(app, scopeOf(req))),
  );

  // ---- tax accounts (white-listed businesses only, spec §6) ----
  app.get(
    '/v3/tax-account/white-list-tax-account',
    {
      config: { menu: DEVICE_MENUS, scope: 'store' },
      schema: {
        response: reply200(
          z.object({
            white_listed: z.boolean(),
            accounts: z.array(z.object({ id: z.number(), account: z.string(), person_name: z.string() })),
          }),
        ),
      },
    },
    async (req) => ok(await accounts.whiteList(app, scopeOf(req))),
  );
  app.get(
    '/v3/tax-account/list',
    {
      config: { menu: ACCOUNT_MENU, scope: 'store' },
      schema: { response: reply200(z.array(taxAccountItemSchema)) },
    },
    async (req) => {
      const scope = scopeOf(req);
      await accounts.assertWhiteListed(app, scope);
      return ok(await accounts.accountStates(app, scope));
    },
  );
  app.post(
    '/v3/tax-account/save',
    {
      config: { menu: ACCOUNT_MENU, scope: 'store' },
      schema: { body: taxAccountBodySchema, response: reply200(done) },
    },
    async (req) => {
      const scope = scopeOf(req);
      await accounts.assertWhiteListed(app, scope);
      const b = req.body;
      const id = await accounts.saveAccount(app, scope, { ...b, id: b.id as number });
      await refresh(req);
      return ok({ id }, '保存成功');
    },
  );
  app.post(
    '/v3/tax-account/disable',
    { config: { menu: ACCOUNT_MENU, scope: 'store' }, schema: { body: idBody, response: reply200(done) } },
    async (req) => {
      const scope = scopeOf(req);
      await accounts.assertWhiteListed(app, scope);
      await accounts.setAccountStatus(app, scope, req.body.id, 'disabled');
      await refresh(req);
      return ok({ id: req.body.id }, '已停用');
    },
  );

  // ---- invoice stock: 领票 / 分发 / 退回 ----
  app.get(
    '/v3/invoice-manage/movements',
    {
      config: { menu: STOCK_MENUS, scope: 'store' },
      schema: { response: reply200(z.array(stockMovementSchema)) },
    },
    async (req) => ok(await stock.listMovements(app, scopeOf(req))),
  );
  app.post(
    '/v3/invoice-manage/apply',
    {
      config: { menu: '/invoice-manage/receive', scope: 'store' },
      schema: {
        body: applyStockBodySchema,
        response: reply200(z.object({ invoiceCode: z.string(), startNo: z.number(), endNo: z.number() })),
      },
    },
    async (req) => ok(await stock.applyStock(app, scopeOf(req), req.body), '领票成功'),
  );
  for (const kind of ['distribute', 'return'] as const) {
    app.post(
      `/v3/invoice-manage/${kind}`,
      {
        config: { menu: '/invoice-manage/dispense', scope: 'store' },
        schema: { body: moveStockBodySchema, response: reply200(z.object({ moved: z.number() })) },
      },
      async (req) =>
        ok(
          await stock.moveStock(app, scopeOf(req), kind, req.body),
          kind === 'distribute' ? '分发成功' : '退回成功',
        ),
    );
  }

  // ---- monthly filing ----
  app.get(
    '/v3/report-summary/list',
    {
      config: { menu: '/report-summary/summary', scope: 'store' },
      schema: { response: reply200(z.array(filingItemSchema)) },
    },
    async (req) => ok(await filings.listFilings(app, scopeOf(req))),
  );
  for (const action of ['copy', 'clear'] as const) {
    app.post(
      `/v3/report-summary/${action}`,
      {
        config: { menu: '/report-summary/summary', scope: 'store' },
        schema: { body: filingBodySchema, response: reply200(done) },
      },
      async (req) => {
        await filings.fileDevice(app, scopeOf(req), action, req.body.device_id);
        return ok({ id: req.body.device_id }, action === 'copy' ? '汇总上传成功' : '清卡成功');
      },
    );
  }
};
