import { describe, expect, it } from 'vitest';
import { INVOICE_STATUS } from './invoice.ts';
import { LIBRARY_STATUS, libraryStatusOf } from './query.ts';

describe('libraryStatusOf: the tag of an invoice row (domain.md §9 item 7)', () => {
  it.each([
    ['issued', '', 'normal'],
    ['issued', 'none', 'normal'],
    ['issued', 'partial', 'partial_red'],
    ['issued', 'full', 'full_red'],
    ['issuing', '', 'issuing'],
    ['failed', '', 'failed'],
    ['unknown', '', 'unknown'],
    ['voided', '', 'voided'],
    // red status only matters for issued invoices
    ['voided', 'full', 'voided'],
    ['failed', 'partial', 'failed'],
    // anything else is shown as 待确认
    ['', '', 'unknown'],
    ['archived', 'full', 'unknown'],
  ])('%s / %s → %s', (status, red, tag) => {
    expect(libraryStatusOf(status, red)).toBe(tag);
  });

  it('every stored status and red status gives a tag the filter knows', () => {
    for (const status of Object.keys(INVOICE_STATUS)) {
      for (const red of ['', 'partial', 'full']) {
        expect(Object.keys(LIBRARY_STATUS)).toContain(libraryStatusOf(status, red));
      }
    }
  });
});
