import {
  AUTH_CODE,
  accountLoginBodySchema,
  BATCH_CODE,
  batchDryRunSchema,
  batchIdQuerySchema,
  batchListQuerySchema,
  batchListSchema,
  batchProgressSchema,
  batchReportSchema,
  batchRowsQuerySchema,
  batchRowsSchema,
  batchUploadQuerySchema,
  blueInvoiceRequestSchema,
  CATALOG_CODE,
  CODE,
  exportListRequestSchema,
  exportListResponseSchema,
  goodsBodySchema,
  goodsItemSchema,
  idBodySchema,
  idsBodySchema,
  invoiceDetailRequestSchema,
  invoiceDetailSchema,
  invoiceListRequestSchema,
  invoiceListResponseSchema,
  issueResultSchema,
  jcQrCodeBodySchema,
  jcQrCodeResponseSchema,
  listGoodsQuerySchema,
  listTitlesQuerySchema,
  loginResponseSchema,
  okSchema,
  pageOf,
  pictureCodeResponseSchema,
  publicKeyResponseSchema,
  realNameInfoSchema,
  realNameSmsBodySchema,
  realNameSmsLoginBodySchema,
  realNameSmsLoginResponseSchema,
  realNameSmsResponseSchema,
  realPersonAuthQuerySchema,
  redApplyRequestSchema,
  redBlueInfoSchema,
  redFormIdSchema,
  redFormSchema,
  redInvoiceIdSchema,
  redListRequestSchema,
  redListResponseSchema,
  searchTaxClassQuerySchema,
  searchTitlesQuerySchema,
  smallScaleNoticeRequestSchema,
  specificBusinessDefSchema,
  statRequestSchema,
  statSummarySchema,
  taxClassCodeSchema,
  taxEquipmentSchema,
  taxRateBodySchema,
  taxRateResultSchema,
  text,
  titleBodySchema,
  titleItemSchema,
  updateGoodsBodySchema,
  updateTitleBodySchema,
} from '@kaipiao/shared';
import {
  checkTaxSchema,
  deviceItemSchema,
  storeBodySchema,
  storeItemSchema,
  storeStatusBodySchema,
} from '@kaipiao/shared/schemas/devices';
import { z } from 'zod';

// The server's side of every call a component test answers: the shared schemas the server's route
// declares for it (apps/server/src/modules/*/routes.ts, `schema: { querystring | body, response }`).
// Test handlers (./api.ts) parse their fixtures with `data`, and the requests the page sends with
// `query` / `body`, so a fixture or a page that drifts from the contract fails the test.

export type Endpoint = {
  /** the route's querystring schema (shared or as the route declares it) */
  query?: z.ZodType;
  /** the route's body schema */
  body?: z.ZodType;
  /** `data` of a successful envelope */
  data: z.ZodType;
};

export const CONTRACT = {
  // auth (modules/auth/routes.ts)
  'GET /v3/user/picture-code': { data: pictureCodeResponseSchema },
  'GET /v3/user/public-key': { data: publicKeyResponseSchema },
  'POST /v3/user/account-login': { body: accountLoginBodySchema, data: loginResponseSchema },

  // goods and rates (modules/goods/routes.ts)
  'GET /v3/tax-class-code/search': { query: searchTaxClassQuerySchema, data: z.array(taxClassCodeSchema) },
  'GET /v3/client-project/get-projects': { query: listGoodsQuerySchema, data: pageOf(goodsItemSchema) },
  'POST /v3/client-project/tax-rate': { body: taxRateBodySchema.default({}), data: taxRateResultSchema },
  'POST /v3/client-project/create': { body: goodsBodySchema, data: goodsItemSchema },
  'POST /v3/client-project/update': { body: updateGoodsBodySchema, data: goodsItemSchema },
  'POST /v3/client-project/delete': { body: idsBodySchema, data: z.object({ deleted: z.number() }) },
  'POST /v3/client-project/set-default': {
    // the route's own body schema (goods/routes.ts)
    body: idBodySchema.extend({ is_default: z.boolean().default(true) }),
    data: okSchema,
  },

  // buyer titles (modules/titles/routes.ts)
  'GET /v3/client-title/list': { query: listTitlesQuerySchema, data: pageOf(titleItemSchema) },
  'GET /v3/client-title/search': { query: searchTitlesQuerySchema, data: z.array(titleItemSchema) },
  'POST /v3/client-title/create': { body: titleBodySchema, data: titleItemSchema },
  'POST /v3/client-title/update': { body: updateTitleBodySchema, data: titleItemSchema },
  'POST /v3/client-title/delete': { body: idsBodySchema, data: z.object({ deleted: z.number() }) },

  // issuing (modules/invoices/routes.ts, metadata-routes.ts)
  'GET /v3/client-store/get-tax-equipment': {
    // the route's own querystring schema (metadata-routes.ts), in part
    query: z.object({ store_id: z.coerce.number().int().optional() }),
    data: z.array(taxEquipmentSchema),
  },
  'GET /v3/invoice-record/specific-business': { data: z.array(specificBusinessDefSchema) },
  'POST /v3/online-invoicing/blue': { body: blueInvoiceRequestSchema, data: issueResultSchema },
  'GET /v3/online-invoicing/result': {
    query: z.object({ serial_no: text().trim().min(1).max(40) }),
    data: issueResultSchema,
  },

  // library (modules/query/routes.ts) and home (modules/stats/routes.ts)
  'POST /v3/invoice-record/list': { body: invoiceListRequestSchema, data: invoiceListResponseSchema },
  'POST /v3/invoice-detail/get-invoice-detail': {
    body: invoiceDetailRequestSchema,
    data: invoiceDetailSchema,
  },
  'POST /v3/home/small-scale-notice': { body: smallScaleNoticeRequestSchema, data: okSchema },
  'POST /v3/invoice-stat/summary': { body: statRequestSchema, data: statSummarySchema },
  'POST /v3/invoice-export/list': { body: exportListRequestSchema, data: exportListResponseSchema },

  // red-letter (modules/red-info/routes.ts)
  'POST /v3/red-info/blue-info': { body: redInvoiceIdSchema, data: redBlueInfoSchema },
  'POST /v3/red-info/apply': { body: redApplyRequestSchema, data: redFormSchema },
  'POST /v3/red-info/list': { body: redListRequestSchema, data: redListResponseSchema },
  'POST /v3/red-info/detail': { body: redFormIdSchema, data: redFormSchema },

  // batch issuing (modules/batches/routes.ts); the upload body is the multipart file
  'GET /v3/batch-invoice/list': { query: batchListQuerySchema, data: batchListSchema },
  'GET /v3/batch-invoice/progress': { query: batchIdQuerySchema, data: batchProgressSchema },
  'GET /v3/batch-invoice/rows': { query: batchRowsQuerySchema, data: batchRowsSchema },
  'POST /v3/batch-invoice/upload': { query: batchUploadQuerySchema, data: batchDryRunSchema },

  // stores (modules/stores/routes.ts)
  'GET /v3/client/get-all-store-list': { data: z.array(storeItemSchema) },
  'POST /v3/client-store/save': { body: storeBodySchema, data: z.object({ id: z.number() }) },
  'POST /v3/client-store/set-status': { body: storeStatusBodySchema, data: z.object({ id: z.number() }) },

  // devices and real-name (modules/devices/routes.ts, modules/realname/routes.ts)
  'GET /v3/client/client-equ-list': { data: z.array(deviceItemSchema) },
  'GET /v3/equipment/check-tax': { data: checkTaxSchema },
  'GET /v3/equipment/get-real-person-auth': { query: realPersonAuthQuerySchema, data: realNameInfoSchema },
  'POST /v3/equipment/jc-get-qr-code': { body: jcQrCodeBodySchema, data: jcQrCodeResponseSchema },
  'POST /v3/equipment/get-sms-tax-station': { body: realNameSmsBodySchema, data: realNameSmsResponseSchema },
  'POST /v3/equipment/get-sms-autonomous-tax-station': {
    body: realNameSmsBodySchema,
    data: realNameSmsResponseSchema,
  },
  'POST /v3/equipment/sms-login-tax-station': {
    body: realNameSmsLoginBodySchema,
    data: realNameSmsLoginResponseSchema,
  },
  'POST /v3/equipment/sms-login-autonomous-tax-station': {
    body: realNameSmsLoginBodySchema,
    data: realNameSmsLoginResponseSchema,
  },
} satisfies Record<string, Endpoint>;

export type Route = keyof typeof CONTRACT;

/** `{ errors: [{ field, message }] }`: validation failures (plugins/errors.ts) and a service's field errors */
export const fieldErrorsSchema = z.object({
  errors: z.array(z.object({ field: z.string(), message: z.string() })),
});

/**
 * `data` of an error envelope, by code: null unless the server attaches something (AppError's third
 * argument). A code missing here answers with data null.
 */
export const ERROR_DATA: Record<number, z.ZodType> = {
  [CODE.VALIDATION]: fieldErrorsSchema,
  [CATALOG_CODE.GOODS_DUPLICATE]: fieldErrorsSchema,
  [CATALOG_CODE.TITLE_DUPLICATE]: fieldErrorsSchema,
  [AUTH_CODE.MFA_REQUIRED]: z.object({ mfa_ticket: z.string() }),
  [BATCH_CODE.ROWS_INVALID]: batchReportSchema,
};
