import { messageFor, SESSION_CODE, TOKEN_TTL_SECONDS } from '@kaipiao/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route signs someone in: a successful answer whose `data.token` is set also sets the
     * HttpOnly session cookie (the token stays in the body for API clients, spec §7).
     */
    issuesSession?: true;
  }
}

/** The session cookie: HttpOnly, set and cleared only by the server (issue 21 item 4). */
export const SESSION_COOKIE = 'kp_token';
export const TOKEN_HEADER = 'access-token';

/**
 * The console's policy. Scripts only from our own files (no inline script, no eval); styles may be
 * inline because antd writes its CSS-in-JS into <style> elements; images also from data: (the
 * favicon, antd's empty states) and blob:; fetch and the device socket only to our own origin
 * (CSP3 'self' covers ws:/wss: of the same host); nothing may frame a page (the print pages open
 * in tabs of their own) and no plugin content.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // same-origin calls keep the full URL (the Origin check needs it); other sites get the origin only,
  // never a path with a partner's token or a buyer's code in it
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-permitted-cross-domain-policies': 'none',
};
const HSTS = 'max-age=15552000';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function cookieOptions(req: FastifyRequest) {
  // req.protocol is 'https' only over TLS, or behind a proxy KAIPIAO_TRUST_PROXY trusts
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: req.protocol === 'https' };
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, maxAge: number) {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(req), maxAge });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(req));
}

/** The access-token header, when the call carries one (API clients; never sent by another site's page). */
export function headerToken(req: FastifyRequest): string | undefined {
  const header = req.headers[TOKEN_HEADER];
  return (Array.isArray(header) ? header[0] : header) || undefined;
}

/**
 * Did another site's page send this? A browser names the request's site in Sec-Fetch-Site and its
 * page's origin in Origin (always, on a cross-site POST or WebSocket). A call with neither comes
 * from a program, not a page another site controls.
 */
export function isCrossSite(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site === 'same-origin' || site === 'none') return false;
  const origin = req.headers.origin;
  if (origin) {
    try {
      // the host, not the scheme: behind a TLS proxy the server may see http for an https page
      return new URL(origin).host !== req.host;
    } catch {
      return true; // `Origin: null` (sandboxed frame, data: URL, privacy redirect)
    }
  }
  return site === 'cross-site' || site === 'same-site';
}

function isApi(url: string) {
  return url.startsWith('/v3/') || url.startsWith('/v1/');
}

/**
 * Security headers on every answer, the session cookie on sign-in, and the refusal of cross-site
 * state changes (issue 21 item 4, issue 11 item 2; docs/security.md).
 */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  const hsts = app.env.trustProxy !== false;

  // Cross-site requests: a page on another site may make the browser POST to us with our cookie
  // (SameSite=Lax stops that for most, not for sibling subdomains or old browsers) or open the
  // device socket with it. Calls carrying the access-token header cannot come from another site's
  // page (a custom header needs CORS, which this server never grants), so they pass.
  app.addHook('onRequest', async (req, reply) => {
    const url = req.url;
    const stateChanging = !SAFE_METHODS.has(req.method) && isApi(url);
    const socket = url.startsWith('/ws') && req.headers.upgrade !== undefined;
    if (!stateChanging && !socket) return;
    if (headerToken(req) || !isCrossSite(req)) return;
    req.log.warn(
      { origin: req.headers.origin, site: req.headers['sec-fetch-site'] },
      'cross-site request refused',
    );
    return reply.status(403).send({
      code: SESSION_CODE.CROSS_SITE,
      message: messageFor(SESSION_CODE.CROSS_SITE),
      data: null,
    });
  });

  app.addHook('preSerialization', async (req, reply, payload) => {
    if (!req.routeOptions.config.issuesSession) return payload;
    const body = payload as { code?: number; data?: { token?: unknown; expires_in?: unknown } | null };
    const token = body?.code === 0 ? body.data?.token : undefined;
    if (typeof token === 'string' && token) {
      const ttl = body.data?.expires_in;
      setSessionCookie(req, reply, token, typeof ttl === 'number' ? ttl : TOKEN_TTL_SECONDS);
    }
    return payload;
  });

  app.addHook('onSend', async (req, reply, payload) => {
    for (const [name, value] of Object.entries(HEADERS)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    if (hsts && req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    return payload;
  });
});
