export * from './batches.ts';
export * from './catalog.ts';
export * from './channel.ts';
export * from './invoicing.ts';
export * from './reporting.ts';
export * from './security.ts';
export * from './tenancy.ts';
export * from './users.ts';
