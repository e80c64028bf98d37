import { CODE, type TaxEquipment } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import { apiError, apiHandler, apiOk, reply } from './api.ts';
import { apiCalls, resetServer, server } from './msw.ts';

// The test API layer must refuse what the server would not say or accept: otherwise a component
// test passes against a server that does not exist.

const DEVICE: TaxEquipment = {
  device_id: 11,
  name: '数电账户',
  kind: 'digital',
  kind_name: '数电账户',
  channel: 'GP900000',
  device_no: 'hz',
  extension_no: 0,
  is_main: true,
  online: true,
  locked: false,
  invoice_types: [{ code: '82', name: '电子发票（普通发票）' }],
  per_invoice_limit: '100000.00',
  monthly_quota: null,
  quota_used: '0.00',
  stock: {},
};

const post = (path: string, body: unknown) =>
  fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('test API handlers', () => {
  it('answer with the envelope and log the request', async () => {
    server.use(apiOk('GET', '/v3/client-store/get-tax-equipment', [DEVICE]));
    const res = await fetch('/v3/client-store/get-tax-equipment?store_id=1&client_id=5');
    expect(await res.json()).toEqual({ code: 0, message: 'ok', data: [DEVICE] });
    expect(apiCalls()).toMatchObject([
      { method: 'GET', path: '/v3/client-store/get-tax-equipment', query: { store_id: '1', client_id: '5' } },
    ]);
  });

  it('refuse a fixture missing a field or with a field the contract does not have', () => {
    const { stock: _, ...missing } = DEVICE;
    expect(() =>
      apiOk('GET', '/v3/client-store/get-tax-equipment', [missing as unknown as TaxEquipment]),
    ).toThrow(/does not match the contract[\s\S]*stock/);
    expect(() =>
      apiOk('GET', '/v3/client-store/get-tax-equipment', [{ ...DEVICE, colour: 'red' } as TaxEquipment]),
    ).toThrow(/fields the contract does not have: \[0\]\.colour/);
  });

  it('refuse an error code the server does not have, and data a code does not carry', () => {
    expect(() => apiError('POST', '/v3/online-invoicing/blue', 99999)).toThrow(/not an error code/);
    expect(() => apiError('POST', '/v3/online-invoicing/blue', CODE.NOT_FOUND, { data: { id: 1 } })).toThrow(
      /carries no data/,
    );
    expect(() =>
      apiError('POST', '/v3/online-invoicing/blue', CODE.VALIDATION, { data: { errors: [{ field: 'x' }] } }),
    ).toThrow(/does not match the contract/);
  });

  it('answer a body the server refuses with 10001, and fail the test', async () => {
    server.use(apiOk('POST', '/v3/home/small-scale-notice', null));
    const res = await post('/v3/home/small-scale-notice', { action: 'sometimes' });
    expect(await res.json()).toMatchObject({
      code: CODE.VALIDATION,
      data: { errors: [{ field: 'action' }] },
    });
    expect(() => resetServer()).toThrow(/small-scale-notice was sent a body the server refuses/);
  });

  it('fail the test when a request has no handler', async () => {
    await expect(fetch('/v3/equipment/check-tax')).rejects.toThrow();
    expect(apiCalls()).toMatchObject([{ path: '/v3/equipment/check-tax', handled: false }]);
    expect(() => resetServer()).toThrow(/no handler for GET \/v3\/equipment\/check-tax/);
  });

  it('fail the test when a per-request answer drifts from the contract', async () => {
    server.use(
      apiHandler('GET', '/v3/equipment/check-tax', () => reply.ok({ check_auth: 2 as 1, devices: [] })),
    );
    const res = await fetch('/v3/equipment/check-tax');
    expect(res.status).toBe(500);
    expect(() => resetServer()).toThrow(
      /the data of GET \/v3\/equipment\/check-tax does not match the contract/,
    );
  });
});
