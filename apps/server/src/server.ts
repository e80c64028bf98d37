import path from 'node:path';
import { TERMS } from '@kaipiao/shared';
import pg from 'pg';
import { buildApp } from './app.ts';
import {
  describeStartError,
  type Env,
  loadEnv,
  productionRefusalMessage,
  productionRefusals,
  StartupError,
} from './config/env.ts';
import { connectDb, runMigrations } from './db/client.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import { secretKey } from './lib/secret-box.ts';
import { seedDemo } from './seed/demo.ts';
import { checkProductionAccounts } from './seed/production-check.ts';

async function ensureDatabase(adminUrl: string, name: string) {
  const c = new pg.Client(adminUrl);
  await c.connect();
  const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [name]);
  if (!rowCount) await c.query(`create database ${name}`);
  await c.end();
}

async function main() {
  const env: Env = loadEnv();
  const missing = productionRefusals(env);
  if (missing.length) throw new StartupError(productionRefusalMessage(missing));
  let stopDb: (() => Promise<void>) | null = null;
  let url = env.DATABASE_URL;
  if (!url) {
    const { cluster } = await startEmbeddedPostgres(path.join(env.dataDir, 'postgres'));
    stopDb = cluster.stop;
    await ensureDatabase(cluster.url('postgres'), 'kaipiao');
    url = cluster.url('kaipiao');
    console.log(`[kaipiao] embedded PostgreSQL on port ${cluster.port}, data in ${env.dataDir}`);
    // the secret box's key beside the database (unless KAIPIAO_SECRET_KEY gives it), made now
    await secretKey(env.dataDir);
  }
  const dbHandle = connectDb(url);
  await runMigrations(dbHandle);
  const accounts = env.isProduction ? await checkProductionAccounts(dbHandle.db) : null;
  if (env.KAIPIAO_SEED === 'demo') {
    const seeded = await seedDemo(dbHandle.db);
    if (seeded) console.log('[kaipiao] demo tenant seeded');
  }
  const app = await buildApp({
    env,
    dbHandle,
    logger: { level: env.LOG_LEVEL, transport: undefined },
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`[kaipiao] ${signal}: shutting down`);
    // a terminal's Ctrl-C also reaches the database: connections it ends now are expected
    app.log.level = 'fatal';
    await app.close().catch(() => undefined);
    await dbHandle.close().catch(() => undefined);
    if (stopDb) await stopDb().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: env.PORT, host: env.HOST });
  if (env.isDevelopmentLike && !/^(127\.|::1$|localhost$)/.test(env.HOST)) {
    console.warn(
      `[kaipiao] 注意：NODE_ENV=${env.NODE_ENV} 监听 ${env.HOST}，沙箱页面和 /v3/dev/* 对网络上的所有人开放；对外提供服务请用 NODE_ENV=production。\n` +
        `          Warning: NODE_ENV=${env.NODE_ENV} on ${env.HOST} opens the sandbox pages and /v3/dev/* to the network; use NODE_ENV=production to serve others.`,
    );
  }
  const port = (app.server.address() as { port: number }).port;
  const shown =
    env.HOST === '0.0.0.0' || env.HOST === '::'
      ? 'localhost'
      : env.HOST.includes(':')
        ? `[${env.HOST}]`
        : env.HOST;
  if (env.isProduction) {
    console.log(`
[kaipiao] 开票台 is running: http://${shown}:${port}/ (listening on ${env.HOST}, NODE_ENV=${env.NODE_ENV})
[kaipiao] production: no demo tenant, no sandbox pages or /v3/dev/*; SMS via KAIPIAO_SMS_URL, e-mail via KAIPIAO_SMTP_URL
${
  accounts?.users === 0
    ? '[kaipiao] 数据库中还没有任何账号：生产环境不导入演示数据，开票台目前也没有创建首个集团管理员的页面或命令。\n' +
      '          The database has no account yet: production seeds no demo tenant, and there is no page or command to create the first group administrator yet.\n'
    : ''
}`);
    return;
  }
  console.log(`
[kaipiao] 开票台 is running: http://${shown}:${port}/ (listening on ${env.HOST}; HOST=0.0.0.0 opens it to the network)
[kaipiao] demo logins (password Kaipiao@2026):
            kaipiao_admin  集团管理员 · 全部企业      mobile 13800000001  (two-factor: phone code on first login)
            kaipiao_clerk  开票员 · 一个企业一个${TERMS.store}   mobile 13800000002
${env.KAIPIAO_FIXED_CAPTCHA ? `[kaipiao] picture code fixed to ${env.KAIPIAO_FIXED_CAPTCHA}\n` : ''}[kaipiao] SMS codes (sandbox): in this log and at http://${shown}:${port}/v3/dev/outbox
`);
}

main().catch((err: unknown) => {
  console.error(`[kaipiao] 启动失败 (start failed):\n${describeStartError(err)}`);
  process.exit(1);
});
