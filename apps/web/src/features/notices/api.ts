import { api } from '../../lib/api.ts';

export type PublicNotice = { id: number; title: string; content: string };

export const getPublicNotice = () =>
  api.get<PublicNotice | null>('/v3/system/public-notice', { showError: false });

export const markNoticeRead = (id: number) =>
  api.post<null>('/v3/system/read-notice', { id }, { showError: false });
