import {
  beijingMonth,
  DEVICE_KINDS,
  type DeviceKind,
  INVOICE_CODE,
  INVOICE_TYPES,
  type InvoiceType,
  PAPER_INVOICE_TYPES,
  PG_INT_MAX,
  SPECIFIC_BUSINESS_DEFS,
  SUMMARY_STORE_ID,
  specificBusinessDefSchema,
  type TaxEquipment,
  taxEquipmentSchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDigitalType } from '../../channels/numbers.ts';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { encodedOk, sendEncoded, storesKey } from '../../lib/read-cache.ts';
import { assertEmployeeStore, employeeScope, type Scope, scopeOf } from '../../lib/scope.ts';
import { deviceKinds, equipmentOf, storeDefaultKinds, storeOfBusiness } from './metadata-repo.ts';
import { ISSUE_MENUS } from './routes.ts';

/** Pages that pick a device or an invoice kind: issuing, batch, scan-to-invoice, red forms, devices. */
const EQUIPMENT_MENUS = [
  ...ISSUE_MENUS,
  '/invoice/batch',
  '/hotel/invoice/order',
  '/invoice/qrcode',
  '/hotel/invoice/qrcode',
  '/red-info/sheet',
  '/device-project/device',
] as const;
/** …plus the pages that filter or count by invoice kind. */
const TYPE_MENUS = [
  ...EQUIPMENT_MENUS,
  '/query/invoice',
  '/hotel/query/invoice',
  '/query/invoice-stat',
] as const;

const typeItemSchema = z.object({ code: z.string(), name: z.string() });
const TYPE_ORDER = Object.keys(INVOICE_TYPES) as InvoiceType[];
const typeItem = (code: string) => ({ code, name: INVOICE_TYPES[code as InvoiceType] ?? code });
const sortTypes = (codes: Iterable<string>) =>
  [...new Set(codes)]
    .filter((c) => c in INVOICE_TYPES)
    .sort((a, b) => TYPE_ORDER.indexOf(a as InvoiceType) - TYPE_ORDER.indexOf(b as InvoiceType));

const equipmentListSchema = z.array(taxEquipmentSchema);

const equipmentQuerySchema = z.object({
  store_id: z.coerce.number().int().min(-PG_INT_MAX).max(PG_INT_MAX).optional(),
  /** 1 electronic, 2 paper, empty = all */
  invoice_style: z.enum(['', '1', '2']).optional(),
  /** 1 数电, 2 税控, empty = all */
  invoice_mode: z.enum(['', '1', '2']).optional(),
});

/** Devices and invoice kinds the invoice form offers (spec §7 equipment and type calls). */
export const metadataRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * get-tax-equipment's answers per business, store (or the employee's stores) and filter, this
   * month (lib/read-cache.ts): forgotten by every write of the business (plugins/invalidation.ts),
   * each invoice issued (the quota and stock it uses: the issued hook), the sandbox controls and
   * the filing-lock sweep.
   */
  const equipment = app.readCaches.cache<TaxEquipment[]>({ ttlMs: 60_000 });

  /** A store id from the query must be one of the business's stores the user may see. */
  const assertStore = async (scope: Scope, id: number) => {
    if (!(await storeOfBusiness(app.db, scope.clientId, id)))
      throw new AppError(INVOICE_CODE.STORE_NOT_FOUND);
    assertEmployeeStore(scope, id);
  };

  /** The form's devices of `stores` with the kinds the query keeps, and the store's default kinds. */
  const equipmentList = async (
    clientId: number,
    storeId: number,
    stores: readonly number[] | null,
    q: z.infer<typeof equipmentQuerySchema>,
    month: string,
  ): Promise<TaxEquipment[]> => {
    const devices = await equipmentOf(app.db, clientId, stores);
    // the store's default kinds (stores page); none for the all-stores view. They keep only the
    // kinds a device issues (below), so a stand-in kind in them would be dropped there.
    // Stryker disable next-line ArrayDeclaration: a stand-in kind is no kind a device issues (filtered below)
    let defaults: string[] = [];
    // Stryker disable next-line ConditionalExpression: the all-stores id has no store_settings row either (skips 1 killed)
    if (storeId !== SUMMARY_STORE_ID) {
      const kinds = await storeDefaultKinds(app.db, clientId, storeId);
      // Stryker disable next-line ArrayDeclaration: a stand-in kind is no kind a device issues (filtered below)
      defaults = kinds ?? [];
    }
    const out: TaxEquipment[] = [];
    for (const d of devices) {
      const types = sortTypes(d.invoice_types).filter((t) => {
        const paper = (PAPER_INVOICE_TYPES as readonly string[]).includes(t);
        if (q.invoice_style === '1' && paper) return false;
        if (q.invoice_style === '2' && !paper) return false;
        if (q.invoice_mode === '1' && !isDigitalType(t)) return false;
        if (q.invoice_mode === '2' && isDigitalType(t)) return false;
        return true;
      });
      if (types.length === 0) continue;
      out.push({
        device_id: d.id,
        name: d.name,
        kind: d.kind,
        kind_name: DEVICE_KINDS[d.kind as DeviceKind] ?? d.kind,
        channel: d.channel,
        device_no: d.device_no,
        extension_no: d.extension_no,
        is_main: d.parent_id === null && d.extension_no === 0,
        online: d.online,
        locked: d.locked,
        invoice_types: types.map(typeItem),
        per_invoice_limit: d.per_invoice_limit,
        monthly_quota: d.monthly_quota,
        quota_used: d.quota_month === month ? d.quota_used : '0.00',
        stock: Object.fromEntries(Object.entries(d.stock ?? {}).map(([k, v]) => [k, Number(v)])),
        default_invoice_types: defaults.filter((k) => types.includes(k)),
      });
    }
    return out;
  };

  app.get(
    '/v3/client-store/get-tax-equipment',
    {
      config: { menu: EQUIPMENT_MENUS, scope: 'store' },
      schema: { querystring: equipmentQuerySchema, response: reply200(equipmentListSchema) },
    },
    async (req, reply) => {
      const scope = scopeOf(req);
      const q = req.query;
      // the store asked for, else the current one; -1 / none = every store the user may see
      const storeId = q.store_id ?? scope.storeId ?? SUMMARY_STORE_ID;
      const stores = storeId !== SUMMARY_STORE_ID ? [storeId] : employeeScope(scope).storeIds;
      const month = beijingMonth();
      const key = [
        storeId === SUMMARY_STORE_ID ? `all:${storesKey(stores)}` : storeId,
        q.invoice_style ?? '',
        q.invoice_mode ?? '',
        month,
      ].join('|');
      const out = await equipment.get(key, { clientId: scope.clientId }, async () => {
        // another business's store is not found, whoever asks (the employee's own check is below)
        if (storeId !== SUMMARY_STORE_ID && !(await storeOfBusiness(app.db, scope.clientId, storeId)))
          throw new AppError(INVOICE_CODE.STORE_NOT_FOUND);
        return equipmentList(scope.clientId, storeId, stores, q, month);
      });
      if (storeId !== SUMMARY_STORE_ID) assertEmployeeStore(scope, storeId);
      return sendEncoded(reply, encodedOk(out, equipmentListSchema));
    },
  );

  app.get(
    '/v3/equipment/client-invoice-type',
    {
      config: { menu: EQUIPMENT_MENUS, scope: 'store' },
      schema: {
        querystring: z.object({
          store_id: z.coerce.number().int().min(-PG_INT_MAX).max(PG_INT_MAX).optional(),
        }),
        response: reply200(z.array(typeItemSchema)),
      },
    },
    async (req) => {
      const scope = scopeOf(req);
      const storeId = req.query.store_id;
      if (storeId !== undefined) await assertStore(scope, storeId);
      const kinds = await deviceKinds(app.db, scope.clientId, storeId);
      return ok(sortTypes(kinds).map(typeItem));
    },
  );

  app.get(
    '/v3/invoice-detail/get-invoice-type',
    {
      config: { menu: TYPE_MENUS, scope: 'business' },
      // Stryker disable next-line ObjectLiteral: the answer is a constant list already of the schema's exact shape, so it serialises the same without it
      schema: { response: reply200(z.array(typeItemSchema)) },
    },
    async () => ok(TYPE_ORDER.map(typeItem)),
  );

  app.get(
    '/v3/invoice-record/specific-business',
    {
      config: { menu: ISSUE_MENUS, scope: 'business' },
      // Stryker disable next-line ObjectLiteral: the answer is a constant list already of the schema's exact shape, so it serialises the same without it
      schema: { response: reply200(z.array(specificBusinessDefSchema)) },
    },
    async () => ok([...SPECIFIC_BUSINESS_DEFS]),
  );
};
