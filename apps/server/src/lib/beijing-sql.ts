import { BEIJING_TIME_ZONE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';

/**
 * The business calendar's time zone as an SQL literal, for `at time zone ${BEIJING_TZ}` where a
 * query groups or bounds by Beijing days and months (@kaipiao/shared time/beijing.ts).
 */
export const BEIJING_TZ = sql.raw(`'${BEIJING_TIME_ZONE}'`);
