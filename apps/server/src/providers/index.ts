import type { Env } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import { createMail, type MailProvider } from './mail.ts';
import { createSandboxSignOn, type SignOnProvider } from './sign-on.ts';
import { createSandboxSms, type SmsProvider } from './sms.ts';
import { createSandboxWecom, type WecomProvider } from './wecom.ts';

export type Providers = {
  sms: SmsProvider;
  mail: MailProvider;
  signOn: SignOnProvider;
  wecom: WecomProvider;
};

/** Every external party behind an adapter; the sandboxes until real ones are configured (architecture.md §1). */
export function createProviders(db: Db, env: Env): Providers {
  const quiet = env.NODE_ENV === 'test';
  return {
    sms: createSandboxSms(db, quiet ? () => undefined : console.log),
    mail: createMail(db, {
      smtpUrl: env.KAIPIAO_SMTP_URL,
      from: env.KAIPIAO_MAIL_FROM,
      log: quiet ? () => undefined : console.log,
    }),
    signOn: createSandboxSignOn(db),
    wecom: createSandboxWecom(db),
  };
}
