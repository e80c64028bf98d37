import { beijingMonth, INVOICE_CODE, invoiceTypeSchema, PG_INT_MAX, text } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelSandboxControls, taxDevices } from '../db/schema/index.ts';
import { AppError } from '../lib/app-error.ts';
import { ok, reply200 } from '../lib/envelope.ts';
import { addNumberRange } from './numbers.ts';
import { SANDBOX_FAULTS, SandboxTaxChannel } from './sandbox.ts';

const PUBLIC = { auth: 'public' } as const;
const moneyText = text().regex(/^\d{1,16}(\.\d{1,2})?$/);

const controlBodySchema = z.object({
  device_id: z.number().int().positive().max(PG_INT_MAX),
  latency_ms: z.number().int().min(0).max(120_000).optional(),
  /** none | error (bureau code + message) | timeout | unknown (issued, but answered "unknown") */
  fault: z.enum(SANDBOX_FAULTS).optional(),
  fault_code: text().max(20).optional(),
  fault_message: text().max(200).optional(),
  /** how many further issue calls the fault applies to; null = until cleared */
  fault_count: z.number().int().min(1).max(PG_INT_MAX).nullable().optional(),
  timeout_ms: z.number().int().min(0).max(120_000).optional(),
  /** an "unknown" outcome's invoice shows up in query-by-serial after this many seconds */
  unknown_visible_after_s: z.number().int().min(0).max(86_400).optional(),
});

const deviceBodySchema = z.object({
  device_id: z.number().int().positive().max(PG_INT_MAX),
  online: z.boolean().optional(),
  locked: z.boolean().optional(),
  per_invoice_limit: moneyText.optional(),
  monthly_quota: moneyText.nullable().optional(),
  quota_used: moneyText.optional(),
});

const stockBodySchema = z.object({
  device_id: z.number().int().positive().max(PG_INT_MAX),
  invoice_type: invoiceTypeSchema,
  count: z.number().int().min(1).max(100_000),
});

const stateSchema = z.object({
  device_id: z.number(),
  online: z.boolean(),
  locked: z.boolean(),
  per_invoice_limit: z.string(),
  monthly_quota: z.string().nullable(),
  quota_used: z.string(),
  quota_month: z.string(),
  stock: z.record(z.string(), z.number()),
  control: z.object({
    latency_ms: z.number(),
    fault: z.string(),
    fault_code: z.string(),
    fault_message: z.string(),
    fault_remaining: z.number().nullable(),
    timeout_ms: z.number(),
    unknown_visible_after_s: z.number(),
  }),
});

/**
 * Sandbox tax-channel controls (architecture.md §1), registered only outside production: latency
 * and faults per device, device state (online, filing lock, limit, quota) and stock requisition.
 */
export const channelDevRoutes: FastifyPluginAsyncZod = async (app) => {
  const device = async (id: number) => {
    const [d] = await app.db.select().from(taxDevices).where(eq(taxDevices.id, id));
    if (!d) throw new AppError(INVOICE_CODE.DEVICE_NOT_FOUND);
    return d;
  };

  const forgetControl = (id: number) => {
    if (app.taxChannel instanceof SandboxTaxChannel) app.taxChannel.invalidateControl(id);
  };

  const state = async (id: number) => {
    const quota = (await app.taxChannel.quota(id))!;
    const d = await device(id);
    const [c] = await app.db
      .select()
      .from(channelSandboxControls)
      .where(eq(channelSandboxControls.deviceId, id));
    return {
      device_id: id,
      online: d.online,
      locked: d.locked,
      per_invoice_limit: quota.perInvoiceLimit,
      monthly_quota: quota.monthlyQuota,
      quota_used: quota.quotaUsed,
      quota_month: quota.quotaMonth,
      stock: quota.stock,
      control: {
        latency_ms: c?.latencyMs ?? 0,
        fault: c?.fault ?? 'none',
        fault_code: c?.faultCode ?? '',
        fault_message: c?.faultMessage ?? '',
        fault_remaining: c?.faultRemaining ?? null,
        timeout_ms: c?.timeoutMs ?? 1000,
        unknown_visible_after_s: c?.unknownVisibleAfterS ?? 0,
      },
    };
  };

  app.get(
    '/v3/dev/channel/state',
    {
      config: PUBLIC,
      schema: {
        querystring: z.object({ device_id: z.coerce.number().int().positive().max(PG_INT_MAX) }),
        response: reply200(stateSchema),
      },
    },
    async (req) => ok(await state(req.query.device_id)),
  );

  app.post(
    '/v3/dev/channel/control',
    { config: PUBLIC, schema: { body: controlBodySchema, response: reply200(stateSchema) } },
    async (req) => {
      const b = req.body;
      const d = await device(b.device_id);
      const set = {
        ...(b.latency_ms !== undefined && { latencyMs: b.latency_ms }),
        ...(b.fault !== undefined && { fault: b.fault }),
        ...(b.fault_code !== undefined && { faultCode: b.fault_code }),
        ...(b.fault_message !== undefined && { faultMessage: b.fault_message }),
        ...(b.fault_count !== undefined && { faultRemaining: b.fault_count }),
        ...(b.timeout_ms !== undefined && { timeoutMs: b.timeout_ms }),
        ...(b.unknown_visible_after_s !== undefined && { unknownVisibleAfterS: b.unknown_visible_after_s }),
      };
      // a new fault without a count lasts until cleared
      if (b.fault !== undefined && b.fault_count === undefined) Object.assign(set, { faultRemaining: null });
      await app.db
        .insert(channelSandboxControls)
        .values({ deviceId: d.id, clientId: d.clientId, ...set })
        .onConflictDoUpdate({
          target: [channelSandboxControls.deviceId, channelSandboxControls.clientId],
          set: { ...set, updatedAt: sql`now()` },
        });
      forgetControl(d.id);
      return ok(await state(d.id));
    },
  );

  app.post(
    '/v3/dev/channel/reset',
    {
      config: PUBLIC,
      schema: {
        body: z.object({ device_id: z.number().int().positive().max(PG_INT_MAX) }),
        response: reply200(stateSchema),
      },
    },
    async (req) => {
      await device(req.body.device_id);
      await app.db
        .delete(channelSandboxControls)
        .where(eq(channelSandboxControls.deviceId, req.body.device_id));
      forgetControl(req.body.device_id);
      return ok(await state(req.body.device_id));
    },
  );

  app.post(
    '/v3/dev/channel/device',
    { config: PUBLIC, schema: { body: deviceBodySchema, response: reply200(stateSchema) } },
    async (req) => {
      const b = req.body;
      const d = await device(b.device_id);
      const month = beijingMonth();
      const set = {
        ...(b.online !== undefined && { online: b.online }),
        ...(b.locked !== undefined && { locked: b.locked }),
        ...(b.per_invoice_limit !== undefined && { perInvoiceLimit: b.per_invoice_limit }),
        ...(b.monthly_quota !== undefined && { monthlyQuota: b.monthly_quota }),
        ...(b.quota_used !== undefined && { quotaUsed: b.quota_used, quotaMonth: month }),
      };
      if (Object.keys(set).length > 0) {
        await app.db.update(taxDevices).set(set).where(eq(taxDevices.id, b.device_id));
        // the device check and the issue form's devices show this state (lib/read-cache.ts)
        await app.invalidate({ clients: [d.clientId] });
      }
      return ok(await state(b.device_id));
    },
  );

  app.post(
    '/v3/dev/channel/stock',
    { config: PUBLIC, schema: { body: stockBodySchema, response: reply200(stateSchema) } },
    async (req) => {
      const d = await device(req.body.device_id);
      if (!d.invoiceTypes.includes(req.body.invoice_type) || ['81', '82'].includes(req.body.invoice_type)) {
        throw new AppError(INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED);
      }
      await addNumberRange(app.db, {
        deviceId: d.id,
        invoiceType: req.body.invoice_type,
        count: req.body.count,
      });
      await app.invalidate({ clients: [d.clientId] });
      return ok(await state(d.id));
    },
  );
};
