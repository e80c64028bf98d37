export { type DialogComponent, type DialogControl, DialogHost, type DialogRegistry } from './dialog-host.tsx';
export * from './dialog-store.ts';
