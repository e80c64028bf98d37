import { describe, expect, it } from 'vitest';
import { SPECIFIC_BUSINESS, type SpecificBusinessCode } from '../schemas/invoice.ts';
import { SPECIFIC_BUSINESS_DEFS } from '../schemas/specific-business.ts';
import {
  SPECIFIC_BUSINESS_BLOCKS,
  type SpecificBusinessRequest,
  specificBlockKey,
  specificBlockOf,
  specificBusinessOf,
  storedHotelStay,
  storedShowBank,
  storedSmallScaleReason,
  storedSpecificBlock,
} from './specific-business.ts';

const building = {
  place: '浙江省-杭州市-西湖区',
  detail_address: '',
  project_name: '西湖项目',
  cross_city: 'N' as const,
  cross_region_no: '',
  land_vat_project_no: '',
};
const transport = {
  vehicle_type: '公路运输',
  vehicle_no: '浙A12345',
  origin: '杭州',
  destination: '上海',
  goods_name: '书',
};
const rent = {
  province: '浙江省',
  city: '杭州市',
  detail_address: '文三路1号',
  lease_period: '2026-01-01 2026-12-31',
  cross_city: 'N' as const,
  certificate_no: '无',
  plate_no: '',
  area_unit: '平方米',
};
const traveller = {
  traveller: '王五',
  id_type: '201',
  id_no: '11010519491231002X',
  travel_date: '2026-11-20',
  origin: '杭州',
  destination: '上海',
  vehicle_type: '3',
  seat_class: '',
};
const stay = { room_no: '301', guest_name: '王五', check_in: '2026-11-20', check_out: '2026-11-21' };

/** A request carrying every block, as a client could send it. */
const request = (code: SpecificBusinessCode | null, patch: Partial<SpecificBusinessRequest> = {}) =>
  ({
    invoice_info: { specific_business_code: code },
    building_service: building,
    goods_transport: [transport],
    real_static_rent: [rent],
    passenger_transport: [traveller],
    ...patch,
  }) as SpecificBusinessRequest;

describe('SPECIFIC_BUSINESS_BLOCKS', () => {
  it('names a block for every code the request admits, the one the served definitions name', () => {
    expect(Object.keys(SPECIFIC_BUSINESS_BLOCKS).sort()).toEqual(Object.keys(SPECIFIC_BUSINESS).sort());
    for (const def of SPECIFIC_BUSINESS_DEFS) {
      expect(def.block).toBe(SPECIFIC_BUSINESS_BLOCKS[def.code as SpecificBusinessCode]);
    }
    expect(specificBlockKey('06')).toBe('real_static_rent');
    for (const none of [null, undefined, '', '05', 'toString', '__proto__'])
      expect(specificBlockKey(none)).toBeNull();
  });
});

describe('specificBlockOf', () => {
  it("keeps the code's block only", () => {
    const blocks = request(null);
    expect(specificBlockOf('03', blocks)).toEqual({ building_service: building });
    expect(specificBlockOf('04', blocks)).toEqual({ goods_transport: [transport] });
    expect(specificBlockOf('06', blocks)).toEqual({ real_static_rent: [rent] });
    expect(specificBlockOf('09', blocks)).toEqual({ passenger_transport: [traveller] });
    expect(specificBlockOf(null, blocks)).toEqual({});
    expect(specificBlockOf('03', { goods_transport: [transport] })).toEqual({});
  });

  it('reads only the chosen block (getters of the others are never called)', () => {
    const blocks = {
      get building_service(): typeof building {
        throw new Error('not this one');
      },
      get goods_transport() {
        return [transport];
      },
    };
    expect(specificBlockOf('04', blocks)).toEqual({ goods_transport: [transport] });
  });
});

describe('specificBusinessOf (invoices.specific_business)', () => {
  it.each<[SpecificBusinessCode, Record<string, unknown>]>([
    ['03', { building_service: building }],
    ['04', { goods_transport: [transport] }],
    ['06', { real_static_rent: [rent] }],
    ['09', { passenger_transport: [traveller] }],
  ])('%s: its block and nothing of the others', (code, block) => {
    expect(specificBusinessOf(request(code), null)).toEqual(block);
  });

  it('the hotel stay, the small-scale reason when it applies, the bank flags when one is set', () => {
    expect(specificBusinessOf(request(null), null)).toBeNull();
    expect(specificBusinessOf(request(null, { hotel_stay: stay }), '2')).toEqual({
      hotel_stay: stay,
      small_scale_reason: '2',
    });
    expect(specificBusinessOf(request(null, { show_buyer_bank: true }), null)).toEqual({
      show_bank: { buyer: true, seller: false },
    });
    expect(
      specificBusinessOf(request(null, { show_buyer_bank: false, show_seller_bank: false }), null),
    ).toBeNull();
    expect(specificBusinessOf(request('03', { show_seller_bank: true }), '1')).toEqual({
      building_service: building,
      small_scale_reason: '1',
      show_bank: { buyer: false, seller: true },
    });
  });

  it('what it keeps, stored as JSON, reads back part by part', () => {
    for (const code of ['03', '04', '06', '09'] as const) {
      const req = request(code, { hotel_stay: stay, show_buyer_bank: true });
      const raw: unknown = JSON.parse(JSON.stringify(specificBusinessOf(req, '1')));
      const key = SPECIFIC_BUSINESS_BLOCKS[code];
      expect(storedSpecificBlock(code, raw)).toEqual(req[key]);
      expect(storedHotelStay(raw)).toEqual(stay);
      expect(storedSmallScaleReason(raw)).toBe('1');
      expect(storedShowBank(raw)).toEqual({ buyer: true, seller: false });
    }
  });
});

describe('the stored readers', () => {
  it('take a bare block as early rows kept it, and nothing from nothing', () => {
    expect(storedSpecificBlock('03', building)).toEqual(building);
    expect(storedSpecificBlock('04', [transport])).toEqual([transport]);
    expect(storedSpecificBlock('04', null)).toBeNull();
    expect(storedSpecificBlock(null, { building_service: building })).toBeNull();
    expect(storedSpecificBlock('03', 'text')).toBeNull();
  });

  it('a blank hotel stay, an unknown reason and flags that are not true are absent', () => {
    expect(
      storedHotelStay({ hotel_stay: { room_no: ' ', guest_name: '', check_in: '', check_out: '' } }),
    ).toBeNull();
    expect(storedHotelStay({ hotel_stay: 'x' })).toBeNull();
    expect(storedHotelStay([stay])).toBeNull();
    expect(storedHotelStay(null)).toBeNull();
    expect(storedSmallScaleReason({ small_scale_reason: '3' })).toBeNull();
    expect(storedSmallScaleReason(null)).toBeNull();
    expect(storedShowBank({ show_bank: { buyer: 'yes', seller: 1 } })).toEqual({
      buyer: false,
      seller: false,
    });
    expect(storedShowBank(undefined)).toEqual({ buyer: false, seller: false });
  });
});
