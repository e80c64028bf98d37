import path from 'node:path';
import { z } from 'zod';

// `NAME=` in a shell or a test's env means unset, not an empty value
const blankAsUnset = (v: unknown) => (v === '' ? undefined : v);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.preprocess(blankAsUnset, z.string().url().optional()),
  KAIPIAO_DATA_DIR: z.string().default('./data'),
  /** Fixes every picture code (demo and tests); refused in production. */
  KAIPIAO_FIXED_CAPTCHA: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^[0-9A-Za-z]{4}$/)
      .optional(),
  ),
  /** 'all' in one process; 'web' or 'worker' when scaled out (architecture.md §1). */
  KAIPIAO_ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  KAIPIAO_SEED: z.enum(['demo', 'none']).default('demo'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where the partner sign-on and work-app providers live; sandbox by default. */
  KAIPIAO_SSO_BASE: z.string().default(''),
  /** Background jobs (pg-boss): default off under NODE_ENV=test, on otherwise (src/jobs/boss.ts). */
  KAIPIAO_JOBS: z.preprocess(blankAsUnset, z.enum(['on', 'off']).optional()),
  /** smtp(s)://user:pass@host:port — real e-mail via nodemailer; unset = the sandbox outbox. */
  KAIPIAO_SMTP_URL: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'KAIPIAO_SMTP_URL must be smtp://… or smtps://…')
      .optional(),
  ),
  /** The From of invoice e-mails. */
  KAIPIAO_MAIL_FROM: z.string().default('开票台 <invoice@kaipiao.local>'),
  /**
   * Which proxies may set X-Forwarded-For (the client IP feeds login and SMS limits): unset = none,
   * `true` = any, a number = that many hops, or a comma list of addresses/CIDRs.
   */
  KAIPIAO_TRUST_PROXY: z.preprocess(blankAsUnset, z.string().optional()),
});

export type Env = z.infer<typeof envSchema> & {
  isProduction: boolean;
  dataDir: string;
  trustProxy: boolean | string[] | ((address: string, hop: number) => boolean);
};

function parseTrustProxy(value: string | undefined): Env['trustProxy'] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address: string, hop: number) => hop < hops;
  }
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.parse(source);
  const isProduction = parsed.NODE_ENV === 'production';
  if (isProduction && parsed.KAIPIAO_FIXED_CAPTCHA) {
    throw new Error('KAIPIAO_FIXED_CAPTCHA is refused when NODE_ENV=production');
  }
  return {
    ...parsed,
    isProduction,
    // relative to where `npm start` was typed (npm runs the workspace script in apps/server)
    dataDir: path.resolve(source.INIT_CWD ?? process.cwd(), parsed.KAIPIAO_DATA_DIR),
    trustProxy: parseTrustProxy(parsed.KAIPIAO_TRUST_PROXY),
  };
}
