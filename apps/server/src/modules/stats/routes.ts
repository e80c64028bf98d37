import {
  beijingDay,
  homeOverviewSchema,
  okSchema,
  QUERY_CODE,
  SMALL_SCALE_MONTH_THRESHOLD,
  SMALL_SCALE_QUARTER_THRESHOLD,
  smallScaleNoticeRequestSchema,
  statRequestSchema,
  statSummarySchema,
} from '@kaipiao/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clients, homePromptStates, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { readableStores } from '../../lib/scope.ts';
import { daysBetween, isRealDay } from '../query/scope.ts';
import { ORDINARY_TYPES, statSummary, sumIssued } from './repo.ts';

const MAX_DAYS = { day: 366, month: 1100 } as const;

/** Month and quarter of a business day: their first and last days and labels. */
export function calendarOf(day: string) {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  const lastDay = (yy: number, mm: number) => new Date(Date.UTC(yy, mm, 0)).getUTCDate();
  const pad = (n: number) => String(n).padStart(2, '0');
  const q = Math.ceil(m / 3);
  const qFirst = (q - 1) * 3 + 1;
  return {
    monthFrom: `${y}-${pad(m)}-01`,
    monthTo: `${y}-${pad(m)}-${pad(lastDay(y, m))}`,
    monthLabel: `${y}-${pad(m)}`,
    quarterFrom: `${y}-${pad(qFirst)}-01`,
    quarterTo: `${y}-${pad(qFirst + 2)}-${pad(lastDay(y, qFirst + 2))}`,
    quarterLabel: `${y}Q${q}`,
  };
}

/** Home prompts: which one and its text per taxpayer type (spec §2 tax-rate-change tip). */
const TAX_RATE_TIP = {
  small: {
    title: '征收率变更提示',
    content:
      '自2023年1月1日至2027年12月31日，增值税小规模纳税人适用3%征收率的应税销售收入，减按1%征收率征收增值税。请在「商品编码」中核对商品税率；如需开具3%发票，开票时须选择原因。',
  },
  general: {
    title: '税率变更提示',
    content:
      '《中华人民共和国增值税法》自2026年1月1日起施行，增值税税率维持13%、9%、6%和零税率，征收率为3%。请在「商品编码」中核对各商品的税率设置，确保开票税率正确。',
  },
} as const;

/** Statistics (/query/invoice-stat) and the home figures and prompts (/home/index). */
export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/v3/invoice-stat/summary',
    {
      config: { menu: '/query/invoice-stat', scope: 'store' },
      schema: { body: statRequestSchema, response: reply200(statSummarySchema) },
    },
    async (req) => {
      const q = req.body;
      if (!isRealDay(q.date_from) || !isRealDay(q.date_to) || q.date_from > q.date_to) {
        throw new AppError(QUERY_CODE.DATE_RANGE_INVALID);
      }
      if (daysBetween(q.date_from, q.date_to) > MAX_DAYS[q.granularity]) {
        throw new AppError(
          QUERY_CODE.DATE_RANGE_TOO_LONG,
          q.granularity === 'day'
            ? '按日统计最长366天，请缩小范围或按月统计'
            : '按月统计最长36个月，请缩小范围',
        );
      }
      const scope = { clientId: req.access!.clientId, storeIds: readableStores(req.scope!, q.store_ids) };
      return ok(await statSummary(app.db, scope, q));
    },
  );

  app.get(
    '/v3/home/invoice-overview',
    { config: { menu: '/home/index', scope: 'store' }, schema: { response: reply200(homeOverviewSchema) } },
    async (req) => {
      const access = req.access!;
      const userId = req.session!.userId;
      const today = beijingDay();
      const cal = calendarOf(today);
      const scope = { clientId: access.clientId, storeIds: readableStores(req.scope!) };
      // the thresholds concern the taxpayer: the meter covers every store the user may see
      const meterScope = {
        clientId: access.clientId,
        storeIds: access.storeIds ? [...access.storeIds] : null,
      };
      const [todaySums, month, quarter, monthSales, quarterSales, client, prompts, user] = await Promise.all([
        sumIssued(app.db, scope, today, today),
        sumIssued(app.db, scope, cal.monthFrom, cal.monthTo),
        sumIssued(app.db, scope, cal.quarterFrom, cal.quarterTo),
        sumIssued(app.db, meterScope, cal.monthFrom, cal.monthTo, ORDINARY_TYPES),
        sumIssued(app.db, meterScope, cal.quarterFrom, cal.quarterTo, ORDINARY_TYPES),
        app.db
          .select({ taxpayerType: clients.taxpayerType })
          .from(clients)
          .where(eq(clients.id, access.clientId)),
        app.db
          .select()
          .from(homePromptStates)
          .where(and(eq(homePromptStates.userId, userId), eq(homePromptStates.clientId, access.clientId))),
        app.db.select({ tips: users.taxRateChangeTips }).from(users).where(eq(users.id, userId)),
      ]);
      const small = client[0]?.taxpayerType === 'small';
      const notice = prompts.find((p) => p.prompt === 'small_scale_notice');
      const tip = prompts.find((p) => p.prompt === 'tax_rate_tip');
      const tipText = TAX_RATE_TIP[small ? 'small' : 'general'];
      return ok({
        today: todaySums,
        month,
        quarter,
        month_label: cal.monthLabel,
        quarter_label: cal.quarterLabel,
        small_scale: {
          applies: small,
          month_sales: monthSales.total_amount,
          quarter_sales: quarterSales.total_amount,
          month_threshold: SMALL_SCALE_MONTH_THRESHOLD,
          quarter_threshold: SMALL_SCALE_QUARTER_THRESHOLD,
          partial_scope: access.storeIds !== null,
          show_notice: small && !notice?.never && notice?.confirmedOn !== today,
        },
        tax_rate_tip: { show: user[0]?.tips === 1 && !tip?.never, ...tipText },
      });
    },
  );

  // spec §1 tax notice buttons: 不再提醒 (never) / 确定 (not again today)
  app.post(
    '/v3/home/small-scale-notice',
    {
      config: { menu: '/home/index', scope: 'store' },
      schema: { body: smallScaleNoticeRequestSchema, response: reply200(okSchema) },
    },
    async (req) => {
      const never = req.body.action === 'never';
      const today = beijingDay();
      await app.db
        .insert(homePromptStates)
        .values({
          userId: req.session!.userId,
          clientId: req.access!.clientId,
          prompt: 'small_scale_notice',
          never,
          confirmedOn: today,
        })
        .onConflictDoUpdate({
          target: [homePromptStates.userId, homePromptStates.clientId, homePromptStates.prompt],
          set: {
            never: sql`${homePromptStates.never} or ${never}`,
            confirmedOn: today,
            updatedAt: new Date(),
          },
        });
      return ok(null);
    },
  );

  // spec §7 POST /v3/system/clone-tax-rate-tips: closes the tax-rate-change tip — for the selected
  // business when the call names one (client_id), else for every business of the user
  app.post(
    '/v3/system/clone-tax-rate-tips',
    {
      config: { scope: 'user' },
      schema: { body: z.object({}).passthrough().optional(), response: reply200(okSchema) },
    },
    async (req) => {
      const userId = req.session!.userId;
      if (req.access) {
        await app.db
          .insert(homePromptStates)
          .values({ userId, clientId: req.access.clientId, prompt: 'tax_rate_tip', never: true })
          .onConflictDoUpdate({
            target: [homePromptStates.userId, homePromptStates.clientId, homePromptStates.prompt],
            set: { never: true, updatedAt: new Date() },
          });
      } else {
        await app.db.update(users).set({ taxRateChangeTips: 0 }).where(eq(users.id, userId));
      }
      return ok(null);
    },
  );
};
