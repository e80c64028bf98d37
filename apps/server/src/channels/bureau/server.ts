import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createBureauServer } from './http.ts';

/**
 * A sandbox tax bureau as a process of its own (issue 19 item 1): what channels/http.ts speaks to,
 * and the proof that the tax channel port (port.ts) can be implemented by something that shares
 * nothing with us but HTTP. Its state (devices, quota, stock, invoices, faults) lives in this
 * process's memory and nowhere else; a restart forgets it.
 *
 * Run: `tsx apps/server/src/channels/bureau/server.ts` (env PORT, default 0 = any free port); it
 * listens on 127.0.0.1 and prints `BUREAU_LISTENING <port>` once it does.
 *
 * API (JSON):
 * - `PUT /devices/:id` registers or updates a device (DeviceInput); `stock` replaces the device's
 *   blank stock of the kinds it names, each under a new batch code.
 * - `GET /devices/:id` its state, quota and stock (404 when not registered).
 * - `POST /invoices` issues (IssueInput). Idempotent by (clientId, serialNo): a repeat answers the
 *   invoice already made. Answers `{result:'issued', invoice}`, `{result:'refused', code, message}`
 *   (the bureau's own codes, BUREAU_ERRORS) or `{result:'unknown', message}`.
 * - `GET /invoices/:clientId/:serialNo` `{state: 'issued', invoice} | {state: 'not_issued'} | {state: 'pending'}`.
 * - `GET /numbers?clientId=&invoiceCode=&invoiceNo=` an issued invoice by its numbers (what a red
 *   form or a void names): `{invoice, buyerUsed, voidedAt, voidReason}`; 404 E4301 when unknown.
 * - `POST /buyer-use` `{clientId, invoiceCode, invoiceNo, used}`: the buyer confirms use of (勾选)
 *   or books (入账) the invoice, or takes that back (the counterparty's side); answers as `/numbers`.
 * - `POST /voids` `{clientId, deviceId, invoiceCode, invoiceNo, reason}` voids (作废) a paper invoice
 *   of this month at its device. Idempotent: a repeat answers the first void. Answers
 *   `{result:'voided', voidedAt}`, `{result:'refused', code, message}` or `{result:'unknown', message}`.
 * - `POST /faults` `{deviceId, fault, count?, code?, message?, visibleAfterMs?, holdMs?, httpStatus?}`:
 *   the device's next `count` issue or void requests (default 1; null = until cleared with fault
 *   `none`) meet the fault (BureauFault).
 * - `POST /reset` forgets everything.
 */

export { Bureau } from './bureau.ts';
export { createBureauServer } from './http.ts';
export * from './model.ts';

/** Started as a program: listen and say where. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = createBureauServer();
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`BUREAU_LISTENING ${(server.address() as AddressInfo).port}\n`);
  });
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    });
  }
}
