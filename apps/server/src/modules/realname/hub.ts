import type { WebSocket } from '@fastify/websocket';
import { AUTH_STATUS, type DeviceAuthMessage } from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';

export const REALNAME_CHANNEL = 'kp_realname';
const RECONNECT_MS = 2_000;

/** What every process hears when a device's real-name state changes (NOTIFY payload, < 8000 bytes). */
export type RealNameNote = DeviceAuthMessage & { client_id: number; expires_at: string | null };

/**
 * The device-authorisation sockets of this process by business, fed by a dedicated pg client that
 * LISTENs on `kp_realname` (architecture.md §1: cross-process push through LISTEN/NOTIFY). Whichever
 * process changes a state NOTIFYs; every process, itself included, delivers to its own sockets.
 */
export class DeviceAuthHub {
  private readonly sockets = new Map<number, Set<WebSocket>>();
  /** a status-1 message's QR lapses: tell the sockets (3) unless a newer message came first */
  private readonly expiry = new Map<string, NodeJS.Timeout>();
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closing = false;

  constructor(private readonly app: FastifyInstance) {}

  async start(): Promise<void> {
    const c = new pg.Client(this.app.pool.options);
    c.on('notification', (msg) => {
      if (msg.channel !== REALNAME_CHANNEL || !msg.payload) return;
      try {
        this.deliver(JSON.parse(msg.payload) as RealNameNote);
      } catch (err) {
        this.app.log.warn({ err }, 'bad real-name payload');
      }
    });
    c.on('error', (err) => {
      if (this.closing) return;
      this.app.log.warn({ err }, 'real-name listener lost; reconnecting');
      this.client = null;
      c.end().catch(() => undefined);
      this.retryLater();
    });
    await c.connect();
    await c.query(`LISTEN ${REALNAME_CHANNEL}`);
    this.client = c;
  }

  private retryLater() {
    if (this.closing) return;
    this.timer = setTimeout(() => {
      this.start().catch((err) => {
        this.app.log.warn({ err }, 'real-name listener reconnect failed');
        this.retryLater();
      });
    }, RECONNECT_MS);
  }

  async stop(): Promise<void> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    for (const t of this.expiry.values()) clearTimeout(t);
    for (const set of this.sockets.values()) for (const ws of set) ws.close(1001);
    await this.client?.end().catch(() => undefined);
  }

  async publish(note: RealNameNote): Promise<void> {
    await this.app.pool.query('select pg_notify($1, $2)', [REALNAME_CHANNEL, JSON.stringify(note)]);
  }

  add(clientId: number, ws: WebSocket): void {
    const set = this.sockets.get(clientId) ?? new Set<WebSocket>();
    this.sockets.set(clientId, set);
    set.add(ws);
    ws.on('close', () => {
      set.delete(ws);
      if (set.size === 0 && this.sockets.get(clientId) === set) this.sockets.delete(clientId);
    });
  }

  /**
   * Closes this process's sockets (of one business, or all) as a server restart would (1012): the
   * sandbox control that lets a test watch the browser reconnect. Returns how many were closed.
   */
  drop(clientId?: number): number {
    const ids = clientId === undefined ? [...this.sockets.keys()] : [clientId];
    let n = 0;
    for (const id of ids) {
      // forgotten at once: a socket's 'close' waits for the browser's side of the handshake
      for (const ws of this.sockets.get(id) ?? []) {
        ws.close(1012, 'restart');
        n++;
      }
      this.sockets.delete(id);
    }
    return n;
  }

  /** sockets of this process for a business (tests) */
  count(clientId: number): number {
    return this.sockets.get(clientId)?.size ?? 0;
  }

  private deliver(note: RealNameNote): void {
    const key = `${note.client_id}:${note.device_id}`;
    const pending = this.expiry.get(key);
    if (pending) clearTimeout(pending);
    this.expiry.delete(key);
    this.send(note.client_id, note);
    if (note.auth_status === AUTH_STATUS.valid && note.expires_at) {
      const ms = Math.max(0, new Date(note.expires_at).getTime() - Date.now()) + 50;
      const t = setTimeout(() => {
        this.expiry.delete(key);
        this.send(note.client_id, { ...note, auth_status: AUTH_STATUS.expired, qr_code: '' });
      }, ms);
      t.unref();
      this.expiry.set(key, t);
    }
  }

  private send(clientId: number, note: RealNameNote): void {
    const message: DeviceAuthMessage = {
      type: 'auth',
      device_id: note.device_id,
      qr_code: note.qr_code,
      auth_type: note.auth_type,
      auth_status: note.auth_status,
    };
    const text = JSON.stringify(message);
    for (const ws of this.sockets.get(clientId) ?? []) {
      if (ws.readyState === ws.OPEN) ws.send(text);
    }
  }
}
