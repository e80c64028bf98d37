import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { validateXML } from 'xmllint-wasm';
import type { Db } from '../../db/client.ts';
import { invoiceLines, invoices, taxDevices } from '../../db/schema/index.ts';
import { DEMO } from '../../db/seed/demo.ts';
import type { InvoiceDocData } from './model.ts';

/** Test helpers of the documents module. */

const neg = (v: string) => (v.startsWith('-') ? v : `-${v}`);
/** The full red invoice of a constructed blue one (confirmation form 33010826112200000123). */
export function redOf(inv: InvoiceDocData): InvoiceDocData {
  return {
    ...inv,
    red: true,
    invoiceNo: '26332000000000012399',
    original: { invoiceCode: '', invoiceNo: inv.invoiceNo, redFormNo: '33010826112200000123' },
    lines: inv.lines.map((l) => ({
      ...l,
      amount: neg(l.amount),
      taxAmount: neg(l.taxAmount),
      quantity: l.quantity && neg(l.quantity),
    })),
    totalAmount: neg(inv.totalAmount),
    totalTax: neg(inv.totalTax),
    totalWithTax: neg(inv.totalWithTax),
  };
}

/**
 * A small well-formedness check (no XML package in the project): one root, tags balanced and
 * properly nested, attributes quoted, only the five predefined entities or character references.
 */
export function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  const re = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  let m: RegExpExecArray | null = re.exec(body);
  while (m) {
    if (m[6]) throw new Error(`stray < at ${m.index}`);
    if (m[5] !== undefined) {
      if (stack.length === 0 && m[5].trim()) throw new Error('text outside the root');
      const amp = m[5].match(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/);
      if (amp) throw new Error(`bare & in ${JSON.stringify(m[5].slice(0, 40))}`);
    } else if (m[1]) {
      const open = stack.pop();
      if (open !== m[2]) throw new Error(`</${m[2]}> closes <${open}>`);
    } else {
      if (stack.length === 0) roots += 1;
      if (!m[4]) stack.push(m[2]!);
    }
    m = re.exec(body);
  }
  if (stack.length) throw new Error(`unclosed <${stack.join('><')}>`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
}

/** The §四 schema (bureau spec V5.002) the generated XML must satisfy. */
export const EINVOICE_XSD = readFileSync(new URL('./einvoice-v0.36.xsd', import.meta.url), 'utf8');

/**
 * Validates an XML file against `einvoice-v0.36.xsd` with libxml2 (xmllint compiled to WebAssembly, an
 * npm package: no system tool needed) and returns its complaints, `[]` when the file is valid.
 */
export async function xsdErrors(xml: string, schema = EINVOICE_XSD): Promise<string[]> {
  const res = await validateXML({
    xml: [{ fileName: 'invoice.xml', contents: xml }],
    schema: [{ fileName: 'einvoice-v0.36.xsd', contents: schema }],
  });
  return res.valid ? [] : res.errors.map((e) => e.message);
}

/** An issued (or still issuing) invoice written straight to the tables, as the issuing code leaves it. */
export async function insertInvoice(
  db: Db,
  o: { clientId: number; storeId: number; buyerName: string; email?: string; issued?: boolean },
) {
  const [device] = await db.select().from(taxDevices).where(eq(taxDevices.clientId, o.clientId)).limit(1);
  const issued = o.issued ?? true;
  const no = `2633200000${randomBytes(5).readUIntBE(0, 5).toString().padStart(10, '0').slice(0, 10)}`;
  const [inv] = await db
    .insert(invoices)
    .values({
      clientId: o.clientId,
      storeId: o.storeId,
      deviceId: device?.id ?? 0,
      serialNo: `T${randomBytes(8).toString('hex')}`,
      requestHash: 'x',
      invoiceType: '82',
      status: issued ? 'issued' : 'issuing',
      invoiceNo: issued ? no : null,
      issuedAt: issued ? new Date('2026-11-22T02:30:00Z') : null,
      buyerName: o.buyerName,
      buyerTaxCode: '91310115MA1H7XXXXQ',
      buyerEmail: o.email ?? '',
      sellerName: DEMO.software.name,
      sellerTaxCode: DEMO.software.taxCode,
      totalAmount: '200.00',
      totalTax: '12.00',
      totalWithTax: '212.00',
      remark: '合同号 HT-1 & <测试>',
      drawer: '王小明',
    })
    .returning();
  await db.insert(invoiceLines).values({
    invoiceId: inv!.id,
    lineNo: 1,
    clientId: o.clientId,
    taxClassCode: '3040201010000000000',
    shortName: '信息技术服务',
    itemName: '软件开发服务',
    fullName: '*信息技术服务*软件开发服务',
    unit: '项',
    quantity: '2',
    unitPrice: '100',
    unitPriceWithTax: '106',
    amount: '200.00',
    taxRate: '0.06',
    taxAmount: '12.00',
    amountWithTax: '212.00',
  });
  return inv!;
}
