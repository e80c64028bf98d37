import { CODE, type MenuEntry, SUMMARY_STORE_ID } from '@kaipiao/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import { buildScope, type RouteScope, type Scope, scopeOf } from '../lib/scope.ts';
import type { AccessService, SessionCtx } from '../modules/session/access.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'public' skips the session; default is 'session' */
    auth?: 'public' | 'session';
    /** permission url(s) (spec §6): the call is refused unless one of them is authorised */
    menu?: string | readonly string[];
    /** 'specific' refuses the all-stores summary (-1) with 10688 */
    store?: 'specific';
    /**
     * What the route reaches (lib/scope.ts): every API route declares it (or `auth: 'public'`);
     * registering one without is refused, and the store matrix test walks every `store` route.
     */
    scope?: RouteScope;
  }
  interface FastifyRequest {
    session: SessionCtx | null;
    /** the store the call acts for: -1 summary, or a permitted store id */
    sid: number | null;
    /** the one scope every service query goes through (lib/scope.ts); set for business/store routes */
    scope: Scope | null;
  }
  interface FastifyInstance {
    accessService: AccessService;
    /**
     * every API route with its declared scope (the store matrix test walks it) and its request
     * schemas (the malformed-input walk generates bad bodies and queries from them)
     */
    routeTable: {
      method: string;
      url: string;
      scope: RouteScope | undefined;
      schema: { body?: unknown; querystring?: unknown; params?: unknown } | undefined;
    }[];
  }
}

const TOKEN_HEADER = 'access-token';
const API_PREFIXES = ['/v3/', '/v1/', '/ws'];
const isApi = (path: string) => API_PREFIXES.some((p) => path.startsWith(p));

/** The route's declared scope (`auth: 'public'` declares `public`); undefined = not declared. */
export function routeScope(
  config: { auth?: string; scope?: RouteScope } | undefined,
): RouteScope | undefined {
  if (config?.scope) return config.scope;
  if (config?.auth === 'public') return 'public';
  return undefined;
}

/** ids are PostgreSQL integers: a larger one is malformed, not a lookup that fails with a server error */
const INT_MAX = 2_147_483_647;

function intParam(v: string | null): number | undefined {
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n > INT_MAX || n < -INT_MAX) {
    throw new AppError(CODE.VALIDATION, 'client_id / sid 参数错误');
  }
  return n;
}

export function readToken(req: FastifyRequest): string | undefined {
  const header = req.headers[TOKEN_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  // Stryker disable next-line OptionalChaining: the app registers @fastify/cookie before this plugin, so req.cookies is always set
  return token || req.cookies?.kp_token || undefined;
}

/**
 * The menu of the call's business (authority's menu list, the batch page's grey rule): the access
 * service's cached entry for the session and the scope's business, the one the scope's permissions
 * were read from. The scope itself carries only the granted urls.
 */
export async function menuOf(req: FastifyRequest): Promise<readonly MenuEntry[]> {
  const { clientId } = scopeOf(req);
  // Stryker disable next-line ConditionalExpression,StringLiteral: a request with a scope has its session (the hook sets the session first)
  if (!req.session) throw new AppError(CODE.UNAUTHORIZED);
  return (await req.server.accessService.clientAccess(req.session, clientId)).menu;
}

/**
 * Session → request context, then the business/store scope and the menu permission of the route
 * (architecture.md §3: the server never trusts client_id / sid).
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('session', null);
  app.decorateRequest('sid', null);
  app.decorateRequest('scope', null);

  // an app with a route that declares no scope does not start (issue 21 item 1)
  const undeclared: string[] = [];
  app.decorate('routeTable', []);
  app.addHook('onRoute', (route) => {
    if (!isApi(route.url) || route.method === 'HEAD') return;
    const scope = routeScope(route.config as { auth?: string; scope?: RouteScope } | undefined);
    const schema = route.schema as FastifyInstance['routeTable'][number]['schema'];
    for (const method of [route.method].flat())
      app.routeTable.push({ method, url: route.url, scope, schema });
    if (!scope) undeclared.push(`${route.method} ${route.url}`);
  });
  app.addHook('onReady', async () => {
    if (undeclared.length > 0) {
      throw new Error(
        `routes without config.scope ('public' | 'user' | 'business' | 'store', lib/scope.ts): ${undeclared.join(', ')}`,
      );
    }
  });

  app.addHook('preHandler', async (req) => {
    const cfg = req.routeOptions.config;
    // only the API needs a session; the console's static files and pages are public
    const path = req.routeOptions.url;
    if (!path || !isApi(path)) return;
    const declared = routeScope(cfg);
    if (declared === 'public') return;
    const session = await app.accessService.sessionFromToken(readToken(req));
    req.session = session;

    // read from the raw URL: route schemas strip params they do not declare
    // Stryker disable next-line OptionalChaining,StringLiteral: a server request's url is always a string; with no '?' any text without '=' reads as no client_id/sid
    const query = new URLSearchParams(req.raw.url?.split('?')[1] ?? '');
    const clientId = intParam(query.get('client_id'));
    const sid = intParam(query.get('sid'));
    if (clientId !== undefined) {
      const access = await app.accessService.clientAccess(session, clientId);
      app.accessService.assertStore(access, sid);
      req.sid = sid ?? SUMMARY_STORE_ID;
      req.scope = buildScope({
        orgId: access.orgId,
        clientId: access.clientId,
        userId: session.userId,
        employeeId: access.employeeId,
        isAdmin: access.isAdmin,
        permittedStoreIds: access.storeIds,
        permissions: access.authUrls,
        sid: req.sid,
      });
    }
    if ((declared === 'business' || declared === 'store') && !req.scope) {
      throw new AppError(CODE.SWITCH_STORE, '');
    }
    if (cfg.menu) {
      const { permissions } = scopeOf(req);
      const urls = typeof cfg.menu === 'string' ? [cfg.menu] : cfg.menu;
      if (!urls.some((u) => permissions.has(u))) throw new AppError(CODE.FORBIDDEN);
    }
    if (cfg.store === 'specific' && (req.sid === null || req.sid === SUMMARY_STORE_ID)) {
      throw new AppError(CODE.SWITCH_STORE);
    }
  });
});
