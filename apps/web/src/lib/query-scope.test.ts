import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { type Business, useSessionStore } from '../stores/session-store.ts';
import { partitionByScope, scopedKey } from './query-scope.ts';

const general: Business = {
  client_id: 11,
  name: '杭州软件有限公司',
  tax_code: '91330100MA2XXXXX1A',
  org_id: 1,
  industry: 'general',
};
const hotel: Business = { ...general, client_id: 12, name: '西湖酒店', industry: 'hotel' };

describe('business-scoped query keys (issue 19 item 3)', () => {
  afterEach(() => useSessionStore.getState().reset());

  it('puts the selected business and store in front of every key', () => {
    useSessionStore.getState().select(general, { client_store_id: 3, name: '文三路总部' });
    expect(scopedKey('invoice-issue', 'tax-rate', '304')).toEqual([
      'scope',
      11,
      3,
      'invoice-issue',
      'tax-rate',
      '304',
    ]);
    useSessionStore.getState().select(hotel, { client_store_id: -1, name: '全部门店' });
    expect(scopedKey('invoice-issue', 'tax-rate', '304')).toEqual([
      'scope',
      12,
      -1,
      'invoice-issue',
      'tax-rate',
      '304',
    ]);
  });

  it('drops every answer of the previous business or store on switching, and keeps the user’s own', () => {
    const client = new QueryClient();
    const stop = partitionByScope(client);
    try {
      useSessionStore.getState().select(general, { client_store_id: 3, name: '文三路总部' });
      client.setQueryData(scopedKey('invoice-issue', 'tax-rate', '304'), { rate: '0.06' });
      client.setQueryData(['user-info'], { nickname: '张三' });
      // the same business again keeps the cache
      useSessionStore.getState().select(general, { client_store_id: 3, name: '文三路总部' });
      expect(client.getQueryData(scopedKey('invoice-issue', 'tax-rate', '304'))).toEqual({ rate: '0.06' });

      useSessionStore.getState().select(hotel, { client_store_id: 3, name: '文三路总部' });
      expect(client.getQueryCache().findAll({ queryKey: ['scope'] })).toHaveLength(0);
      expect(client.getQueryData(['user-info'])).toEqual({ nickname: '张三' });

      // another store of the same business is another scope too
      client.setQueryData(scopedKey('devices'), [1]);
      useSessionStore.getState().select(hotel, { client_store_id: 4, name: '上海分部' });
      expect(client.getQueryCache().findAll({ queryKey: ['scope'] })).toHaveLength(0);
    } finally {
      stop();
    }
  });
});

describe('the console’s query client (lib/query-client.ts)', () => {
  afterEach(() => useSessionStore.getState().reset());

  it('is partitioned: switching business drops the previous business’s answers', async () => {
    const { queryClient } = await import('./query-client.ts');
    useSessionStore.getState().select(general, { client_store_id: 3, name: '文三路总部' });
    queryClient.setQueryData(scopedKey('devices'), [1]);
    useSessionStore.getState().select(hotel, { client_store_id: 4, name: '北山街店' });
    expect(queryClient.getQueryCache().findAll({ queryKey: ['scope'] })).toHaveLength(0);
  });
});
