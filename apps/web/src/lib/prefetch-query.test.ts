import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Business, useSessionStore } from '../stores/session-store.ts';
import { EARLY_REQUEST_TTL_MS, prefetchQueries, prefetchRequest, takeRequest } from './prefetch-query.ts';
import { queryClient } from './query-client.ts';

const SOFTWARE: Business = {
  client_id: 1,
  name: '杭州云栈软件科技有限公司',
  tax_code: '91330106MA2KC7LM1A',
  org_id: 1,
  industry: 'general',
};
const select = (sid: number) =>
  useSessionStore.getState().select(SOFTWARE, { client_store_id: sid, name: `门店${sid}` });

// issue 24 item 6: a list a page asks for on mount can be started ahead (route loader, menu hover)
// and is handed over to the page once, for the same body in the same business and store.
describe('requests started ahead of their page', () => {
  beforeEach(() => select(1));
  afterEach(() => {
    takeRequest('list', null, async () => null); // drops whatever a test left
    useSessionStore.getState().reset();
    queryClient.clear();
    vi.useRealTimers();
  });

  it('hands the early answer to the page that asks the same', async () => {
    const early = vi.fn(async () => 'early');
    const late = vi.fn(async () => 'late');
    prefetchRequest('list', { page: 1 }, early);
    await expect(takeRequest('list', { page: 1 }, late)).resolves.toBe('early');
    expect(early).toHaveBeenCalledTimes(1);
    expect(late).not.toHaveBeenCalled();
    // once only: the next mount asks again
    await expect(takeRequest('list', { page: 1 }, late)).resolves.toBe('late');
  });

  it('starts one request when the hover and then the route loader ask for it', async () => {
    const early = vi.fn(async () => 'early');
    prefetchRequest('list', { page: 1 }, early);
    prefetchRequest('list', { page: 1 }, early);
    expect(early).toHaveBeenCalledTimes(1);
    await expect(takeRequest('list', { page: 1 }, async () => 'late')).resolves.toBe('early');
  });

  it('asks anew for another body, another store, a stale or a failed early request', async () => {
    const late = async () => 'late';
    prefetchRequest('list', { page: 1 }, async () => 'early');
    await expect(takeRequest('list', { page: 2 }, late)).resolves.toBe('late');

    prefetchRequest('list', { page: 1 }, async () => 'early');
    select(2);
    await expect(takeRequest('list', { page: 1 }, late)).resolves.toBe('late');

    vi.useFakeTimers();
    prefetchRequest('list', { page: 1 }, async () => 'early');
    vi.advanceTimersByTime(EARLY_REQUEST_TTL_MS + 1);
    await expect(takeRequest('list', { page: 1 }, late)).resolves.toBe('late');
    vi.useRealTimers();

    prefetchRequest('list', { page: 1 }, async () => {
      throw new Error('offline');
    });
    await expect(takeRequest('list', { page: 1 }, late)).resolves.toBe('late');
  });

  it('starts nothing without a selected business', () => {
    useSessionStore.getState().reset();
    const early = vi.fn(async () => 'early');
    prefetchRequest('list', { page: 1 }, early);
    const start = vi.fn();
    prefetchQueries(start);
    expect(early).not.toHaveBeenCalled();
    expect(start).not.toHaveBeenCalled();
  });

  it("gives a page's query prefetch the selected business and store and the console's client", () => {
    const start = vi.fn();
    prefetchQueries(start);
    expect(start).toHaveBeenCalledWith({ clientId: 1, sid: 1 }, queryClient);
  });
});
