import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { textGaps } from './text-coverage.ts';

describe('request strings', () => {
  it('every body, query and params string of every route goes through text()', async () => {
    const { app } = await buildTestApp({ seed: false });
    expect(textGaps(app)).toEqual([]);
  });
});
