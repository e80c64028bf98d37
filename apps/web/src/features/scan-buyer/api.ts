import type {
  PublicCode,
  PublicRequest,
  PublicSubmitBody,
  ScanRequestStatus,
  TitleSuggestion,
} from '@kaipiao/shared/schemas/scan';
import { type ApiDeps, createApiClient } from '../../lib/api-client.ts';

// The buyer's page talks to the public calls only: no token, no business scope, and its own
// feedback (antd-mobile toasts) instead of the console's dialogs and sign-in redirects.
let toast: (content: string) => void = () => undefined;
export const setBuyerToast = (fn: (content: string) => void) => {
  toast = fn;
};

const deps: ApiDeps = {
  getScope: () => ({}),
  navigate: () => undefined,
  alert: (_title, content) => toast(content),
  toast: (content) => toast(content),
  signOut: () => undefined,
  currentPath: () => window.location.pathname,
};
const api = createApiClient(() => deps);

export const getCode = (token: string) =>
  api.get<PublicCode>('/v3/scan/code', { params: { token }, showError: false });
export const searchTitles = (token: string, keyword: string) =>
  api.get<TitleSuggestion[]>('/v3/scan/title-search', { params: { token, keyword }, showError: false });
export const submit = (body: PublicSubmitBody) =>
  api.post<{ request_token: string; status: ScanRequestStatus }>('/v3/scan/submit', body, {
    showError: false,
    timeout: 33_000,
  });
export const getRequest = (token: string) =>
  api.get<PublicRequest>('/v3/scan/request', { params: { token }, showError: false });
export const downloadHref = (token: string) => `/v3/scan/download?token=${encodeURIComponent(token)}`;

/** The request made from this phone for a code, so that scanning again shows its status. */
const key = (codeToken: string) => `kp_scan_req_${codeToken}`;
export const rememberRequest = (codeToken: string, requestToken: string) => {
  try {
    localStorage.setItem(key(codeToken), requestToken);
  } catch {
    // private mode: the URL still carries it
  }
};
export const rememberedRequest = (codeToken: string) => {
  try {
    return localStorage.getItem(key(codeToken));
  } catch {
    return null;
  }
};
export const forgetRequest = (codeToken: string) => {
  try {
    localStorage.removeItem(key(codeToken));
  } catch {
    // nothing to do
  }
};
