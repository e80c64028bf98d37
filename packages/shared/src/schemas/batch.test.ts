import { describe, expect, it } from 'vitest';
import { batchListQuerySchema, batchRowsQuerySchema, batchUploadQuerySchema } from './batch.ts';

describe('batch query schemas', () => {
  it.each([
    ['batchListQuerySchema', batchListQuerySchema, {}],
    ['batchRowsQuerySchema', batchRowsQuerySchema, { batch_id: '7' }],
  ] as const)('%s: page sizes 10, 20 or 30 (spec §9), default 10', (_name, schema, base) => {
    for (const size of ['10', '20', '30']) {
      expect(schema.parse({ ...base, page_size: size }).page_size).toBe(Number(size));
    }
    expect(schema.parse({ ...base }).page_size).toBe(10);
    for (const size of ['15', '0', '40']) {
      const r = schema.safeParse({ ...base, page_size: size });
      expect(r.error?.issues[0]?.message).toBe('每页条数须为10、20或30');
    }
  });

  it('upload: send_email is on for 1 or true, off for 0, false or nothing', () => {
    const parse = (send_email?: string) =>
      batchUploadQuerySchema.parse({ device_id: '3', invoice_type: '82', send_email }).send_email;
    expect([parse('1'), parse('true'), parse('0'), parse('false'), parse()]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(
      batchUploadQuerySchema.safeParse({ device_id: '3', invoice_type: '82', send_email: 'yes' }).success,
    ).toBe(false);
  });
});
