import { createServer, type Server } from 'node:net';
import { DOC_CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertInvoice } from '../../test/fixtures/documents.ts';
import { buildTestApp, call, DEMO, demoIds, login } from '../../test/helper.ts';
import type { App } from '../app.ts';
import { clientStores, invoiceEvents, outbox } from '../db/schema/index.ts';
import { createSandboxMail, MailError } from './mail.ts';

/**
 * A minimal SMTP server (RFC 5321 happy path, no TLS, no AUTH) that keeps what it receives and
 * refuses recipients at refused.example with 550, like a real server bouncing an unknown user.
 */
function fakeSmtp() {
  const received: { from: string; to: string[]; data: string }[] = [];
  const server: Server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let msg = { from: '', to: [] as string[], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake.smtp ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          msg.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(msg);
          msg = { from: '', to: [], data: '' };
          reply('250 2.0.0 queued');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 fake.smtp');
        else if (verb === 'MAIL') {
          msg.from = line;
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          if (line.includes('@refused.example')) reply('550 5.1.1 <user@refused.example>: user unknown');
          else {
            msg.to.push(line);
            reply('250 2.1.5 ok');
          }
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end with .');
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('502 5.5.2 not implemented');
      }
    });
  });
  return { server, received };
}

describe('mail adapter', () => {
  it('sandbox: delivers to the outbox, bounces fail.example (permanent) and defers busy.example', async () => {
    const rows: unknown[] = [];
    const db = {
      insert: () => ({
        values: (v: unknown) => {
          rows.push(v);
          return { returning: async () => [{ id: rows.length }] };
        },
      }),
    } as never;
    const lines: string[] = [];
    const mail = createSandboxMail(db, (l) => lines.push(l));
    const att = [{ fileName: '发票.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1') }];
    await expect(
      mail.send({ to: 'a@ok.example.com', subject: 's', text: 't', attachments: att }),
    ).resolves.toMatchObject({
      outboxId: 1,
    });
    const bounce = await mail.send({ to: 'x@sub.fail.example', subject: 's', text: 't' }).catch((e) => e);
    expect(bounce).toBeInstanceOf(MailError);
    expect(bounce).toMatchObject({ permanent: true, outboxId: 2 });
    const defer = await mail.send({ to: 'x@busy.example', subject: 's', text: 't' }).catch((e) => e);
    expect(defer).toMatchObject({ permanent: false, outboxId: 3 });
    expect(rows[0]).toMatchObject({
      channel: 'email',
      status: 'sent',
      attachments: [{ file_name: '发票.pdf', content_type: 'application/pdf', size: 6 }],
    });
    expect(rows[1]).toMatchObject({ status: 'failed', error: expect.stringContaining('550') });
    expect(lines.join('\n')).toContain('发票.pdf (6 B)');
  });
});

describe('mail adapter over SMTP (KAIPIAO_SMTP_URL)', () => {
  const smtp = fakeSmtp();
  let app: App;
  let db: App['db'];
  let admin: string;
  let software: number;
  let hq: number;

  beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    ({ app, db } = await buildTestApp({ env: { KAIPIAO_SMTP_URL: `smtp://127.0.0.1:${port}` } }));
    admin = await login(app, DEMO.admin.account);
    software = (await demoIds(app, admin)).software;
    hq = (await db.select().from(clientStores).where(eq(clientStores.code, 'HQ')))[0]!.id;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.server.close(() => resolve())));

  it('sends the invoice with both files attached through the SMTP server', async () => {
    expect(app.providers.mail.kind).toBe('smtp');
    const inv = await insertInvoice(db, { clientId: software, storeId: hq, buyerName: 'SMTP客户' });
    const res = await call(app, 'POST', `/v3/invoice-detail/send-email?client_id=${software}&sid=-1`, {
      token: admin,
      body: { invoice_id: inv.id, email: 'finance@smtp-buyer.example.com' },
    });
    expect(res.json.code).toBe(0);
    const msg = smtp.received.at(-1)!;
    expect(msg.to.join()).toContain('finance@smtp-buyer.example.com');
    expect(msg.data).toMatch(/Content-Type: application\/pdf/i);
    expect(msg.data).toMatch(/Content-Type: application\/xml/i);
    expect(msg.data).toContain(`${inv.invoiceNo}.pdf`);
    const [row] = await db
      .select()
      .from(outbox)
      .where(eq(outbox.recipient, 'finance@smtp-buyer.example.com'));
    expect(row).toMatchObject({ channel: 'email', status: 'sent' });
    expect(row!.attachments).toHaveLength(2);
  });

  it('turns a 550 from the server into 15002 and an email_failed event', async () => {
    const inv = await insertInvoice(db, { clientId: software, storeId: hq, buyerName: 'SMTP退信' });
    const res = await call(app, 'POST', `/v3/invoice-detail/send-email?client_id=${software}&sid=-1`, {
      token: admin,
      body: { invoice_id: inv.id, email: 'user@refused.example' },
    });
    expect(res.json.code).toBe(DOC_CODE.EMAIL_FAILED);
    expect(res.json.data.reason).toContain('550');
    const events = await db.select().from(invoiceEvents).where(eq(invoiceEvents.invoiceId, inv.id));
    expect(events.find((e) => e.kind === 'email_failed')?.detail).toMatchObject({
      email: 'user@refused.example',
    });
    const [row] = await db.select().from(outbox).where(eq(outbox.recipient, 'user@refused.example'));
    expect(row).toMatchObject({ status: 'failed', error: expect.stringContaining('550') });
  });
});
