import { setupServer } from 'msw/node';

// One MSW server for the web tests (started in setup.ts): every fetch a component makes is answered
// by a handler a test installs with `server.use(...)` (./api.ts builds them from the shared
// contract), and what was asked is logged so tests can check the calls a page made.

export const server = setupServer();

/** One request a page sent, as a handler (or the unhandled-request hook) saw it. */
export type ApiCall = {
  method: string;
  /** pathname, e.g. /v3/online-invoicing/blue */
  path: string;
  url: URL;
  /** the query string's parameters (repeated names: the last one) */
  query: Record<string, string>;
  /** the parsed JSON body of a POST; undefined for GET or a body that is not JSON */
  body: unknown;
  /** false: no handler matched (the test fails) */
  handled: boolean;
};

const calls: ApiCall[] = [];
const problems: string[] = [];

export function recordCall(call: ApiCall) {
  calls.push(call);
}

/** A contract violation or an unhandled request: the running test fails when it ends. */
export function recordProblem(problem: string) {
  problems.push(problem);
}

/** The requests sent so far in this test, optionally only those to `path` (and `method`). */
export function apiCalls(path?: string, method?: string): ApiCall[] {
  return calls.filter(
    (c) => (path === undefined || c.path === path) && (method === undefined || c.method === method),
  );
}

export function startServer() {
  server.listen({
    onUnhandledRequest(request, print) {
      const url = new URL(request.url);
      recordCall({
        method: request.method,
        path: url.pathname,
        url,
        query: Object.fromEntries(url.searchParams),
        body: undefined,
        handled: false,
      });
      recordProblem(`no handler for ${request.method} ${url.pathname}${url.search}`);
      print.error();
    },
  });
}

/** After each test: handlers and log reset; what went wrong during the test is thrown. */
export function resetServer() {
  server.resetHandlers();
  calls.length = 0;
  const found = problems.splice(0);
  if (found.length > 0) throw new Error(`API contract (src/test/contract.ts):\n- ${found.join('\n- ')}`);
}
