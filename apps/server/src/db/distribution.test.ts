import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * Every tenant table can be distributed by `client_id` (Citus; issue 11 item 7): read from the
 * catalog of the migrated database, not from the Drizzle schema, so a hand-written migration is
 * checked too.
 *
 * - A tenant table is one with a `client_id` column. Its `client_id` is NOT NULL, and every primary
 *   key, unique constraint and unique index includes `client_id` as a plain column (Citus can
 *   enforce uniqueness only within one shard). The keys keep their old columns first and end in
 *   `client_id`: every lookup by id alone still has its index, and per business they are as strict
 *   as before (an id comes from a sequence; a device, store, code belongs to one business).
 * - A foreign key between two tenant tables pairs `client_id` with `client_id` (a co-located join);
 *   a global table never references a tenant table (a reference table cannot point into shards).
 * - Every other table is listed in GLOBAL with the reason it is not per business: a new table is
 *   one or the other, or this test fails.
 */
const GLOBAL: Record<string, string> = {
  orgs: 'the groups above the businesses: read at every login, a reference table',
  clients: 'the businesses themselves (their id is the distribution value): a reference table',
  users: 'a person signs in once for every group and business they work for',
  authority_rules: "a group's permission rules, shared by its businesses",
  employees: 'membership of a user in a group, across its businesses',
  sessions: 'a login session, before and across businesses',
  trusted_devices: "a user's trusted browsers (two-factor), not per business",
  captchas: 'picture codes shown before login',
  sms_codes: 'login and verification codes sent to a mobile, before any business is chosen',
  login_attempts: 'failed-login counters per account, before login',
  rate_counters: 'rate limits keyed by IP or account, before login',
  qr_logins: 'QR-login handshakes, before login',
  sso_tickets: 'partner sign-on tickets, before login',
  wecom_users: 'work-app (WeCom) identities mapped to users',
  server_keys: "the server's login RSA keys",
  notices: 'public notices shown to every business',
  notice_reads: 'which user read a public notice (per user, not per business)',
  outbox: 'the SMS/e-mail sandbox outbox, addressed to recipients (login codes included)',
  tax_class_codes: "the bureau's tax classification codes: the same for every business, a reference table",
};

async function admin(statement: string) {
  const c = new pg.Client(inject('pgAdminUrl'));
  await c.connect();
  await c.query(statement);
  await c.end();
}

type Table = { name: string; clientIdNotNull: boolean | null };
type Unique = { table: string; name: string; kind: string; def: string; has_client: boolean };
type Fk = {
  table: string;
  name: string;
  ref: string;
  def: string;
  cols: string[];
  ref_cols: string[];
};

let tables: Table[] = [];
let uniques: Unique[] = [];
let fks: Fk[] = [];

// a clone of the migrated template, no seed: the schema is what is checked
const name = `t_${randomBytes(6).toString('hex')}`;
beforeAll(async () => {
  await admin(`create database ${name} template ${inject('pgTemplate')}`);
  const client = new pg.Client(inject('pgAdminUrl').replace(/\/[^/]*$/, `/${name}`));
  await client.connect();
  afterAll(async () => {
    await client.end();
    await admin(`drop database if exists ${name} with (force)`);
  });
  const t = await client.query<{ name: string; not_null: boolean | null }>(`
    select c.relname as name, a.attnotnull as not_null
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_attribute a on a.attrelid = c.oid and a.attname = 'client_id' and not a.attisdropped
    where n.nspname = 'public' and c.relkind in ('r', 'p')
    order by 1`);
  tables = t.rows.map((r) => ({ name: r.name, clientIdNotNull: r.not_null }));
  // every unique index: those of primary keys and unique constraints and the plain unique indexes
  const u = await client.query<Unique>(`
    select c.relname as table, ic.relname as name,
      coalesce(con.contype::text, 'unique index') as kind, pg_get_indexdef(x.indexrelid) as def,
      exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'client_id'
        and a.attnum = any (x.indkey::int2[])) as has_client
    from pg_index x
    join pg_class c on c.oid = x.indrelid
    join pg_class ic on ic.oid = x.indexrelid
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_constraint con on con.conindid = x.indexrelid and con.conrelid = c.oid
    where n.nspname = 'public' and x.indisunique
    order by 1, 2`);
  uniques = u.rows;
  const f = await client.query<Fk>(`
    select con.conrelid::regclass::text as table, con.conname as name,
      con.confrelid::regclass::text as ref, pg_get_constraintdef(con.oid) as def,
      array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as cols,
      array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as ref_cols
    from pg_constraint con
    where con.contype = 'f' and con.connamespace = 'public'::regnamespace
    order by 1, 2`);
  fks = f.rows;
});

const isTenant = (t: string) => tables.find((x) => x.name === t)?.clientIdNotNull != null;

describe('every tenant table can be distributed by client_id', () => {
  it('each table is a tenant table (client_id) or a global one named with its reason', () => {
    const unknown = tables.filter((t) => t.clientIdNotNull == null && !GLOBAL[t.name]).map((t) => t.name);
    expect(unknown, 'tables with no client_id that are not listed in GLOBAL').toEqual([]);
    const listedTenant = tables.filter((t) => t.clientIdNotNull != null && GLOBAL[t.name]).map((t) => t.name);
    expect(listedTenant, 'tables listed in GLOBAL that have a client_id').toEqual([]);
    const gone = Object.keys(GLOBAL).filter((g) => !tables.some((t) => t.name === g));
    expect(gone, 'GLOBAL names a table that does not exist').toEqual([]);
    expect(tables.filter((t) => isTenant(t.name)).length).toBeGreaterThan(20);
  });

  it("a tenant table's client_id is NOT NULL", () => {
    const nullable = tables.filter((t) => t.clientIdNotNull === false).map((t) => t.name);
    expect(nullable).toEqual([]);
  });

  it('each primary key, unique constraint and unique index of a tenant table includes client_id', () => {
    const offenders = uniques
      .filter((u) => isTenant(u.table) && !u.has_client)
      .map(
        (u) => `${u.table}: ${u.kind === 'p' ? 'primary key' : u.kind === 'u' ? 'unique' : u.kind} ${u.def}`,
      );
    if (offenders.length) console.log(`keys without client_id:\n${offenders.join('\n')}`);
    expect(offenders).toEqual([]);
    // the check sees the keys at all (a wrong catalog query would find nothing to check)
    expect(uniques.filter((u) => isTenant(u.table) && u.kind === 'p').length).toBeGreaterThan(20);
  });

  it('a foreign key between tenant tables pairs client_id with client_id; no global table references a tenant table', () => {
    const offenders = fks
      .filter((f) => isTenant(f.ref))
      .filter((f) => {
        if (!isTenant(f.table)) return true;
        const i = f.cols.indexOf('client_id');
        return i < 0 || f.ref_cols[i] !== 'client_id';
      })
      .map((f) => `${f.table}.${f.name}: ${f.def}`);
    if (offenders.length) console.log(`foreign keys not co-located:\n${offenders.join('\n')}`);
    expect(offenders).toEqual([]);
    expect(fks.filter((f) => isTenant(f.table) && isTenant(f.ref)).length).toBeGreaterThan(10);
  });
});
