import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpTaxChannel } from './http.ts';
import type { TaxChannel } from './port.ts';
import { SandboxTaxChannel } from './sandbox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** the tax channel adapter (architecture.md §1); the sandbox until a real one is configured */
    taxChannel: TaxChannel;
  }
}

/** Decorates the app with its tax channel: a bureau over HTTP when KAIPIAO_TAX_CHANNEL_URL is set, else the sandbox. */
export const channelPlugin = fp(async (app: FastifyInstance) => {
  if (app.hasDecorator('taxChannel')) return;
  const url = app.env.KAIPIAO_TAX_CHANNEL_URL;
  const channel: TaxChannel = url
    ? new HttpTaxChannel(url, { timeoutMs: app.env.KAIPIAO_TAX_CHANNEL_TIMEOUT_MS })
    : new SandboxTaxChannel(app.db);
  app.decorate('taxChannel', channel);
});
