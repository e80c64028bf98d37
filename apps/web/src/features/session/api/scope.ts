import type { ClientItem, StoreItem } from '@kaipiao/shared';
import { api } from '../../../lib/api.ts';

// Business and store calls for store switching (spec §7 login and user). They run while the
// selection is being changed, so the (possibly stale) selected client_id/sid is not sent.
export type OrgItem = { org_id: number; name: string; is_current: boolean };

const NO_SCOPE = { client_id: undefined, sid: undefined };

export const listOrgs = () => api.post<OrgItem[]>('/v3/user/org-list', {}, { params: NO_SCOPE });

export const setCurrentOrg = (org_id: number) =>
  api.post<null>('/v3/user/set-org-id', { org_id }, { params: NO_SCOPE });

export const listClients = (keyword?: string) =>
  api.post<ClientItem[]>('/v3/user/client-list', keyword ? { keyword } : {}, { params: NO_SCOPE });

export const listStores = (client_id: number) =>
  api.get<StoreItem[]>('/v3/user/store-list', { params: { ...NO_SCOPE, client_id } });

/** The permitted business whose tax code is exactly `taxCode`, if any. */
export async function findClientByTaxCode(taxCode: string): Promise<ClientItem | undefined> {
  const code = taxCode.trim();
  const clients = await listClients(code);
  return clients.find((c) => c.tax_code === code);
}
