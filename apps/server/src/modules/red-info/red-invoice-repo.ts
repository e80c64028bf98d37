import type { RedLine } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { RawRow } from '../../db/rows.ts';
import type { invoices, taxDevices } from '../../db/schema/index.ts';
import type { FormRow } from './repo.ts';

/**
 * The SQL of red invoices (service.ts; the forms' is in repo.ts): the red invoice of a form with
 * its lines and `created` event, its link to the form, what became of it, the blue invoice it
 * reverses, and the settling of that blue invoice's red status; the devices and businesses the
 * forms and voids look up.
 */

type InvoiceRaw = RawRow<typeof invoices>;
type DeviceRaw = RawRow<typeof taxDevices>;

/** The red invoice of a form, `issuing`, copied from its blue invoice with the form's lines and totals. */
export async function insertRedInvoice(
  tx: DbOrTx,
  q: { form: FormRow; blueId: number; serialNo: string; remark: string; userId: number | null },
): Promise<number> {
  const f = q.form;
  const lines: RedLine[] = f.lines;
  const res = await tx.execute<Pick<InvoiceRaw, 'id'>>(sql`
    insert into invoices (
      client_id, store_id, device_id, serial_no, request_hash, source, invoice_type, direction, status,
      buyer_title_type, buyer_name, buyer_tax_code, buyer_address, buyer_phone, buyer_bank_name,
      buyer_bank_account, buyer_email, buyer_mobile,
      seller_name, seller_tax_code, seller_address, seller_phone, seller_bank_name, seller_bank_account,
      price_includes_tax, total_amount, total_tax, total_with_tax, remark, drawer, payee, reviewer,
      original_invoice_id, red_form_id, created_by)
    select client_id, store_id, device_id, ${q.serialNo}, ${`red-form:${f.id}`}, source, invoice_type, 'red',
      'issuing', buyer_title_type, buyer_name, buyer_tax_code, buyer_address, buyer_phone, buyer_bank_name,
      buyer_bank_account, buyer_email, buyer_mobile,
      seller_name, seller_tax_code, seller_address, seller_phone, seller_bank_name, seller_bank_account,
      price_includes_tax, ${f.total_amount}::numeric, ${f.total_tax}::numeric, ${f.total_with_tax}::numeric,
      ${q.remark}, drawer, payee, reviewer, id, ${Number(f.id)}, ${q.userId}::int
    from invoices where id = ${q.blueId}
    returning id`);
  const id = Number(res.rows[0]!.id);
  const rows = lines.map((l, i) => ({ ...l, line_no: i + 1 }));
  await tx.execute(sql`
    insert into invoice_lines (
      invoice_id, line_no, client_id, line_kind, goods_id, tax_class_code, short_name, item_name, full_name,
      spec, unit, quantity, unit_price, unit_price_with_tax, amount, tax_rate, tax_amount, amount_with_tax,
      preferential_code, zero_rate_flag)
    select ${id}, l.line_no, ${f.client_id}, l.line_kind, null, l.tax_class_code, l.short_name, l.item_name,
      l.full_name, l.spec, l.unit, l.quantity, l.unit_price, l.unit_price_with_tax, l.amount, l.tax_rate,
      l.tax_amount, l.amount_with_tax, l.preferential_code, l.zero_rate_flag
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as l(
      line_no int, line_kind smallint, tax_class_code text, short_name text, item_name text, full_name text,
      spec text, unit text, quantity numeric, unit_price numeric, unit_price_with_tax numeric, amount numeric,
      tax_rate numeric, tax_amount numeric, amount_with_tax numeric, preferential_code text, zero_rate_flag text)`);
  await tx.execute(sql`
    insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
    values (${id}, ${f.client_id}, 'created', ${q.userId}::int,
      ${JSON.stringify({ status: 'issuing', serial_no: q.serialNo, red_form_id: Number(f.id), form_no: f.form_no })}::jsonb)`);
  return id;
}

/** Records the form's red invoice. */
export async function linkRedInvoice(tx: DbOrTx, formId: number, redId: number): Promise<void> {
  await tx.execute(
    sql`update red_forms set red_invoice_id = ${redId}, updated_at = now() where id = ${formId}`,
  );
}

/** The status of a form's red invoice (undefined when there is no such invoice). */
export async function redInvoiceStatus(
  tx: DbOrTx,
  redInvoiceId: number | string,
): Promise<Pick<InvoiceRaw, 'status'> | undefined> {
  const r = await tx.execute<Pick<InvoiceRaw, 'status'>>(
    sql`select status from invoices where id = ${redInvoiceId}`,
  );
  return r.rows[0];
}

/** The status and serial of a form's red invoice (undefined when there is no such invoice). */
export async function redInvoiceOf(
  tx: DbOrTx,
  redInvoiceId: number | string,
): Promise<Pick<InvoiceRaw, 'status' | 'serial_no'> | undefined> {
  const r = await tx.execute<Pick<InvoiceRaw, 'status' | 'serial_no'>>(
    sql`select status, serial_no from invoices where id = ${redInvoiceId}`,
  );
  return r.rows[0];
}

/** The blue invoice a red invoice reverses (undefined when `invoiceId` is not a red invoice). */
export async function originalOfRed(
  db: DbOrTx,
  invoiceId: number,
): Promise<Pick<InvoiceRaw, 'original_invoice_id'> | undefined> {
  const res = await db.execute<Pick<InvoiceRaw, 'original_invoice_id'>>(
    sql`select original_invoice_id from invoices where id = ${invoiceId} and direction = 'red'`,
  );
  return res.rows[0];
}

/** Locks a blue invoice for settling its red status (`for update`; undefined when it is not blue). */
export async function lockBlueForSettle(
  tx: DbOrTx,
  blueId: number,
): Promise<Pick<InvoiceRaw, 'client_id' | 'total_with_tax'> | undefined> {
  const res = await tx.execute<Pick<InvoiceRaw, 'client_id' | 'total_with_tax'>>(
    sql`select client_id, total_with_tax from invoices where id = ${blueId} and direction = 'blue' for update`,
  );
  return res.rows[0];
}

/** Sets the blue invoice's red status (no write when it already has it). */
export async function setRedStatus(tx: DbOrTx, blueId: number, status: string): Promise<void> {
  await tx.execute(sql`update invoices set red_status = ${status}, updated_at = now()
      where id = ${blueId} and red_status <> ${status}`);
}

/** A `reddened` event on the blue invoice per issued red invoice that has none yet. */
export async function recordReddened(
  tx: DbOrTx,
  blueId: number,
  userId: number | null,
  status: string,
): Promise<void> {
  await tx.execute(sql`
      insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
      select ${blueId}, r.client_id, 'reddened', ${userId}::int,
        jsonb_build_object('red_invoice_id', r.id, 'red_invoice_code', r.invoice_code,
          'red_invoice_no', r.invoice_no, 'amount_with_tax', r.total_with_tax::text,
          'red_form_id', r.red_form_id, 'red_status', ${status}::text)
      from invoices r
      where r.original_invoice_id = ${blueId} and r.direction = 'red' and r.status = 'issued'
        and not exists (select 1 from invoice_events e where e.invoice_id = ${blueId} and e.kind = 'reddened'
          and (e.detail ->> 'red_invoice_id')::bigint = r.id)`);
}

/** The device's area code (the form number's prefix). */
export async function deviceAreaCode(
  tx: DbOrTx,
  deviceId: number,
): Promise<Pick<DeviceRaw, 'area_code'> | undefined> {
  const area = await tx.execute<Pick<DeviceRaw, 'area_code'>>(
    sql`select area_code from tax_devices where id = ${deviceId}`,
  );
  return area.rows[0];
}

/** Whether the device is online (undefined when there is no such device). */
export async function deviceOnline(
  tx: DbOrTx,
  deviceId: number,
): Promise<Pick<DeviceRaw, 'online'> | undefined> {
  const d = await tx.execute<Pick<DeviceRaw, 'online'>>(
    sql`select online from tax_devices where id = ${deviceId}`,
  );
  return d.rows[0];
}

/** The business of a red form (undefined when there is no such form). */
export async function formClientId(db: DbOrTx, formId: number): Promise<number | undefined> {
  const res = await db.execute<{ client_id: number }>(
    sql`select client_id from red_forms where id = ${formId}`,
  );
  return res.rows[0]?.client_id;
}

/** The business of an invoice (undefined when there is no such invoice). */
export async function invoiceClientId(db: DbOrTx, invoiceId: number): Promise<number | undefined> {
  const res = await db.execute<{ client_id: number }>(
    sql`select client_id from invoices where id = ${invoiceId}`,
  );
  return res.rows[0]?.client_id;
}
