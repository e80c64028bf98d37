import {
  AUTH_STATUS,
  DEVICE_AUTH_HEARTBEAT_MS,
  DEVICE_AUTH_RECONNECT_MS,
  type DeviceAuthMessage,
  PROMPT_AUTH_STATUSES,
} from '@kaipiao/shared';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSessionStore } from '../../../stores/session-store.ts';
import { deviceCheckQuery } from '../api/real-name.ts';

export type DeviceAuthPromptState = {
  /** the QR authorisation to show (auth_status 1, 3 or 4), or null */
  prompt: DeviceAuthMessage | null;
  /** the user closed the prompt; the next message shows it again */
  dismiss: () => void;
  /** the socket is open (tests, diagnostics) */
  connected: boolean;
};

/** Where the device-authorisation socket lives: same origin, the session cookie authenticates it. */
export function deviceAuthSocketUrl(clientId: number, sid?: number): string {
  const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const store = sid === undefined ? '' : `&sid=${sid}`;
  return `${proto}//${window.location.host}/ws/device-auth?client_id=${clientId}${store}`;
}

/**
 * spec §4 device-authorisation socket: open while the device check (check-tax) says authorisation is
 * needed, a heartbeat every 20 s, reopened 2 s after a close while still needed; auth_status 1, 3 or 4
 * shows the QR prompt and 2 closes it. A close or a 2 asks the device check again: once nothing needs
 * authorisation the socket stays closed (the check is asked again every 30 s meanwhile).
 */
export function useDeviceAuthSocket(): DeviceAuthPromptState {
  const clientId = useSessionStore((s) => s.business?.client_id);
  const sid = useSessionStore((s) => s.store?.client_store_id);
  const check = useQuery(deviceCheckQuery(clientId));
  const needed = clientId !== undefined && check.data?.check_auth === 1;
  const recheck = useRef(check.refetch);
  recheck.current = check.refetch;
  const [prompt, setPrompt] = useState<DeviceAuthMessage | null>(null);
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    setPrompt(null);
    if (!needed || clientId === undefined) return;
    let stopped = false;
    let ws: WebSocket | null = null;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let reconnect: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      const socket = new WebSocket(deviceAuthSocketUrl(clientId, sid));
      ws = socket;
      socket.onopen = () => {
        setConnected(true);
        heartbeat = setInterval(() => {
          if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'ping' }));
        }, DEVICE_AUTH_HEARTBEAT_MS);
      };
      socket.onmessage = (event) => {
        let msg: DeviceAuthMessage;
        try {
          msg = JSON.parse(String(event.data)) as DeviceAuthMessage;
        } catch {
          return;
        }
        if (msg.type !== 'auth') return;
        if (PROMPT_AUTH_STATUSES.includes(msg.auth_status)) setPrompt(msg);
        else if (msg.auth_status === AUTH_STATUS.done) {
          setPrompt((p) => (p && p.device_id !== msg.device_id ? p : null));
          // authorised: perhaps nothing needs the socket any more
          void recheck.current();
        }
      };
      socket.onclose = () => {
        setConnected(false);
        clearInterval(heartbeat);
        if (stopped) return;
        // "if still needed": the check's answer ends this effect (and the reconnect) when it is not
        void recheck.current();
        reconnect = setTimeout(connect, DEVICE_AUTH_RECONNECT_MS);
      };
    };
    connect();

    return () => {
      stopped = true;
      clearInterval(heartbeat);
      clearTimeout(reconnect);
      ws?.close();
      setConnected(false);
    };
  }, [needed, clientId, sid]);

  const dismiss = useCallback(() => setPrompt(null), []);
  return { prompt, dismiss, connected };
}
