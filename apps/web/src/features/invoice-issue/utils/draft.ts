import { dec, type GoodsItem, trimmed } from '@kaipiao/shared';
import { computeAll, convertLine } from './line-math.ts';
import type {
  Draft,
  DraftBuilding,
  DraftBuyer,
  DraftLine,
  DraftPassenger,
  DraftRent,
  DraftStay,
  DraftTransport,
} from './types.ts';

// The form's state as one pure reducer: every rule that ties fields together (discount lines
// follow their line, the 06 property blocks follow the lines, the price-mode switch) lives here
// and is unit-tested without rendering.

let seq = 0;
export const newKey = (prefix = 'k') => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

/** A goods code as GET /v3/client-project/get-projects lists it. */
export type Project = Pick<
  GoodsItem,
  | 'id'
  | 'name'
  | 'tax_class_code'
  | 'short_name'
  | 'spec'
  | 'unit'
  | 'price'
  | 'price_includes_tax'
  | 'tax_rate'
  | 'preferential_code'
  | 'zero_rate_flag'
>;

export const emptyLine = (): DraftLine => ({
  key: newKey('l'),
  line_kind: 0,
  goods_id: null,
  tax_class_code: '',
  short_name: '',
  name: '',
  spec: '',
  unit: '',
  quantity: '',
  price: '',
  amount: '',
  driver: 'price',
  tax_rate: '',
  preferential_code: '',
  zero_rate_flag: '',
  discount: null,
});

export const emptyBuyer = (): DraftBuyer => ({
  title_type: 2,
  name: '',
  tax_code: '',
  address: '',
  phone: '',
  bank_name: '',
  bank_account: '',
  email: '',
  mobile: '',
});

const emptyBuilding = (): DraftBuilding => ({
  place: '',
  detail_address: '',
  project_name: '',
  cross_city: 'N',
  cross_region_no: '',
  land_vat_project_no: '',
});
const emptyRent = (): DraftRent => ({
  province: '',
  city: '',
  detail_address: '',
  lease_start: '',
  lease_end: '',
  cross_city: 'N',
  certificate_no: '',
  plate_no: '',
});
export const emptyTransport = (): DraftTransport => ({
  key: newKey('t'),
  vehicle_type: '',
  vehicle_no: '',
  origin: '',
  destination: '',
  goods_name: '',
});
export const emptyPassenger = (): DraftPassenger => ({
  key: newKey('p'),
  traveller: '',
  id_type: '201',
  id_no: '',
  travel_date: '',
  origin: '',
  destination: '',
  vehicle_type: '',
  seat_class: '',
});
export const emptyStay = (): DraftStay => ({ room_no: '', guest_name: '', check_in: '', check_out: '' });

export function emptyDraft(opts: { hotel?: boolean; drawer?: string } = {}): Draft {
  return {
    device_id: null,
    invoice_type: null,
    price_includes_tax: true,
    buyer: emptyBuyer(),
    lines: [emptyLine()],
    remark: '',
    drawer: opts.drawer ?? '',
    payee: '',
    reviewer: '',
    send_email: true,
    specific_business_code: null,
    building: emptyBuilding(),
    transports: [],
    rents: [],
    passengers: [],
    stay: opts.hotel ? emptyStay() : null,
    small_scale_reason: '',
  };
}

/** A line filled from a goods code; its price is re-expressed in the form's price mode. */
export function lineFromProject(base: DraftLine, p: Project, inclusive: boolean): DraftLine {
  let price = '';
  if (p.price && Number(p.price) !== 0) {
    const rate = dec(p.tax_rate || '0');
    const raw = dec(p.price);
    const v =
      p.price_includes_tax === inclusive
        ? raw
        : inclusive
          ? raw.times(rate.plus(1))
          : raw.dividedBy(rate.plus(1));
    price = trimmed(v);
  }
  return {
    ...base,
    goods_id: p.id,
    tax_class_code: p.tax_class_code,
    short_name: p.short_name,
    name: p.name,
    spec: p.spec ?? '',
    unit: p.unit ?? '',
    tax_rate: p.tax_rate,
    preferential_code: p.preferential_code ?? '',
    zero_rate_flag: (p.zero_rate_flag ?? '') as DraftLine['zero_rate_flag'],
    price: price || base.price,
    quantity: price && !base.quantity ? '1' : base.quantity,
    driver: price ? 'price' : base.driver,
  };
}

export type DraftAction =
  | { type: 'replace'; draft: Draft }
  | { type: 'device'; device_id: number | null; invoice_type: Draft['invoice_type'] }
  | { type: 'invoiceType'; invoice_type: Draft['invoice_type'] }
  | { type: 'buyer'; patch: Partial<DraftBuyer> }
  | { type: 'priceMode'; inclusive: boolean }
  | { type: 'addLine'; line?: DraftLine }
  | { type: 'updateLine'; key: string; patch: Partial<DraftLine> }
  | { type: 'pickProject'; key: string; project: Project }
  | { type: 'copyLine'; key: string }
  | { type: 'removeLine'; key: string }
  | { type: 'setDiscount'; key: string; discount: NonNullable<DraftLine['discount']> }
  | {
      type: 'field';
      patch: Partial<
        Pick<
          Draft,
          | 'remark'
          | 'drawer'
          | 'payee'
          | 'reviewer'
          | 'send_email'
          | 'small_scale_reason'
          | 'show_buyer_bank'
          | 'show_seller_bank'
        >
      >;
    }
  | { type: 'specific'; code: Draft['specific_business_code'] }
  | { type: 'building'; patch: Partial<DraftBuilding> }
  | { type: 'addTransport' }
  | { type: 'updateTransport'; key: string; patch: Partial<DraftTransport> }
  | { type: 'removeTransport'; key: string }
  | { type: 'updateRent'; index: number; patch: Partial<DraftRent> }
  | { type: 'addPassenger' }
  | { type: 'updatePassenger'; key: string; patch: Partial<DraftPassenger> }
  | { type: 'removePassenger'; key: string }
  | { type: 'stay'; patch: Partial<DraftStay> };

/** Fields a discount line shares with the line it discounts (domain.md §2.4). */
const SHARED: readonly (keyof DraftLine)[] = [
  'goods_id',
  'tax_class_code',
  'short_name',
  'name',
  'tax_rate',
  'preferential_code',
  'zero_rate_flag',
];

/** Discount lines copy their line's name, code, rate and flags; orphans are dropped, kinds repaired. */
function syncDiscounts(lines: DraftLine[]): DraftLine[] {
  const out: DraftLine[] = [];
  for (const line of lines) {
    if (line.line_kind !== 1) {
      out.push(line);
      continue;
    }
    const prev = out[out.length - 1];
    if (!prev || prev.line_kind === 1) continue; // a discount line without its line
    out[out.length - 1] = { ...prev, line_kind: 2 };
    const shared = Object.fromEntries(SHARED.map((k) => [k, prev[k]]));
    out.push({ ...line, ...shared, spec: '', unit: '', quantity: '', price: '' });
  }
  // a line stays "discounted" only while its discount line follows it
  return out.map((l, i) => (l.line_kind === 2 && out[i + 1]?.line_kind !== 1 ? { ...l, line_kind: 0 } : l));
}

/** 06: exactly one property block per item line (discount lines excluded), in line order. */
function syncRents(draft: Draft): Draft {
  if (draft.specific_business_code !== '06') return draft;
  const count = draft.lines.filter((l) => l.line_kind !== 1).length;
  if (draft.rents.length === count) return draft;
  const rents = draft.rents.slice(0, count);
  while (rents.length < count) rents.push(emptyRent());
  return { ...draft, rents };
}

function amountsOnly(draft: Draft): DraftLine[] {
  const numbers = computeAll(draft.lines, draft.price_includes_tax);
  return draft.lines.map((l, i) => {
    if (l.line_kind === 1) return l;
    const n = numbers[i];
    const amount = n ? (draft.price_includes_tax ? n.amountWithTax : n.amount) : l.amount;
    return { ...l, spec: '', unit: '', quantity: '', price: '', amount, driver: 'amount' };
  });
}

function withLines(draft: Draft, lines: DraftLine[]): Draft {
  return syncRents({ ...draft, lines: syncDiscounts(lines) });
}

export function draftReducer(draft: Draft, action: DraftAction): Draft {
  switch (action.type) {
    case 'replace':
      return action.draft;
    case 'device':
      return { ...draft, device_id: action.device_id, invoice_type: action.invoice_type };
    case 'invoiceType':
      return { ...draft, invoice_type: action.invoice_type };
    case 'buyer':
      return { ...draft, buyer: { ...draft.buyer, ...action.patch } };
    case 'priceMode': {
      if (action.inclusive === draft.price_includes_tax) return draft;
      const numbers = computeAll(draft.lines, draft.price_includes_tax);
      const lines = draft.lines.map((l, i) => convertLine(l, numbers[i], action.inclusive));
      return { ...draft, price_includes_tax: action.inclusive, lines };
    }
    case 'addLine':
      return withLines(draft, [...draft.lines, action.line ?? emptyLine()]);
    case 'updateLine': {
      const patch = { ...action.patch };
      // typing a price makes amount derived, typing an amount makes the price derived
      if ('amount' in patch) patch.driver = 'amount';
      else if ('price' in patch) patch.driver = 'price';
      return withLines(
        draft,
        draft.lines.map((l) => (l.key === action.key ? { ...l, ...patch } : l)),
      );
    }
    case 'pickProject':
      return withLines(
        draft,
        draft.lines.map((l) =>
          l.key === action.key ? lineFromProject(l, action.project, draft.price_includes_tax) : l,
        ),
      );
    case 'copyLine': {
      const i = draft.lines.findIndex((l) => l.key === action.key);
      if (i < 0) return draft;
      const src = draft.lines[i];
      const copy: DraftLine = { ...src, key: newKey('l'), line_kind: 0, discount: null };
      // the copy goes after the line's discount line, if any
      const at = draft.lines[i + 1]?.line_kind === 1 ? i + 2 : i + 1;
      return withLines(draft, [...draft.lines.slice(0, at), copy, ...draft.lines.slice(at)]);
    }
    case 'removeLine': {
      const i = draft.lines.findIndex((l) => l.key === action.key);
      if (i < 0) return draft;
      const drop = draft.lines[i].line_kind === 2 && draft.lines[i + 1]?.line_kind === 1 ? 2 : 1;
      const lines = [...draft.lines.slice(0, i), ...draft.lines.slice(i + drop)];
      return withLines(draft, lines.length ? lines : [emptyLine()]);
    }
    case 'setDiscount': {
      const i = draft.lines.findIndex((l) => l.key === action.key);
      if (i < 0) return draft;
      const target = draft.lines[i];
      // the key may name the discounted line or its discount line
      const parentAt = target.line_kind === 1 ? i - 1 : i;
      const existing = draft.lines[parentAt + 1]?.line_kind === 1 ? draft.lines[parentAt + 1] : null;
      const discountLine: DraftLine = {
        ...(existing ?? emptyLine()),
        line_kind: 1,
        driver: 'amount',
        discount: action.discount,
      };
      const lines = [...draft.lines];
      lines[parentAt] = { ...lines[parentAt], line_kind: 2 };
      if (existing) lines[parentAt + 1] = discountLine;
      else lines.splice(parentAt + 1, 0, discountLine);
      return withLines(draft, lines);
    }
    case 'field':
      return { ...draft, ...action.patch };
    case 'specific':
      return syncRents({
        ...draft,
        // 03 has no 规格型号/单位/数量/单价 (domain.md §4.1): each line keeps only its amount
        lines: action.code === '03' ? amountsOnly(draft) : draft.lines,
        specific_business_code: action.code,
        rents: action.code === '06' ? draft.rents : [],
        transports: action.code === '04' && !draft.transports.length ? [emptyTransport()] : draft.transports,
        passengers: action.code === '09' && !draft.passengers.length ? [emptyPassenger()] : draft.passengers,
      });
    case 'building':
      return { ...draft, building: { ...draft.building, ...action.patch } };
    case 'addTransport':
      return { ...draft, transports: [...draft.transports, emptyTransport()] };
    case 'updateTransport':
      return {
        ...draft,
        transports: draft.transports.map((t) => (t.key === action.key ? { ...t, ...action.patch } : t)),
      };
    case 'removeTransport':
      return { ...draft, transports: draft.transports.filter((t) => t.key !== action.key) };
    case 'updateRent':
      return {
        ...draft,
        rents: draft.rents.map((r, i) => (i === action.index ? { ...r, ...action.patch } : r)),
      };
    case 'addPassenger':
      return { ...draft, passengers: [...draft.passengers, emptyPassenger()] };
    case 'updatePassenger':
      return {
        ...draft,
        passengers: draft.passengers.map((p) => (p.key === action.key ? { ...p, ...action.patch } : p)),
      };
    case 'removePassenger':
      return { ...draft, passengers: draft.passengers.filter((p) => p.key !== action.key) };
    case 'stay':
      return { ...draft, stay: { ...(draft.stay ?? emptyStay()), ...action.patch } };
  }
}
