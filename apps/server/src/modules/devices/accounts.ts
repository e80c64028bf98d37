import { DEVICE_CODE } from '@kaipiao/shared';
import { maskPhone, type TaxAccountBody } from '@kaipiao/shared/schemas/devices';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { Scope } from '../../lib/scope.ts';
import { sealSecret } from '../../lib/secret-box.ts';
import { iso, loadDevice } from './common.ts';
import * as repo from './repo.ts';

/**
 * 电子税务局 accounts (spec §7 Equipment › 账号): the accounts with their live login and real-name
 * state, the white list that opens them, saving and disabling, and the health board.
 */

type App = FastifyInstance;

/** Accounts the employee may reach, phone masked, with their effective login and real-name state. */
export async function accountStates(app: App, scope: Scope) {
  const rows = await repo.selectAccountStates(app.db, scope);
  return rows.map((r) => ({
    ...r,
    phone: maskPhone(r.phone),
    device_name: r.device_name ?? '',
    session_expires_at: iso(r.session_expires_at),
  }));
}

export async function whiteList(app: App, scope: Scope) {
  const accounts = await repo.selectWhiteListed(app.db, scope.clientId);
  return { white_listed: accounts.length > 0, accounts };
}

export async function assertWhiteListed(app: App, scope: Scope) {
  if (!(await whiteList(app, scope)).white_listed) throw new AppError(DEVICE_CODE.NOT_WHITE_LISTED);
}

/**
 * Adds (no id) or edits an account. A device must be one of the business's 数电 devices in the
 * employee's stores; the password is sealed before it is stored; a new account needs a password and
 * a phone; the account name is unique in the business.
 */
export async function saveAccount(app: App, scope: Scope, body: Required<TaxAccountBody>) {
  if (body.device_id !== null) {
    const d = await loadDevice(app.db, scope, body.device_id);
    if (d.kind !== 'digital') throw new AppError(DEVICE_CODE.TYPE_NOT_SUPPORTED);
  }
  const sealed = body.password ? await sealSecret(app.env.dataDir, body.password) : null;
  return app.db.transaction(async (tx) => {
    if (await repo.accountTaken(tx, scope.clientId, body.account, body.id ?? 0)) {
      throw new AppError(DEVICE_CODE.ACCOUNT_TAKEN);
    }
    let id = body.id;
    if (id === undefined) {
      if (!sealed) throw new AppError(DEVICE_CODE.PASSWORD_REQUIRED);
      if (!body.phone) throw new AppError(DEVICE_CODE.PHONE_REQUIRED);
      id = await repo.insertAccount(tx, scope.clientId, body, sealed);
    } else if (!(await repo.updateAccount(tx, scope, id, body, sealed))) {
      await repo.refuseOtherStoreAccount(tx, scope.clientId, id);
      throw new AppError(DEVICE_CODE.ACCOUNT_NOT_FOUND);
    }
    await repo.syncWhiteList(tx, scope.clientId);
    return id;
  });
}

export async function setAccountStatus(app: App, scope: Scope, id: number, status: string) {
  if (!(await repo.updateAccountStatus(app.db, scope, id, status))) {
    await repo.refuseOtherStoreAccount(app.db, scope.clientId, id);
    throw new AppError(DEVICE_CODE.ACCOUNT_NOT_FOUND);
  }
  await repo.syncWhiteList(app.db, scope.clientId);
}

/** Health board: every active tax account × every clerk who may issue for the business. */
export async function healthBoard(app: App, scope: Scope) {
  const accounts = (await accountStates(app, scope)).filter((a) => a.status === 'active');
  const clerks = await repo.selectIssuingClerks(app.db, scope.orgId, scope.clientId);
  const now = Date.now();
  return accounts.flatMap((a) =>
    clerks.map((c) => ({
      tax_account_id: a.id,
      account: a.account,
      person_name: a.person_name,
      device_id: a.device_id,
      device_name: a.device_name,
      clerk_id: c.id,
      clerk_name: c.name,
      login_state: a.login_state,
      real_name_state: a.real_name_state,
      session_expires_at: a.session_expires_at,
      seconds_left:
        a.login_state === 'online' && a.session_expires_at
          ? Math.max(0, Math.floor((new Date(a.session_expires_at).getTime() - now) / 1000))
          : 0,
    })),
  );
}
