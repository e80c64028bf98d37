import { envelopeOf } from '@kaipiao/shared';
import type { z } from 'zod';

export const ok = <T>(data: T, message = 'ok') => ({ code: 0, message, data });

/** Response schema map for a route: the envelope around its data schema. */
export const reply200 = <T extends z.ZodType>(data: T) => ({ 200: envelopeOf(data) });
