import { AUTH_CODE } from '@kaipiao/shared';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { Db } from '../../db/client.ts';
import { captchas } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { randomToken } from '../../lib/crypto.ts';

const TTL_MS = 5 * 60_000;
// No 0/O, 1/l/I: a clerk should not have to guess.
const CHARS = '23456789abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ';
// the package's default export also draws a given text; its typings omit that call
const drawText = svgCaptcha as unknown as (text: string, opts: object) => string;

/** spec §9: a 4-character picture code, refreshed on click, good for one use. */
export async function createCaptcha(db: Db, fixed?: string) {
  const cap = svgCaptcha.create({
    size: 4,
    noise: 2,
    color: true,
    charPreset: CHARS,
    width: 110,
    height: 40,
    fontSize: 44,
  });
  const answer = fixed ?? cap.text;
  const svg = fixed
    ? drawText(fixed, { width: 110, height: 40, fontSize: 44, noise: 2, color: true })
    : cap.data;
  const uniqueCode = randomToken(16);
  await db
    .insert(captchas)
    .values({ uniqueCode, answer: answer.toLowerCase(), expiresAt: new Date(Date.now() + TTL_MS) });
  // opportunistic cleanup keeps the table small
  if (Math.random() < 0.05)
    await db.delete(captchas).where(lt(captchas.expiresAt, new Date(Date.now() - TTL_MS)));
  return {
    picture: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    unique_code: uniqueCode,
  };
}

/** Consumes the code whatever the answer: a wrong guess costs the captcha too. */
export async function consumeCaptcha(db: Db, uniqueCode: string, answer: string): Promise<void> {
  const rows = await db
    .update(captchas)
    .set({ usedAt: new Date() })
    .where(
      and(eq(captchas.uniqueCode, uniqueCode), isNull(captchas.usedAt), gt(captchas.expiresAt, new Date())),
    )
    .returning({ answer: captchas.answer });
  if (rows.length === 0 || rows[0]!.answer !== answer.toLowerCase())
    throw new AppError(AUTH_CODE.BAD_CAPTCHA);
}
