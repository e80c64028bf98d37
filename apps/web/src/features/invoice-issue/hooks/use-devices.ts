import { dec, type InvoiceType, SPECIAL_INVOICE_TYPES, type TaxEquipment } from '@kaipiao/shared';
import { useQuery } from '@tanstack/react-query';
import { type Dispatch, useCallback, useEffect, useMemo } from 'react';
import { taxEquipmentQuery } from '../../../api/equipment.ts';
import type { DraftAction } from '../utils/draft.ts';
import type { Draft } from '../utils/types.ts';
import type { Limits } from '../utils/validate.ts';

/** The kind a device starts on: an ordinary (普票) kind when it has one — 专票 need the buyer's tax code. */
export function preferredKind(device: TaxEquipment | undefined): InvoiceType | null {
  const types = device?.invoice_types ?? [];
  // the store's default kind (门店管理) when the device issues it
  const preset = device?.default_invoice_types?.find((k) => types.some((t) => t.code === k));
  if (preset) return preset as InvoiceType;
  const ordinary = types.find((t) => !SPECIAL_INVOICE_TYPES.includes(t.code as InvoiceType));
  return ((ordinary ?? types[0])?.code as InvoiceType) ?? null;
}

/** What the chosen device allows: 单张限额, remaining monthly quota, and whether it can issue now. */
export function limitsOf(device: TaxEquipment | undefined): Limits {
  if (!device) return {};
  let quotaLeft: string | null = null;
  if (device.monthly_quota !== null) {
    const left = dec(device.monthly_quota).minus(dec(device.quota_used || '0'));
    quotaLeft = (left.isNegative() ? dec(0) : left).toFixed(2);
  }
  const deviceProblem = device.locked
    ? '该设备已到锁死期，暂不能开票'
    : !device.online
      ? '该设备当前离线，暂不能开票'
      : undefined;
  return { perInvoiceLimit: device.per_invoice_limit, quotaLeft, deviceProblem };
}

/** The store's devices; the first usable one is chosen while the draft names none (or a gone one). */
export function useDevices(storeId: number) {
  const query = useQuery(taxEquipmentQuery(storeId));
  const devices = useMemo(() => query.data ?? [], [query.data]);
  const limitsFor = useCallback(
    (draft: Draft) => limitsOf(devices.find((d) => d.device_id === draft.device_id)),
    [devices],
  );
  return { devices, limitsFor, loading: query.isLoading, loaded: query.isSuccess };
}

/** Chooses the first usable device (and its first kind) while the draft names none, or a gone one. */
export function useAutoDevice(
  devices: readonly TaxEquipment[],
  draft: Draft,
  dispatch: Dispatch<DraftAction>,
) {
  const current = devices.find((d) => d.device_id === draft.device_id);
  useEffect(() => {
    if (current) {
      if (!current.invoice_types.some((t) => t.code === draft.invoice_type)) {
        dispatch({
          type: 'invoiceType',
          invoice_type: (current.invoice_types[0]?.code as InvoiceType) ?? null,
        });
      }
      return;
    }
    if (!devices.length) return;
    const first = devices.find((d) => d.online && !d.locked) ?? devices[0];
    dispatch({
      type: 'device',
      device_id: first.device_id,
      invoice_type: preferredKind(first),
    });
  }, [devices, current, draft.invoice_type, dispatch]);
}
