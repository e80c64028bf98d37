import { CATALOG_CODE, type InfoByTaxCode, type TitleItem, titleBodySchema } from '@kaipiao/shared';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './repo.ts';

type TitleInput = z.output<typeof titleBodySchema>;

export function toTitleItem(t: repo.TitleRow): TitleItem {
  return {
    id: t.id,
    title_type: t.titleType,
    name: t.name,
    tax_code: t.taxCode,
    address: t.address,
    phone: t.phone,
    bank_name: t.bankName,
    bank_account: t.bankAccount,
    email: t.email,
    mobile: t.mobile,
    use_count: t.useCount,
    last_used_at: t.lastUsedAt?.toISOString() ?? null,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

export function titleValues(clientId: number, b: TitleInput): repo.TitleValues {
  return {
    clientId,
    titleType: b.title_type,
    name: b.name,
    taxCode: b.tax_code,
    address: b.address,
    phone: b.phone,
    bankName: b.bank_name,
    bankAccount: b.bank_account,
    email: b.email,
    mobile: b.mobile,
  };
}

function isNameTaken(e: unknown): boolean {
  const err = e as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const c = err.cause ?? err;
  return c.code === '23505' && c.constraint === 'buyer_titles_name_uq';
}

const duplicateError = () =>
  new AppError(CATALOG_CODE.TITLE_DUPLICATE, undefined, {
    errors: [{ field: 'name', message: '已存在同名抬头' }],
  });

export async function createTitle(db: Db, clientId: number, body: TitleInput): Promise<TitleItem> {
  try {
    return toTitleItem(await repo.insertTitle(db, titleValues(clientId, body)));
  } catch (e) {
    if (isNameTaken(e)) throw duplicateError();
    throw e;
  }
}

export async function updateTitle(
  db: Db,
  clientId: number,
  id: number,
  body: TitleInput,
): Promise<TitleItem> {
  try {
    const row = await repo.updateTitle(db, clientId, id, titleValues(clientId, body));
    if (!row) throw new AppError(CATALOG_CODE.TITLE_NOT_FOUND);
    return toTitleItem(row);
  } catch (e) {
    if (isNameTaken(e)) throw duplicateError();
    throw e;
  }
}

export async function deleteTitles(db: Db, clientId: number, ids: number[]): Promise<number> {
  const n = await repo.deleteTitles(db, clientId, [...new Set(ids)]);
  if (n === 0) throw new AppError(CATALOG_CODE.TITLE_NOT_FOUND);
  return n;
}

/**
 * spec §7 GET /v3/client/get-info-by-tax-code: the registered business with that tax code
 * (id, name, industry) and, when the caller acts for a business, its saved title for the code.
 * Null when neither exists. Another business's internal id and industry stay hidden (issue 21 L6):
 * the buyer form needs only its name and tax code, so they are given for the caller's own business only.
 */
export async function infoByTaxCode(
  db: Db,
  taxCode: string,
  clientId: number | null,
): Promise<InfoByTaxCode> {
  const [client, title] = await Promise.all([
    repo.findClientByTaxCode(db, taxCode),
    clientId ? repo.findTitleByTaxCode(db, clientId, taxCode) : Promise.resolve(undefined),
  ]);
  if (!client && !title) return null;
  const own = client !== undefined && client.id === clientId;
  return {
    id: own ? client.id : null,
    name: client?.name ?? title!.name,
    industry: own ? client.industry : null,
    tax_code: taxCode,
    title: title ? toTitleItem(title) : null,
  };
}

/**
 * For the invoice-issuing service: counts a use of the buyer's title (by exact name) so the
 * autocomplete ranks it higher. With `save`, a buyer not saved yet becomes a title when its data
 * passes the title rules. Returns the title id, or null when nothing was counted.
 */
export async function recordTitleUse(
  db: Db,
  clientId: number,
  buyer: {
    title_type: number;
    name: string;
    tax_code?: string;
    address?: string;
    phone?: string;
    bank_name?: string;
    bank_account?: string;
    email?: string;
    mobile?: string;
  },
  opts: { save?: boolean } = {},
): Promise<number | null> {
  const existing = await repo.findTitleByName(db, clientId, buyer.name.trim());
  if (existing) {
    await repo.incrementTitleUse(db, existing.id);
    return existing.id;
  }
  if (!opts.save) return null;
  const parsed = titleBodySchema.safeParse(buyer);
  if (!parsed.success) return null;
  return (await repo.bumpTitleUse(db, titleValues(clientId, parsed.data))).id;
}
