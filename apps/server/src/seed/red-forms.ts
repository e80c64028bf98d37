import { fixed, invoiceQrText, RED_CONFIRM_HOURS, type RedReason } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { allocateInvoiceNumbers, makeCheckCode } from '../channels/numbers.ts';
import { redFormNo, setBuyerUsed } from '../channels/red-bureau.ts';
import type { Db } from '../db/client.ts';
import { buildRedLines, totalsOf } from '../modules/red-info/lines.ts';
import { insertRedInvoice } from '../modules/red-info/red-invoice-repo.ts';
import { blueLines, insertForm, takenByLine } from '../modules/red-info/repo.ts';
import { settleBlueInDb } from '../modules/red-info/service.ts';

type Blue = {
  id: number | string;
  client_id: number;
  store_id: number;
  device_id: number;
  invoice_type: string;
  invoice_no: string;
  total_with_tax: string;
  issued_at: Date | string;
  area_code: string;
};

type Plan = {
  state: string;
  initiator: 'seller' | 'buyer';
  reason: RedReason;
  /** share of line 1 to reverse; null = full */
  share: number | null;
  /** hours ago the form was raised */
  ageHours: number;
  issueRed?: boolean;
};

// Demo red forms for the software business's store HQ (the clerk's): one issued partial red (the
// blue becomes 部分红冲), one awaiting the buyer (02), one raised by the buyer awaiting us (03),
// one expired (07), one the buyer rejected (05).
const PLANS: Plan[] = [
  { state: '01', initiator: 'seller', reason: '04', share: 0.3, ageHours: 50, issueRed: true },
  { state: '02', initiator: 'seller', reason: '04', share: 0.5, ageHours: 12 },
  { state: '03', initiator: 'buyer', reason: '01', share: null, ageHours: 52 },
  { state: '07', initiator: 'seller', reason: '04', share: 0.2, ageHours: 100 },
  { state: '05', initiator: 'seller', reason: '01', share: null, ageHours: 30 },
];

/**
 * Seeds the demo red forms once (skipped when the business has any): picks recent issued 数电
 * blue invoices of store HQ that have no red yet, and builds each form with the module's own line
 * rules. Runs after the history (it needs its invoices); skipped with it under NODE_ENV=test.
 */
export async function seedDemoRedForms(db: Db, demo: { software: { taxCode: string } }): Promise<void> {
  const client = await db.execute<{ id: number }>(
    sql`select id from clients where tax_code = ${demo.software.taxCode}`,
  );
  const clientId = client.rows[0]?.id;
  if (clientId === undefined) return;
  const has = await db.execute(sql`select 1 from red_forms where client_id = ${clientId} limit 1`);
  if (has.rows.length > 0) return;
  const blues = await db.execute<Blue>(sql`
    select i.id, i.client_id, i.store_id, i.device_id, i.invoice_type, i.invoice_no, i.total_with_tax,
      i.issued_at, d.area_code
    from invoices i
    join client_stores s on s.id = i.store_id and s.code = 'HQ'
    join tax_devices d on d.id = i.device_id
    where i.client_id = ${clientId} and i.direction = 'blue' and i.status = 'issued' and i.red_status = 'none'
      and i.invoice_type in ('81', '82') and i.issued_at < now() - interval '5 days'
      and not exists (select 1 from invoices r where r.original_invoice_id = i.id)
      and not exists (select 1 from invoice_lines l where l.invoice_id = i.id and l.line_kind <> 0)
    order by i.issued_at desc
    limit ${PLANS.length}`);
  if (blues.rows.length < PLANS.length) return;
  const clerk = await db.execute<{ id: number }>(sql`select id from users where account = 'kaipiao_clerk'`);
  const userId = clerk.rows[0]?.id ?? null;

  for (const [i, plan] of PLANS.entries()) {
    const b = blues.rows[i]!;
    const blueId = Number(b.id);
    const lines = await blueLines(db, clientId, blueId);
    const first = lines[0]!;
    const red = buildRedLines(lines, await takenByLine(db, clientId, blueId), {
      reason: plan.reason,
      full: plan.share === null,
      lines:
        plan.share === null
          ? []
          : [
              {
                blue_line_no: first.line_no,
                amount_with_tax: fixed(Number(first.amount_with_tax) * plan.share),
              },
            ],
      untouched: true,
    });
    const created = new Date(Date.now() - plan.ageHours * 3600_000);
    const pending = plan.state === '02' || plan.state === '03' || plan.state === '07';
    if (plan.state === '02' || plan.state === '05')
      await setBuyerUsed(db, { clientId, invoiceId: blueId, used: true });
    await db.transaction(async (tx) => {
      const formId = await insertForm(tx, {
        clientId,
        storeId: b.store_id,
        deviceId: b.device_id,
        blueInvoiceId: blueId,
        kind: 'confirm',
        initiator: plan.initiator,
        reason: plan.reason,
        full: plan.share === null,
        state: plan.state,
        totals: totalsOf(red),
        lines: red,
        remark: '',
        expiresInHours: null,
        createdBy: plan.initiator === 'seller' ? userId : null,
        formNo: (id) => redFormNo({ kind: 'confirm', formId: id, areaCode: b.area_code, at: created }),
      });
      const expires = new Date(created.getTime() + RED_CONFIRM_HOURS * 3600_000);
      await tx.execute(sql`update red_forms set created_at = ${created.toISOString()},
          updated_at = ${created.toISOString()},
          expires_at = ${pending ? expires.toISOString() : null},
          decided_at = ${
            plan.state === '07'
              ? expires.toISOString()
              : ['01', '05'].includes(plan.state)
                ? new Date(created.getTime() + 3600_000).toISOString()
                : null
          }
        where id = ${formId}`);
      if (!plan.issueRed) return;
      const form = (await tx.execute(sql`select * from red_forms where id = ${formId}`)).rows[0] as never;
      const redId = await insertRedInvoice(tx, {
        form,
        blueId,
        serialNo: `RF${formId}`,
        remark: `被红冲蓝字数电发票号码：${b.invoice_no} 红字发票信息确认单编号：${
          (await tx.execute<{ form_no: string }>(sql`select form_no from red_forms where id = ${formId}`))
            .rows[0]!.form_no
        }`,
        userId,
      });
      const issuedAt = new Date();
      const [num] = await allocateInvoiceNumbers(tx, {
        deviceId: b.device_id,
        invoiceType: b.invoice_type,
        count: 1,
        issuedAt,
      });
      const totals = totalsOf(red);
      const checkCode = makeCheckCode(b.invoice_type, num!.invoiceCode, num!.invoiceNo);
      const qr = invoiceQrText({
        invoiceType: b.invoice_type,
        invoiceCode: num!.invoiceCode,
        invoiceNo: num!.invoiceNo,
        checkCode,
        totalAmount: totals.amount,
        totalWithTax: totals.withTax,
        issueDate: issuedAt,
      });
      await tx.execute(sql`update invoices set status = 'issued', invoice_code = ${num!.invoiceCode},
          invoice_no = ${num!.invoiceNo}, check_code = ${checkCode},
          issued_at = ${issuedAt.toISOString()}, qr_string = ${qr}, created_at = ${created.toISOString()},
          updated_at = ${issuedAt.toISOString()}
        where id = ${redId}`);
      await tx.execute(sql`
        insert into invoice_events (invoice_id, client_id, kind, user_id, detail, created_at)
        values (${redId}, ${clientId}, 'issued', ${userId}::int,
          ${JSON.stringify({ invoice_code: num!.invoiceCode, invoice_no: num!.invoiceNo })}::jsonb,
          ${issuedAt.toISOString()})`);
      await tx.execute(sql`update red_forms set red_invoice_id = ${redId} where id = ${formId}`);
    });
    if (plan.issueRed) await settleBlueInDb(db, blueId, userId);
  }
}
