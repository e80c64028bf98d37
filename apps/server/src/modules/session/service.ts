import { SESSION_CODE } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AccessService, SessionCtx } from './access.ts';
import * as repo from './repo.ts';

export async function listOrgs(db: Db, session: SessionCtx) {
  const orgs = await repo.listOrgsOfUser(db, session.userId);
  const current = session.orgId ?? orgs[0]?.id ?? null;
  return orgs.map((o) => ({ org_id: o.id, name: o.name, is_current: o.id === current }));
}

export async function setOrg(db: Db, session: SessionCtx, orgId: number) {
  const orgs = await repo.listOrgsOfUser(db, session.userId);
  if (!orgs.some((o) => o.id === orgId)) throw new AppError(SESSION_CODE.ORG_NOT_PERMITTED);
  await repo.setSessionOrg(db, session.tokenHash, orgId);
}

/** Businesses the user may act for in the current org (all of them for administrators). */
export async function listClients(db: Db, session: SessionCtx, keyword?: string) {
  const orgs = await repo.listOrgsOfUser(db, session.userId);
  const orgIds = orgs.filter((o) => session.orgId === null || o.id === session.orgId).map((o) => o.id);
  const clients = await repo.listClientsOfOrgs(db, orgIds);
  const result = [];
  // Stryker disable next-line MethodExpression: the clients read are those of orgIds only, so another org's turn lists none
  for (const org of orgs.filter((o) => orgIds.includes(o.id))) {
    const isAdmin = org.isGroupAdmin || org.role === 'admin';
    let permitted: Set<number> | null = null;
    if (!isAdmin) {
      const emp = await repo.findEmployee(db, session.userId, org.id);
      // Stryker disable next-line ArrayDeclaration: listOrgsOfUser lists the user's active employees only, so emp is found; a stand-in scope permits no business either
      const scopes = emp ? await repo.listScopes(db, emp.employee.id) : [];
      permitted = new Set(scopes.map((s) => s.clientId));
    }
    for (const c of clients) {
      if (c.orgId !== org.id || (permitted && !permitted.has(c.id))) continue;
      if (keyword && !c.name.includes(keyword) && !c.taxCode.includes(keyword.toUpperCase())) continue;
      result.push({
        client_id: c.id,
        org_id: c.orgId,
        name: c.name,
        tax_code: c.taxCode,
        industry: c.industry as 'general' | 'hotel',
        taxpayer_type: c.taxpayerType as 'general' | 'small',
      });
    }
  }
  return result;
}

export async function listStores(db: Db, access: AccessService, session: SessionCtx, clientId: number) {
  const ca = await access.clientAccess(session, clientId);
  const stores = await repo.listActiveStores(db, clientId);
  return stores
    .filter((s) => ca.storeIds === null || ca.storeIds.has(s.id))
    .map((s) => ({ client_store_id: s.id, client_id: s.clientId, name: s.name, code: s.code }));
}
