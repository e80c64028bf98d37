import { maskPhone } from '@kaipiao/shared';
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

/**
 * A real SMS gateway behind a small HTTP contract (KAIPIAO_SMS_URL): `POST {"mobile","content"}`
 * as JSON, `Authorization: Bearer <token>` when a token is set; any 2xx is delivered. Neither the
 * content nor the code is written anywhere (no outbox row, the log shows the number masked by the shared
 * `maskPhone`, 138****0009).
 */
export function createHttpSms(
  url: string,
  opts: { token?: string; log?: (line: string) => void; timeoutMs?: number } = {},
): SmsProvider {
  const log = opts.log ?? console.log;
  return {
    async send(msg) {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
        body: JSON.stringify({ mobile: msg.mobile, content: msg.content }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) {
        log(`[sms] to ${maskPhone(msg.mobile)} FAILED: HTTP ${res.status}`);
        throw new Error(`sms gateway: HTTP ${res.status}`);
      }
      log(`[sms] sent to ${maskPhone(msg.mobile)}`);
    },
  };
}
