import http from 'node:http';
import { Bureau, numbersView, wire } from './bureau.ts';
import {
  amount,
  BadRequest,
  BUREAU_ERRORS,
  BUREAU_VOID_ERRORS,
  bool,
  type Fault,
  type IssueInput,
  int,
  need,
  type Stored,
  str,
  UNKNOWN,
  type VoidInput,
} from './model.ts';

// The sandbox bureau's HTTP API (listed in bureau/server.ts): parsing, faults on the wire, the server.
function parseIssue(body: Record<string, unknown>): IssueInput {
  return {
    clientId: int(body.clientId, 'clientId'),
    deviceId: int(body.deviceId, 'deviceId'),
    serialNo: need(
      typeof body.serialNo === 'string' && /^.{1,64}$/.test(body.serialNo),
      body.serialNo as string,
      'serialNo',
    ),
    invoiceType: str(body.invoiceType, 'invoiceType'),
    totalAmount: amount(body.totalAmount, 'totalAmount'),
    totalWithTax: amount(body.totalWithTax, 'totalWithTax'),
  };
}

/** An invoice's numbers: `invoiceCode` may be '' (数电). */
function parseNumbers(body: Record<string, unknown>) {
  return {
    clientId: int(body.clientId, 'clientId'),
    invoiceCode: need(typeof body.invoiceCode === 'string', body.invoiceCode as string, 'invoiceCode'),
    invoiceNo: str(body.invoiceNo, 'invoiceNo'),
  };
}

function parseVoid(body: Record<string, unknown>): VoidInput {
  return {
    ...parseNumbers(body),
    deviceId: int(body.deviceId, 'deviceId'),
    reason: str(body.reason, 'reason'),
  };
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  if (chunks.length === 0) return {};
  const v: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new BadRequest('body');
  return v as Record<string, unknown>;
}

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

/**
 * Waits until the client hangs up (its time-out) or `ms` passes; true when the client is gone.
 * The response has not been ended, so its `close` means the connection went away.
 */
const holdUntilHangUp = (res: http.ServerResponse, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (res.destroyed) return resolve(true);
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    res.once('close', onClose);
  });

/**
 * The faults that answer before the bureau does anything, alike for issues and voids: down (no
 * connection or an HTTP error), lost (held until the caller hangs up), error (a refusal). True when
 * one of them answered.
 */
async function wireFault(fault: Fault | null, res: http.ServerResponse): Promise<boolean> {
  switch (fault?.fault) {
    case 'down':
      if (fault.httpStatus) {
        res.writeHead(fault.httpStatus, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Service Unavailable');
      } else {
        res.socket?.destroy();
      }
      return true;
    case 'lost':
      if (!(await holdUntilHangUp(res, fault.holdMs))) res.socket?.destroy();
      return true;
    case 'error':
      send(res, 200, {
        result: 'refused',
        code: fault.code ?? BUREAU_ERRORS.BUSY.code,
        message: fault.message ?? BUREAU_ERRORS.BUSY.message,
      });
      return true;
    default:
      return false;
  }
}

/** A void request under the device's fault, as an issue request (postInvoice) would be. */
async function postVoid(bureau: Bureau, req: VoidInput, res: http.ServerResponse): Promise<void> {
  const fault = bureau.takeFault(req.deviceId);
  if (await wireFault(fault, res)) return;
  switch (fault?.fault) {
    case 'unknown':
      bureau.voidInvoice(req);
      send(res, 200, { result: 'unknown', message: fault.message ?? '作废结果未知，请稍后重试' });
      return;
    case 'slow-issued': {
      const answer = bureau.voidInvoice(req);
      if (await holdUntilHangUp(res, fault.holdMs)) return;
      send(res, 200, answer);
      return;
    }
    default:
      send(res, 200, bureau.voidInvoice(req));
  }
}

async function postInvoice(bureau: Bureau, req: IssueInput, res: http.ServerResponse): Promise<void> {
  const fault = bureau.takeFault(req.deviceId);
  if (await wireFault(fault, res)) return;
  switch (fault?.fault) {
    case 'unknown':
      bureau.issue(req, fault.visibleAfterMs);
      send(res, 200, fault.message ? { ...UNKNOWN, message: fault.message } : UNKNOWN);
      return;
    case 'slow-issued': {
      const answer = bureau.issue(req);
      if (await holdUntilHangUp(res, fault.holdMs)) return;
      send(res, 200, wire(answer));
      return;
    }
    default:
      send(res, 200, wire(bureau.issue(req)));
  }
}

/** The bureau's HTTP server (not yet listening). */
export function createBureauServer(bureau = new Bureau()): http.Server {
  return http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://bureau');
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      const method = req.method ?? 'GET';
      try {
        if (method === 'POST' && url.pathname === '/invoices') {
          return await postInvoice(bureau, parseIssue(await readJson(req)), res);
        }
        if (method === 'POST' && url.pathname === '/voids') {
          return await postVoid(bureau, parseVoid(await readJson(req)), res);
        }
        if (url.pathname === '/numbers' || url.pathname === '/buyer-use') {
          let inv: Stored | null = null;
          if (method === 'GET' && url.pathname === '/numbers') {
            const q = Object.fromEntries(url.searchParams);
            inv = bureau.byNumbers(parseNumbers({ ...q, clientId: Number(q.clientId) }));
          } else if (method === 'POST' && url.pathname === '/buyer-use') {
            const body = await readJson(req);
            inv = bureau.setBuyerUsed({ ...parseNumbers(body), used: bool(body.used, 'used') });
          } else {
            return send(res, 405, {
              result: 'refused',
              code: 'E4050',
              message: `${method} ${url.pathname} 不支持`,
            });
          }
          return inv
            ? send(res, 200, numbersView(inv))
            : send(res, 404, { result: 'refused', ...BUREAU_VOID_ERRORS.INVOICE_UNKNOWN });
        }
        if (method === 'GET' && parts[0] === 'invoices' && parts.length === 3) {
          return send(res, 200, bureau.query(int(Number(parts[1]), 'clientId'), parts[2]!));
        }
        if (parts[0] === 'devices' && parts.length === 2) {
          const id = int(Number(parts[1]), 'device id');
          if (method === 'PUT') {
            bureau.putDevice(id, await readJson(req));
            return send(res, 200, bureau.deviceView(id));
          }
          if (method === 'GET') {
            const view = bureau.deviceView(id);
            return view
              ? send(res, 200, view)
              : send(res, 404, { result: 'refused', ...BUREAU_ERRORS.DEVICE_UNKNOWN });
          }
        }
        if (method === 'POST' && url.pathname === '/faults') {
          bureau.setFault(await readJson(req));
          return send(res, 200, { ok: true });
        }
        if (method === 'POST' && url.pathname === '/reset') {
          bureau.reset();
          return send(res, 200, { ok: true });
        }
        send(res, 404, { result: 'refused', code: 'E4040', message: `${method} ${url.pathname} 不存在` });
      } catch (err) {
        if (err instanceof BadRequest || err instanceof SyntaxError) {
          send(res, 400, {
            result: 'refused',
            code: BUREAU_ERRORS.BAD_REQUEST.code,
            message: `${BUREAU_ERRORS.BAD_REQUEST.message}：${err.message}`,
          });
        } else {
          send(res, 500, { result: 'error', message: String(err) });
        }
      }
    })();
  });
}
