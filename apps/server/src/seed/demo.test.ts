import { isValidUscc } from '@kaipiao/shared';
import { expect, it } from 'vitest';
import { DEMO } from './demo.ts';

// The demo sellers' codes reach buyers (scan-to-invoice title lookup) and the invoice forms, which
// check the 统一社会信用代码 check character: placeholder codes would be refused by our own forms.
it('seeds the demo businesses with tax codes that pass the USCC checksum', () => {
  expect(isValidUscc(DEMO.software.taxCode)).toBe(true);
  expect(isValidUscc(DEMO.hotel.taxCode)).toBe(true);
});
