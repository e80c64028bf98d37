import { CODE, type MenuEntry, SESSION_CODE, SUMMARY_STORE_ID } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { sha256 } from '../../lib/crypto.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { computeMenu } from '../authority/compute-menu.ts';
import * as repo from './repo.ts';

export type SessionCtx = {
  tokenHash: string;
  userId: number;
  orgId: number | null;
  source: string;
  platform: string;
  expiresAt: Date;
};

export type ClientAccess = {
  clientId: number;
  orgId: number;
  industry: string;
  employeeId: number;
  isGroupAdmin: boolean;
  /** group or business administrator */
  isAdmin: boolean;
  /** null = every store of the business */
  storeIds: ReadonlySet<number> | null;
  /** the business's stores that are not disabled: the only ones a call may select */
  activeStoreIds: ReadonlySet<number>;
  menu: MenuEntry[];
  authUrls: ReadonlySet<string>;
};

// Short TTLs keep the hot path off the database; logout and permission edits call invalidate*.
const SESSION_TTL_MS = 10_000;
const ACCESS_TTL_MS = 15_000;

export class AccessService {
  private readonly sessions = new TtlCache<SessionCtx | null>(SESSION_TTL_MS);
  private readonly access = new TtlCache<ClientAccess | AppError>(ACCESS_TTL_MS);
  /** token → its sha256, so a busy session hashes its token once a minute, not on every request */
  private readonly tokenHashes = new TtlCache<string>(60_000);

  constructor(private readonly db: Db) {}

  async sessionFromToken(token: string | undefined): Promise<SessionCtx> {
    if (!token) throw new AppError(CODE.UNAUTHORIZED);
    let tokenHash = this.tokenHashes.get(token);
    // Stryker disable next-line ConditionalExpression: the hash cache only saves work; hashing again gives the same hash
    if (tokenHash === undefined) {
      tokenHash = sha256(token);
      this.tokenHashes.set(token, tokenHash);
    }
    let ctx = this.sessions.get(tokenHash);
    // Stryker disable next-line ConditionalExpression: the session cache only saves a query; reading the row every time gives the same session, or a change (logout elsewhere) sooner
    if (ctx === undefined) {
      const row = await repo.findLiveSession(this.db, tokenHash);
      ctx = row && {
        tokenHash,
        userId: row.userId,
        orgId: row.orgId,
        source: row.source,
        platform: row.platform,
        expiresAt: row.expiresAt,
      };
      this.sessions.set(tokenHash, ctx);
    }
    if (!ctx || ctx.expiresAt.getTime() <= Date.now()) throw new AppError(CODE.UNAUTHORIZED);
    return ctx;
  }

  /** What the session's user may do for one business (cached briefly). */
  async clientAccess(session: SessionCtx, clientId: number): Promise<ClientAccess> {
    const key = `${session.userId}:${session.orgId ?? 0}:${clientId}`;
    let hit = this.access.get(key);
    // Stryker disable next-line ConditionalExpression: the access cache only saves queries; loading every time gives the same access, or an edit sooner
    if (hit === undefined) {
      hit = await this.loadAccess(session, clientId).catch((e: unknown) => {
        // Stryker disable next-line ConditionalExpression: a refusal not cached is loaded again with the same answer; any other error is a failed database, answered 500 either way
        if (e instanceof AppError) return e;
        throw e;
      });
      this.access.set(key, hit);
    }
    if (hit instanceof AppError) throw hit;
    return hit;
  }

  /** spec §7: the server never trusts client_id / sid — both must be the session's to use. */
  assertStore(access: ClientAccess, sid: number | undefined): void {
    if (sid === undefined || sid === SUMMARY_STORE_ID) return;
    if (!access.activeStoreIds.has(sid) || (access.storeIds !== null && !access.storeIds.has(sid)))
      throw new AppError(SESSION_CODE.STORE_NOT_PERMITTED);
  }

  private async loadAccess(session: SessionCtx, clientId: number): Promise<ClientAccess> {
    const found = await repo.findClient(this.db, clientId);
    if (!found || (session.orgId !== null && found.client.orgId !== session.orgId)) {
      throw new AppError(SESSION_CODE.CLIENT_NOT_PERMITTED);
    }
    const { client, org } = found;
    const emp = await repo.findEmployee(this.db, session.userId, client.orgId);
    if (!emp) throw new AppError(SESSION_CODE.CLIENT_NOT_PERMITTED);
    const isAdmin = emp.employee.isGroupAdmin || emp.employee.role === 'admin';
    let storeIds: Set<number> | null = null;
    if (!isAdmin) {
      const scopes = await repo.listScopes(this.db, emp.employee.id, clientId);
      if (scopes.length === 0) throw new AppError(SESSION_CODE.CLIENT_NOT_PERMITTED);
      storeIds = scopes.some((s) => s.storeId === 0) ? null : new Set(scopes.map((s) => s.storeId));
    }
    const stores = await repo.listActiveStores(this.db, clientId);
    const now = Date.now();
    const menu = computeMenu({
      industry: client.industry,
      packageCode: org.packageCode,
      packageActive:
        org.packageCode !== 'none' && (!org.packageExpiresAt || org.packageExpiresAt.getTime() > now),
      bookkeepingActive: !org.bookkeepingExpiresAt || org.bookkeepingExpiresAt.getTime() > now,
      grayFeatures: org.grayFeatures,
      whiteListed: client.hasWhiteListedTaxAccount,
      isGroupAdmin: emp.employee.isGroupAdmin,
      // Stryker disable next-line ArrayDeclaration: an employee without a rule is granted nothing; a stand-in url is no menu url either
      ruleUrls: isAdmin ? null : new Set(emp.ruleUrls ?? []),
    });
    return {
      clientId,
      orgId: client.orgId,
      industry: client.industry,
      employeeId: emp.employee.id,
      isGroupAdmin: emp.employee.isGroupAdmin,
      isAdmin,
      storeIds,
      activeStoreIds: new Set(stores.map((s) => s.id)),
      menu,
      authUrls: new Set(menu.filter((m) => m.is_auth === 1).map((m) => m.url)),
    };
  }

  forgetSession(tokenHash: string): void {
    this.sessions.delete(tokenHash);
  }

  forgetUser(userId: number): void {
    // Stryker disable next-line StringLiteral: forgetting every user's access only makes the others load theirs again
    this.access.deleteWhere((k) => k.startsWith(`${userId}:`));
  }

  forgetAll(): void {
    this.sessions.clear();
    this.tokenHashes.clear();
    this.access.clear();
  }
}
