import { TIMEOUTS } from '@kaipiao/shared/constants/menu';
import { CODE } from '@kaipiao/shared/errors/codes';
import { MSG } from '@kaipiao/shared/validation/messages';
import { ApiError } from './api-error.ts';
import { buildUrl, type Params } from './build-url.ts';

// One HTTP client for every call (spec §7, §8). Navigation, dialogs and sign-out are injected so
// the outcome mapping is unit-tested without a browser or a router.

// The session travels as the server's HttpOnly cookie, which fetch sends to our own origin by
// itself; this client never sees the token (the access-token header is for other API clients).
export type ApiDeps = {
  /** selected business and store, added to every call (spec §7) */
  getScope: () => { client_id?: number; sid?: number };
  navigate: (to: string) => void;
  /** error dialog with a single OK button (Modal.error) */
  alert: (title: string, content: string, onOk?: () => void) => void;
  /** transient error message (message.error) */
  toast: (content: string) => void;
  /** local sign-out after 401: token, user, business and login source cleared */
  signOut: () => void;
  /** current path + search, kept as the login redirect after 401 */
  currentPath: () => string;
  fetch?: typeof fetch;
};

export type RequestOptions = {
  params?: Params;
  body?: unknown;
  /** ms; 15 s by default (spec §9) */
  timeout?: number;
  /** false: no dialog/message for failures other than 401/403/10688 */
  showError?: boolean;
  signal?: AbortSignal;
  /** receives the envelope's message of a successful call (e.g. "already logged in", spec §4) */
  onMessage?: (message: string) => void;
};

export type ApiClient = {
  request: <T>(method: 'GET' | 'POST', path: string, options?: RequestOptions) => Promise<T>;
  get: <T>(path: string, options?: RequestOptions) => Promise<T>;
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => Promise<T>;
};

type Envelope = { code: number; message?: string; data?: unknown };

export function createApiClient(getDeps: () => ApiDeps): ApiClient {
  let signingOut = false;

  function handleUnauthorized(deps: ApiDeps, message: string) {
    if (signingOut) return;
    signingOut = true;
    const redirect = deps.currentPath();
    deps.signOut();
    deps.alert(MSG.ERROR_DIALOG_TITLE, message, () => {
      signingOut = false;
      const query = redirect.startsWith('/user/login') ? '' : `?redirect=${encodeURIComponent(redirect)}`;
      deps.navigate(`/user/login${query}`);
    });
  }

  function handleCode(deps: ApiDeps, env: Envelope, showError: boolean): never {
    const message = env.message ?? '';
    const error = new ApiError('code', message, { code: env.code, data: env.data });
    if (env.code === CODE.UNAUTHORIZED) handleUnauthorized(deps, message);
    else if (env.code === CODE.FORBIDDEN) deps.navigate('/403');
    else if (env.code === CODE.SWITCH_STORE) {
      const go = () => deps.navigate('/user/switch-store');
      if (message) deps.alert(MSG.ERROR_DIALOG_TITLE, message, go);
      else go();
    } else if (showError) deps.alert(MSG.ERROR_DIALOG_TITLE, message || MSG.HTTP_ERROR_SUFFIX);
    throw error;
  }

  async function send(method: 'GET' | 'POST', path: string, options: RequestOptions): Promise<Response> {
    const deps = getDeps();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeout ?? TIMEOUTS.default);
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort);
    const headers: Record<string, string> = {};
    if (method === 'POST') headers['content-type'] = 'application/json';
    try {
      const url = buildUrl(path, { ...deps.getScope(), ...options.params });
      return await (deps.fetch ?? fetch)(url, {
        method,
        headers,
        body: method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
        signal: controller.signal,
      });
    } catch (cause) {
      if (timedOut) throw new ApiError('timeout', MSG.TIMEOUT, { cause });
      if (options.signal?.aborted) throw new ApiError('aborted', 'aborted', { cause });
      throw new ApiError('network', MSG.NETWORK_ERROR, { cause });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  async function request<T>(method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<T> {
    const showError = options.showError ?? true;
    let env: Envelope;
    try {
      const res = await send(method, path, options);
      const httpError = new ApiError('http', `[${res.status}] ${MSG.HTTP_ERROR_SUFFIX}`, {
        status: res.status,
      });
      if (!res.ok) throw httpError;
      env = await res.json().catch(() => {
        throw httpError;
      });
      if (typeof env?.code !== 'number') throw httpError;
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError('network', MSG.NETWORK_ERROR);
      if (showError && apiError.kind !== 'aborted') getDeps().toast(apiError.message);
      throw apiError;
    }
    if (env.code !== CODE.OK) handleCode(getDeps(), env, showError);
    options.onMessage?.(env.message ?? '');
    return env.data as T;
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
  };
}
