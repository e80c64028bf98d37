import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SandboxTaxChannel } from './sandbox.ts';
import type { TaxChannel } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** the tax channel adapter (architecture.md §1); the sandbox until a real one is configured */
    taxChannel: TaxChannel;
  }
}

/** Decorates the app with its tax channel. */
export const channelPlugin = fp(async (app: FastifyInstance) => {
  if (!app.hasDecorator('taxChannel')) app.decorate('taxChannel', new SandboxTaxChannel(app.db));
});
