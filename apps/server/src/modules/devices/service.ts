import type { FastifyInstance } from 'fastify';
import type { Scope } from '../../lib/scope.ts';
import { listDevices, loadDevice } from './common.ts';
import { filesMonthly } from './filing.ts';
import { applyAppFilingLocks } from './filing-locks.ts';
import { listFilings } from './filings.ts';
import * as repo from './repo.ts';
import { listMovements } from './stock.ts';

/**
 * Devices (spec §7 Projects/Equipment): one device with its ranges, branches, movements and filing,
 * the devices grouped by channel, and the device check.
 */

type App = FastifyInstance;

export async function deviceDetail(app: App, scope: Scope, id: number) {
  await applyAppFilingLocks(app, new Date(), scope.clientId);
  const d = await loadDevice(app.db, scope, id);
  const ranges = await repo.selectOpenRanges(app.db, scope.clientId, id);
  const branches = await repo.selectBranches(app.db, scope.clientId, id);
  const movements = await listMovements(app, scope, id);
  const filings = filesMonthly(d.kind) ? await listFilings(app, scope, id) : [];
  return {
    ...d,
    ranges: ranges.map((r) => ({ ...r, left: r.end_no - r.next_no + 1 })),
    branches: branches.map((b) => ({ device_id: b.id, name: b.name, extension_no: b.extension_no })),
    movements,
    filing: filings[0] ?? null,
  };
}

export async function groupByChannel(app: App, scope: Scope) {
  const devices = await listDevices(app, scope);
  const groups = new Map<string, typeof devices>();
  for (const d of devices.filter((x) => x.status === 'active')) {
    const key = d.channel || d.kind;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  return [...groups].map(([channel, list]) => ({
    channel,
    kind_name: list[0]!.kind_name,
    devices: list.map((d) => ({
      device_id: d.device_id,
      name: d.name,
      is_main: d.is_main,
      online: d.online,
    })),
  }));
}

/**
 * spec §7 check-tax, the device check: each device's readiness, and `check_auth` (spec §4: the
 * device-authorisation socket opens while it is 1). Whether a 数电 device needs authorisation is the
 * real-name module's answer (realname_sessions and the bureau's prompts), the state the socket carries.
 */
export async function checkTax(app: App, scope: Scope) {
  const devices = (await listDevices(app, scope)).filter((d) => d.status === 'active');
  const { needs, until } = devices.some((d) => d.kind === 'digital')
    ? await app.realName.service.authNeedsUntil(scope.clientId)
    : { needs: new Map<number, boolean>(), until: null };
  const items = devices.map((d) => {
    const needAuth = needs.get(d.device_id) === true;
    const message = !d.online
      ? '设备离线'
      : d.locked
        ? '设备已锁死，请完成抄税清卡'
        : needAuth
          ? '税局登录已失效，请重新登录并实名认证'
          : '正常';
    return {
      device_id: d.device_id,
      name: d.name,
      online: d.online,
      locked: d.locked,
      need_auth: needAuth,
      message,
    };
  });
  return {
    check_auth: items.some((x) => x.need_auth) ? (1 as const) : (0 as const),
    devices: items,
    /** when a login or QR lapses (app clock, ms): the answer's end in a cache (routes.ts) */
    until,
  };
}
