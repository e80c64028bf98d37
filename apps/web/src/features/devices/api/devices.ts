import type {
  DeviceDetail,
  DeviceItem,
  FilingItem,
  HealthRow,
  MoveStockBody,
  StockMovement,
  StoreBody,
  StoreItem,
  TaxAccountBody,
  TaxAccountItem,
} from '@kaipiao/shared/schemas/devices';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { prefetchQueries } from '../../../lib/prefetch-query.ts';
import { scopedKey } from '../../../lib/query-scope.ts';

// Stores, devices, 电子税务局 accounts, invoice stock and monthly filing (issue 5).
export const devicesQuery = (clientId: number | undefined) =>
  queryOptions({
    queryKey: scopedKey('devices', clientId),
    queryFn: () => api.get<DeviceItem[]>('/v3/client/client-equ-list'),
  });
export const deviceDetailQuery = (clientId: number | undefined, id: number | null) =>
  queryOptions({
    queryKey: scopedKey('devices', clientId, 'detail', id),
    queryFn: () => api.get<DeviceDetail>('/v3/equipment/detail', { params: { id: id! } }),
    enabled: id !== null,
  });
export const healthQuery = (clientId: number | undefined) =>
  queryOptions({
    queryKey: scopedKey('devices', clientId, 'health'),
    queryFn: () => api.get<HealthRow[]>('/v3/equipment/session-health'),
    refetchInterval: 30_000,
  });
export const whiteListQuery = (clientId: number | undefined) =>
  queryOptions({
    queryKey: scopedKey('devices', clientId, 'white-list'),
    queryFn: () =>
      api.get<{
        white_listed: boolean;
        accounts: Array<{ id: number; account: string; person_name: string }>;
      }>('/v3/tax-account/white-list-tax-account'),
  });
export const accountsQuery = (clientId: number | undefined, enabled: boolean) =>
  queryOptions({
    queryKey: scopedKey('devices', clientId, 'accounts'),
    queryFn: () => api.get<TaxAccountItem[]>('/v3/tax-account/list'),
    enabled,
  });
export const storesQuery = (clientId: number | undefined) =>
  queryOptions({
    queryKey: scopedKey('devices', clientId, 'stores'),
    queryFn: () => api.get<StoreItem[]>('/v3/client/get-all-store-list'),
  });
export const movementsQuery = (clientId: number | undefined) =>
  queryOptions({
    queryKey: scopedKey('devices', clientId, 'movements'),
    queryFn: () => api.get<StockMovement[]>('/v3/invoice-manage/movements'),
  });
export const filingsQuery = (clientId: number | undefined) =>
  queryOptions({
    queryKey: scopedKey('devices', clientId, 'filings'),
    queryFn: () => api.get<FilingItem[]>('/v3/report-summary/list'),
  });

export const saveStore = (body: StoreBody) => api.post<{ id: number }>('/v3/client-store/save', body);
export const setStoreStatus = (client_store_id: number, status: 'active' | 'disabled') =>
  api.post<{ id: number }>('/v3/client-store/set-status', { client_store_id, status });
export const saveAccount = (body: TaxAccountBody) => api.post<{ id: number }>('/v3/tax-account/save', body);
export const disableAccount = (id: number) => api.post<{ id: number }>('/v3/tax-account/disable', { id });
export const applyStock = (body: { device_id: number; invoice_type: string; count: number }) =>
  api.post<{ invoiceCode: string; startNo: number; endNo: number }>('/v3/invoice-manage/apply', body);
export const moveStock = (kind: 'distribute' | 'return', body: MoveStockBody) =>
  api.post<{ moved: number }>(`/v3/invoice-manage/${kind}`, body);
export const fileDevice = (action: 'copy' | 'clear', device_id: number) =>
  api.post<{ id: number }>(`/v3/report-summary/${action}`, { device_id });

/** /group/client-store's first requests, started with its code (app/prefetch.ts). */
export const prefetchStores = () =>
  prefetchQueries(({ clientId }, client) => {
    void client.prefetchQuery(storesQuery(clientId));
    void client.prefetchQuery(devicesQuery(clientId));
  });

/** /device-project/device's first requests, started with its code (app/prefetch.ts). */
export const prefetchDevices = () =>
  prefetchQueries(({ clientId }, client) => {
    void client.prefetchQuery(devicesQuery(clientId));
    void client.prefetchQuery(healthQuery(clientId));
  });
