import type { Env } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import { createSandboxSms, type SmsProvider } from './sms.ts';

export type Providers = { sms: SmsProvider };

export function createProviders(db: Db, env: Env): Providers {
  const quiet = env.NODE_ENV === 'test';
  return { sms: createSandboxSms(db, quiet ? () => undefined : console.log) };
}
