import { CODE, ERROR_MESSAGES, messageFor } from '@kaipiao/shared';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { z } from 'zod';
import { CONTRACT, type Endpoint, ERROR_DATA, type Route } from './contract.ts';
import { type ApiCall, recordCall, recordProblem } from './msw.ts';

// MSW handlers that answer like the server (architecture.md "Requests"): HTTP 200 with the envelope
// `{ code, message, data }`. Each one is checked against the shared contract (./contract.ts):
// - `data` of a successful answer is parsed with the route's response schema when the handler is
//   made (apiOk) or when it answers (apiHandler): a missing, mistyped or unknown field throws;
// - the request's query and body are parsed with the route's request schemas: a page that sends
//   what the server would refuse gets the server's 10001 answer, and the test fails when it ends;
// - an error's code must be one the server has, its data what that code carries (ERROR_DATA).

type Method = 'GET' | 'POST';
type PathOf<M extends Method> = { [R in Route]: R extends `${M} ${infer P}` ? P : never }[Route];
type EndpointOf<M extends Method, P extends PathOf<M>> = (typeof CONTRACT)[`${M} ${P}` & Route];
/** what a fixture may be: the response schema's input */
export type DataOf<M extends Method, P extends PathOf<M>> = z.input<EndpointOf<M, P>['data']>;
type BodyOf<M extends Method, P extends PathOf<M>> =
  EndpointOf<M, P> extends { body: z.ZodType } ? z.output<EndpointOf<M, P>['body']> : undefined;

type Ok<D> = { kind: 'ok'; data: D; message?: string };
type Failure = { kind: 'error'; code: number; message?: string; data?: unknown };
type NetworkError = { kind: 'network' };
export type Reply<D> = Ok<D> | Failure | NetworkError;

/** What an apiHandler resolver returns. */
export const reply = {
  /** code 0 with `data` (checked against the route's response schema) */
  ok: <D>(data: D, message?: string): Ok<D> => ({ kind: 'ok', data, message }),
  /** a handled failure: `message` defaults to the code's shared message, `data` to null */
  error: (code: number, options: { message?: string; data?: unknown } = {}): Failure => ({
    kind: 'error',
    code,
    ...options,
  }),
  /** the request never reaches the server (fetch rejects, as with the network down) */
  networkError: (): NetworkError => ({ kind: 'network' }),
};

export type ApiRequest<B> = { body: B; query: Record<string, string>; call: ApiCall; request: Request };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys of `input` that parsing dropped: fields the contract does not have. */
function droppedKeys(input: unknown, output: unknown, path: string): string[] {
  if (Array.isArray(input) && Array.isArray(output)) {
    return input.flatMap((v, i) => droppedKeys(v, output[i], `${path}[${i}]`));
  }
  if (!isObject(input) || !isObject(output)) return [];
  return Object.keys(input).flatMap((key) => {
    const at = path ? `${path}.${key}` : key;
    if (input[key] === undefined) return [];
    return key in output ? droppedKeys(input[key], output[key], at) : [at];
  });
}

/** `value` parsed by `schema`, or an Error saying how it differs from the contract. */
function conform(schema: z.ZodType, value: unknown, what: string): unknown {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new Error(`${what} does not match the contract:\n${z.prettifyError(result.error)}`);
  const dropped = droppedKeys(value, result.data, '');
  if (dropped.length > 0)
    throw new Error(`${what} has fields the contract does not have: ${dropped.join(', ')}`);
  return result.data;
}

function endpointOf(route: string): Endpoint {
  const endpoint = (CONTRACT as Record<string, Endpoint>)[route];
  if (!endpoint) throw new Error(`${route} is not in src/test/contract.ts`);
  return endpoint;
}

type Envelope = { code: number; message: string; data: unknown };

function okEnvelope(route: string, data: unknown, message = 'ok'): Envelope {
  return { code: CODE.OK, message, data: conform(endpointOf(route).data, data, `the data of ${route}`) };
}

function errorEnvelope(route: string, failure: Omit<Failure, 'kind'>): Envelope {
  const { code } = failure;
  if (code === CODE.OK || (!(code in ERROR_MESSAGES) && code !== CODE.CHANNEL)) {
    throw new Error(`${route}: ${code} is not an error code the server sends (packages/shared/src/errors)`);
  }
  const schema = ERROR_DATA[code];
  let data: unknown = null;
  if (failure.data !== undefined && failure.data !== null) {
    if (!schema) throw new Error(`${route}: code ${code} carries no data (add its schema to ERROR_DATA)`);
    data = conform(schema, failure.data, `the data of ${route}'s ${code}`);
  }
  return { code, message: failure.message ?? messageFor(code), data };
}

const validationEnvelope = (error: z.ZodError): Envelope => {
  const errors = error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
  return {
    code: CODE.VALIDATION,
    message: errors[0]?.message ?? messageFor(CODE.VALIDATION),
    data: { errors },
  };
};

/** The request's query and body, recorded and checked like the server's schemas would. */
async function readRequest(route: string, request: Request) {
  const endpoint = endpointOf(route);
  const url = new URL(request.url);
  const text = request.method === 'GET' ? '' : await request.clone().text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const query = Object.fromEntries(url.searchParams);
  const call: ApiCall = { method: request.method, path: url.pathname, url, query, body, handled: true };
  recordCall(call);
  for (const [part, schema, value] of [
    ['query', endpoint.query, query],
    ['body', endpoint.body, body ?? {}],
  ] as const) {
    if (!schema) continue;
    const result = schema.safeParse(value);
    if (!result.success) {
      recordProblem(`${route} was sent a ${part} the server refuses:\n${z.prettifyError(result.error)}`);
      return { call, refused: validationEnvelope(result.error) };
    }
    if (part === 'body') body = result.data;
  }
  return { call, body, query, refused: null };
}

function handlerFor(
  method: Method,
  path: string,
  answer: (req: ApiRequest<unknown>) => Reply<unknown> | Promise<Reply<unknown>>,
): HttpHandler {
  const route = `${method} ${path}`;
  endpointOf(route);
  const make = method === 'GET' ? http.get : http.post;
  return make(path, async ({ request }) => {
    const req = await readRequest(route, request);
    if (req.refused) return HttpResponse.json(req.refused);
    const r = await answer({ body: req.body, query: req.query ?? {}, call: req.call, request });
    if (r.kind === 'network') return HttpResponse.error();
    try {
      return HttpResponse.json(
        r.kind === 'ok' ? okEnvelope(route, r.data, r.message) : errorEnvelope(route, r),
      );
    } catch (error) {
      recordProblem(String((error as Error).message));
      return new HttpResponse(null, { status: 500 });
    }
  });
}

/** Answers `method path` with `data` (parsed with the route's response schema now). */
export function apiOk<M extends Method, P extends PathOf<M>>(
  method: M,
  path: P,
  data: DataOf<M, P>,
  options: { message?: string } = {},
): HttpHandler {
  const envelope = okEnvelope(`${method} ${path}`, data, options.message);
  return handlerFor(method, path, () => reply.ok(envelope.data, envelope.message));
}

/** Answers `method path` with an error envelope (checked now: a known code and its data). */
export function apiError<M extends Method, P extends PathOf<M>>(
  method: M,
  path: P,
  code: number,
  options: { message?: string; data?: unknown } = {},
): HttpHandler {
  errorEnvelope(`${method} ${path}`, { code, ...options });
  return handlerFor(method, path, () => reply.error(code, options));
}

/** Answers `method path` per request: `answer` sees the checked body and query and returns a reply. */
export function apiHandler<M extends Method, P extends PathOf<M>>(
  method: M,
  path: P,
  answer: (req: ApiRequest<BodyOf<M, P>>) => Reply<DataOf<M, P>> | Promise<Reply<DataOf<M, P>>>,
): HttpHandler {
  return handlerFor(method, path, answer as (req: ApiRequest<unknown>) => Reply<unknown>);
}
