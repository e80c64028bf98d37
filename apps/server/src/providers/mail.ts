import nodemailer from 'nodemailer';
import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema/index.ts';

export type MailAttachment = { fileName: string; contentType: string; content: Buffer };
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
};
/** `outboxId`: the outbox row recording this message */
export type MailResult = { messageId: string; outboxId: number };

/**
 * A delivery the mail server refused. `permanent` (5xx: unknown recipient, domain does not exist)
 * will not succeed on retry; otherwise (4xx, connection trouble) a later attempt may.
 */
export class MailError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly outboxId: number | null = null,
  ) {
    super(message);
    this.name = 'MailError';
  }
}

/**
 * E-mail adapter (architecture.md §1). The sandbox delivers to the outbox table and the server log
 * and fails like a real server would for the reserved domains below; SMTP (nodemailer) when
 * KAIPIAO_SMTP_URL is set, recording every attempt in the outbox as well.
 */
export type MailProvider = { readonly kind: 'sandbox' | 'smtp'; send(msg: MailMessage): Promise<MailResult> };

/** Sandbox recipients that fail: `…@fail.example` bounces (550), `…@busy.example` is deferred (451). */
export const SANDBOX_BOUNCE_DOMAIN = 'fail.example';
export const SANDBOX_DEFER_DOMAIN = 'busy.example';

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();
const inDomain = (address: string, domain: string) => {
  const d = domainOf(address);
  return d === domain || d.endsWith(`.${domain}`);
};

async function record(
  db: Db,
  msg: MailMessage,
  status: 'sent' | 'failed',
  error: string | null,
): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({
      channel: 'email',
      recipient: msg.to,
      subject: msg.subject,
      content: msg.text,
      status,
      error,
      attachments: (msg.attachments ?? []).map((a) => ({
        file_name: a.fileName,
        content_type: a.contentType,
        size: a.content.length,
      })),
    })
    .returning({ id: outbox.id });
  return row!.id;
}

export function createSandboxMail(db: Db, log: (line: string) => void = console.log): MailProvider {
  let seq = 0;
  return {
    kind: 'sandbox',
    async send(msg) {
      const files = (msg.attachments ?? []).map((a) => `${a.fileName} (${a.content.length} B)`).join(', ');
      let failure: MailError | null = null;
      if (inDomain(msg.to, SANDBOX_BOUNCE_DOMAIN)) {
        failure = new MailError(`550 5.1.1 <${msg.to}>: Recipient address rejected: User unknown`, true);
      } else if (inDomain(msg.to, SANDBOX_DEFER_DOMAIN)) {
        failure = new MailError(`451 4.3.2 <${msg.to}>: Try again later`, false);
      }
      const outboxId = await record(db, msg, failure ? 'failed' : 'sent', failure?.message ?? null);
      if (failure) {
        log(`[mail sandbox] to ${msg.to} FAILED: ${failure.message}`);
        throw new MailError(failure.message, failure.permanent, outboxId);
      }
      log(`[mail sandbox] to ${msg.to}: ${msg.subject}${files ? ` [${files}]` : ''}`);
      seq += 1;
      return { messageId: `<sandbox-${Date.now()}-${seq}@kaipiao.local>`, outboxId };
    },
  };
}

type SmtpError = Error & { responseCode?: number; code?: string };

export function createSmtpMail(db: Db, url: string, from: string): MailProvider {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(msg) {
      try {
        const info = await transport.sendMail({
          from,
          to: msg.to,
          subject: msg.subject,
          text: msg.text,
          html: msg.html,
          attachments: (msg.attachments ?? []).map((a) => ({
            filename: a.fileName,
            content: a.content,
            contentType: a.contentType,
          })),
        });
        // a server that accepts some recipients and rejects ours answers without throwing
        if (info.rejected.length > 0 && info.accepted.length === 0) {
          throw Object.assign(new Error(`recipient rejected: ${msg.to}`), { responseCode: 550 });
        }
        const outboxId = await record(db, msg, 'sent', null);
        return { messageId: info.messageId, outboxId };
      } catch (err) {
        const e = err as SmtpError;
        const text = e.message || String(err);
        const outboxId = await record(db, msg, 'failed', text).catch(() => null);
        throw new MailError(text, (e.responseCode ?? 0) >= 500, outboxId);
      }
    },
  };
}

/** The mail adapter the environment asks for. */
export function createMail(
  db: Db,
  opts: { smtpUrl?: string; from: string; log?: (line: string) => void },
): MailProvider {
  return opts.smtpUrl ? createSmtpMail(db, opts.smtpUrl, opts.from) : createSandboxMail(db, opts.log);
}
