import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TaxChannel } from './port.ts';
import { SandboxTaxChannel } from './sandbox.ts';

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
