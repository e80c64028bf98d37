import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema/index.ts';

export type SmsMessage = { mobile: string; content: string; code?: string };

/** SMS gateway adapter. The sandbox delivers to the outbox table and the server log. */
export type SmsProvider = { send(msg: SmsMessage): Promise<void> };

export function createSandboxSms(db: Db, log: (line: string) => void = console.log): SmsProvider {
  return {
    async send(msg) {
      // The sandbox gateway refuses the reserved test number, like a real gateway refusing a bad number.
      if (msg.mobile === '19999999999') throw new Error('sms gateway: recipient rejected');
      await db
        .insert(outbox)
        .values({ channel: 'sms', recipient: msg.mobile, content: msg.content, code: msg.code ?? null });
      log(`[sms sandbox] to ${msg.mobile}: ${msg.content}`);
    },
  };
}
