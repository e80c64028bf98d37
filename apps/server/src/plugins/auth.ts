import { CODE, SUMMARY_STORE_ID } from '@kaipiao/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import type { AccessService, ClientAccess, SessionCtx } from '../modules/session/access.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'public' skips the session; default is 'session' */
    auth?: 'public' | 'session';
    /** permission url(s) (spec §6): the call is refused unless one of them is authorised */
    menu?: string | readonly string[];
    /** 'specific' refuses the all-stores summary (-1) with 10688 */
    store?: 'specific';
  }
  interface FastifyRequest {
    session: SessionCtx | null;
    access: ClientAccess | null;
    /** the store the call acts for: -1 summary, or a permitted store id */
    sid: number | null;
  }
  interface FastifyInstance {
    accessService: AccessService;
  }
}

const TOKEN_HEADER = 'access-token';

function intParam(v: string | null): number | undefined {
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new AppError(CODE.VALIDATION, 'client_id / sid 参数错误');
  return n;
}

export function readToken(req: FastifyRequest): string | undefined {
  const header = req.headers[TOKEN_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  return token || req.cookies?.kp_token || undefined;
}

/**
 * Session → request context, then the business/store scope and the menu permission of the route
 * (architecture.md §3: the server never trusts client_id / sid).
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('session', null);
  app.decorateRequest('access', null);
  app.decorateRequest('sid', null);

  app.addHook('preHandler', async (req) => {
    const cfg = req.routeOptions.config;
    // only the API needs a session; the console's static files and pages are public
    const path = req.routeOptions.url;
    if (
      !path ||
      cfg.auth === 'public' ||
      !(path.startsWith('/v3/') || path.startsWith('/v1/') || path.startsWith('/ws'))
    )
      return;
    const session = await app.accessService.sessionFromToken(readToken(req));
    req.session = session;

    // read from the raw URL: route schemas strip params they do not declare
    const query = new URLSearchParams(req.raw.url?.split('?')[1] ?? '');
    const clientId = intParam(query.get('client_id'));
    const sid = intParam(query.get('sid'));
    if (clientId !== undefined) {
      const access = await app.accessService.clientAccess(session, clientId);
      app.accessService.assertStore(access, sid);
      req.access = access;
      req.sid = sid ?? SUMMARY_STORE_ID;
    }
    if (cfg.menu) {
      if (!req.access) throw new AppError(CODE.SWITCH_STORE, '');
      const urls = typeof cfg.menu === 'string' ? [cfg.menu] : cfg.menu;
      if (!urls.some((u) => req.access!.authUrls.has(u))) throw new AppError(CODE.FORBIDDEN);
    }
    if (cfg.store === 'specific' && (req.sid === null || req.sid === SUMMARY_STORE_ID)) {
      throw new AppError(CODE.SWITCH_STORE);
    }
  });
});
