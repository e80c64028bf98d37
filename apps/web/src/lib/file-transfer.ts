import { TIMEOUTS } from '@kaipiao/shared/constants/menu';
import { CODE } from '@kaipiao/shared/errors/codes';
import { MSG } from '@kaipiao/shared/validation/messages';
import { useSessionStore } from '../stores/session-store.ts';
import { ApiError } from './api-error.ts';
import { buildUrl, type Params } from './build-url.ts';

// File calls the JSON client does not cover: .xlsx downloads and multipart uploads. Same session
// (the server's HttpOnly cookie) and scope (spec §7); an envelope with a non-zero code becomes an ApiError the caller shows. (The page
// that offers the file has just passed the same session and menu checks with a JSON call.)

function scopedUrl(path: string, params: Params = {}) {
  const { business, store } = useSessionStore.getState();
  return buildUrl(path, { client_id: business?.client_id, sid: store?.client_store_id, ...params });
}

async function send(url: string, init: RequestInit, timeout: number): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } catch (cause) {
    if (controller.signal.aborted) throw new ApiError('timeout', MSG.TIMEOUT, { cause });
    throw new ApiError('network', MSG.NETWORK_ERROR, { cause });
  } finally {
    clearTimeout(timer);
  }
}

async function envelopeError(res: Response): Promise<ApiError> {
  const env = (await res.json().catch(() => null)) as {
    code?: number;
    message?: string;
    data?: unknown;
  } | null;
  if (!env || typeof env.code !== 'number') {
    return new ApiError('http', `[${res.status}] ${MSG.HTTP_ERROR_SUFFIX}`, { status: res.status });
  }
  return new ApiError('code', env.message ?? '', { code: env.code, data: env.data });
}

function filenameOf(res: Response, fallback: string): string {
  const cd = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd)?.[1];
  if (star) return decodeURIComponent(star);
  return /filename="([^"]+)"/i.exec(cd)?.[1] ?? fallback;
}

/** Downloads a file (GET) and hands it to the browser; throws ApiError on an error envelope. */
export async function downloadFile(path: string, params: Params, fallbackName: string): Promise<void> {
  const res = await send(scopedUrl(path, params), {}, TIMEOUTS.long);
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || type.includes('application/json')) throw await envelopeError(res);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filenameOf(res, fallbackName);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** POSTs one file as multipart/form-data (field "file"); resolves the envelope's data. */
export async function uploadFile<T>(path: string, file: File | Blob, filename?: string): Promise<T> {
  const form = new FormData();
  form.append('file', file, filename ?? (file instanceof File ? file.name : 'upload.xlsx'));
  const res = await send(scopedUrl(path), { method: 'POST', body: form }, TIMEOUTS.long);
  if (!res.ok) throw await envelopeError(res);
  const env = (await res.json().catch(() => null)) as {
    code?: number;
    message?: string;
    data?: unknown;
  } | null;
  if (!env || typeof env.code !== 'number') {
    throw new ApiError('http', `[${res.status}] ${MSG.HTTP_ERROR_SUFFIX}`, { status: res.status });
  }
  if (env.code !== CODE.OK) throw new ApiError('code', env.message ?? '', { code: env.code, data: env.data });
  return env.data as T;
}
