import type { buildTestApp } from '../../../test/helper.ts';
import { download, upload } from '../../../test/xlsx-helpers.ts';
import type { Fixture } from '../invoices/test-fixtures.ts';
import { type CellMap, fillTemplate, invoiceRow, lineRow } from './test-utils.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

export type SendOpts = {
  clientId?: number;
  /** the store (default 文三路总部) */
  sid?: number;
  /** the device (default the 数电 account) */
  device?: number;
  /** the invoice kind (default 82, 数电普票) */
  type?: string;
  filename?: string;
  /** `send_email` of the upload */
  email?: string;
  token?: string;
};

/**
 * The batch tests' files: the template downloaded once, files of `n` invoices with serials unique
 * in the test file (`<prefix><k>x<i>`), and the upload of a file as the admin.
 */
export function batchFiles(t: () => App, f: () => Fixture, prefix: string) {
  let template: Promise<Buffer> | null = null;
  let seq = 0;
  const scope = (clientId?: number, sid?: number) =>
    f().scope(clientId ?? f().ids.software, sid ?? f().ids.hq);

  return {
    /** The template as the admin downloads it at 文三路总部. */
    template: () =>
      (template ??= download(t().app, `/v3/batch-invoice/template?${scope()}`, f().admin).then(
        (r) => r.body,
      )),
    /** A fresh serial prefix. */
    prefix: () => `${prefix}${++seq}x`,
    /** A filled template of `n` invoices with one line each, both with overrides per invoice (1-based). */
    async file(
      n: number,
      inv: (i: number) => CellMap = () => ({}),
      line: (i: number) => CellMap = () => ({}),
    ) {
      const p = this.prefix();
      return fillTemplate(
        await this.template(),
        Array.from({ length: n }, (_, i) => invoiceRow(`${p}${i + 1}`, inv(i + 1))),
        Array.from({ length: n }, (_, i) => lineRow(`${p}${i + 1}`, line(i + 1))),
      );
    },
    /** Uploads a file (the upload's answer). */
    send: (content: Buffer, o: SendOpts = {}) =>
      upload(
        t().app,
        `/v3/batch-invoice/upload?${scope(o.clientId, o.sid)}&device_id=${o.device ?? f().ids.digital}&invoice_type=${o.type ?? '82'}${o.email ? `&send_email=${o.email}` : ''}`,
        o.token ?? f().admin,
        { filename: o.filename ?? 'batch.xlsx', content },
      ),
  };
}
