import { describe, expect, it } from 'vitest';
import { grantStoresBodySchema, handOverBodySchema } from './trusteeship.ts';

describe('trusteeship bodies (domain.md §8.4)', () => {
  it('keeps each store once, in the order first given', () => {
    expect(
      handOverBodySchema.parse({ device_id: 1, store_ids: [3, 1, 3, 2, 1], agree: true }).store_ids,
    ).toEqual([3, 1, 2]);
    expect(grantStoresBodySchema.parse({ device_id: 1, store_ids: [] }).store_ids).toEqual([]);
  });
});
