// Money, tax math, capitals, checksums and the invoice QR text (domain.md §1.2, §2, §5).
// decimal.js only: never float arithmetic on amounts.
export * from './capital.ts';
export * from './check.ts';
export * from './compute.ts';
export { Dec, type DecimalInput, dec, fixed, isDecimal, trimmed } from './decimal.ts';
export * from './ids.ts';
export * from './messages.ts';
export * from './qr.ts';
export * from './rates.ts';
