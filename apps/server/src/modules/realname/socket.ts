import type { FastifyPluginAsync } from 'fastify';
import type { DeviceAuthHub } from './hub.ts';
import type { RealNameService } from './service.ts';

/**
 * GET /ws/device-auth?client_id= (spec §4 device-authorisation socket). The auth plugin has checked
 * the session (cookie or access-token) and the business before the upgrade. The socket gets the
 * pending prompts at once, then every change; `{"type":"ping"}` (every 20 s) is answered with a pong.
 */
export function deviceAuthSocket(service: RealNameService, hub: DeviceAuthHub): FastifyPluginAsync {
  return async (app) => {
    app.get('/ws/device-auth', { websocket: true, config: { scope: 'store' } }, async (socket, req) => {
      const clientId = req.scope?.clientId;
      if (!clientId) {
        socket.close(4401, 'no business');
        return;
      }
      hub.add(clientId, socket);
      socket.on('message', (raw: Buffer) => {
        let type: unknown;
        try {
          type = (JSON.parse(raw.toString()) as { type?: unknown }).type;
        } catch {
          return;
        }
        if (type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      });
      for (const note of await service.pending(clientId)) {
        socket.send(
          JSON.stringify({
            type: 'auth',
            device_id: note.device_id,
            qr_code: note.qr_code,
            auth_type: note.auth_type,
            auth_status: note.auth_status,
          }),
        );
      }
    });
  };
}
