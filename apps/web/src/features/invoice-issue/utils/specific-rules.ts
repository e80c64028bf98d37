import {
  AREA_UNITS,
  type BlueInvoiceRequest,
  checkSpecificBusiness,
  GOODS_TRANSPORT_VEHICLES,
  ID_DOCUMENT_TYPES,
  PASSENGER_VEHICLES,
  PASSENGER_VEHICLES_NOT_ALLOWED,
  SEAT_CLASSES,
} from '@kaipiao/shared';
import type { BlueInvoicePayload } from './build-request.ts';
import type { FieldErrors } from './types.ts';

// domain.md §4: the special-business rules are the shared ones the server runs too; this adds
// their issues to the form's errors and lists the choices the blocks offer.

export { AREA_UNITS, SEAT_CLASSES };
export const VEHICLE_KINDS = GOODS_TRANSPORT_VEHICLES;
export const PASSENGER_VEHICLE_OPTIONS = Object.entries(PASSENGER_VEHICLES)
  .filter(([value]) => !(PASSENGER_VEHICLES_NOT_ALLOWED as readonly string[]).includes(value))
  .map(([value, label]) => ({ value, label }));
export const ID_TYPE_OPTIONS = Object.entries(ID_DOCUMENT_TYPES).map(([value, label]) => ({ value, label }));

/** Adds the special-business errors of the payload's block to `errors` (first message per field wins). */
export function addSpecificErrors(payload: BlueInvoicePayload, errors: FieldErrors) {
  const code = payload.invoice_info.specific_business_code;
  if (!code) return;
  for (const issue of checkSpecificBusiness(payload as BlueInvoiceRequest))
    errors[issue.field] ??= issue.message;
  // the area unit is chosen on the item line: show its error there too
  const items = payload.goods_info.map((g, i) => ({ g, i })).filter(({ g }) => g.line_kind !== 1);
  payload.real_static_rent?.forEach((_, k) => {
    const unitError = errors[`real_static_rent.${k}.area_unit`];
    const item = items[k];
    if (unitError && item) errors[`goods_info.${item.i}.unit`] ??= '请选择面积单位';
  });
}
