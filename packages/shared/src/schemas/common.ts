import { z } from 'zod';
import { MSG } from '../validation/messages.ts';
import { PATTERNS } from '../validation/patterns.ts';
import { text } from '../validation/text.ts';

export const mobileSchema = text().regex(PATTERNS.mobile, MSG.MOBILE_REQUIRED);
export const smsCodeSchema = text().regex(PATTERNS.smsCode, MSG.SMS_CODE_REQUIRED);
export const pictureCodeSchema = text().regex(PATTERNS.pictureCode, MSG.PICTURE_CODE);
export const flag = z.union([z.literal(0), z.literal(1)]);

/**
 * The largest PostgreSQL integer, the type of most row ids (serial): a request id above it names
 * no row, so its schema refuses it (`.max(PG_INT_MAX)`, 10001) before a query fails with a 500.
 */
export const PG_INT_MAX = 2_147_483_647;

/** Envelope every response uses (architecture.md §3). */
export type Envelope<T> = { code: number; message: string; data: T };
export const envelopeOf = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number(), message: z.string(), data });

/** Business scope every tenant call carries (spec §7). */
export const scopeQuerySchema = z.object({
  client_id: z.coerce.number().int().positive().optional(),
  sid: z.coerce.number().int().optional(),
});
export const okSchema = z.null();
