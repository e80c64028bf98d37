import { type Env, productionRefusalMessage, productionRefusals, StartupError } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import { createMail, type MailProvider } from './mail.ts';
import { createSandboxSignOn, type SignOnProvider } from './sign-on.ts';
import { createHttpSms, createSandboxSms, type SmsProvider } from './sms.ts';
import { createSandboxWecom, type WecomProvider } from './wecom.ts';

export type Providers = {
  sms: SmsProvider;
  mail: MailProvider;
  signOn: SignOnProvider;
  wecom: WecomProvider;
};

/**
 * Every external party behind an adapter; the sandboxes until real ones are configured
 * (architecture.md §1). Production never gets a sandbox SMS or e-mail provider: it refuses to
 * build without KAIPIAO_SMS_URL and KAIPIAO_SMTP_URL (productionRefusals), so no code lands in
 * the outbox or the log there.
 */
export function createProviders(db: Db, env: Env): Providers {
  const missing = productionRefusals(env);
  if (missing.length) throw new StartupError(productionRefusalMessage(missing));
  const quiet = env.NODE_ENV === 'test';
  const log = quiet ? () => undefined : console.log;
  return {
    sms: env.KAIPIAO_SMS_URL
      ? createHttpSms(env.KAIPIAO_SMS_URL, { token: env.KAIPIAO_SMS_TOKEN, log })
      : createSandboxSms(db, log),
    mail: createMail(db, {
      smtpUrl: env.KAIPIAO_SMTP_URL,
      from: env.KAIPIAO_MAIL_FROM,
      log,
    }),
    signOn: createSandboxSignOn(db),
    wecom: createSandboxWecom(db),
  };
}
