import { Col, DatePicker, Input, Row } from 'antd';
import dayjs from 'dayjs';
import { type Dispatch, memo } from 'react';
import type { DraftAction } from '../utils/draft.ts';
import { sameDraftParts } from '../utils/memo.ts';
import type { Draft, DraftStay } from '../utils/types.ts';
import { Field } from './field.tsx';

// The hotel form's stay (hotel_stay): room, guest and dates, kept with the invoice.

const D = 'YYYY-MM-DD';

function HotelStayBlockImpl({ draft, dispatch }: { draft: Draft; dispatch: Dispatch<DraftAction> }) {
  const s = draft.stay;
  if (!s) return null;
  const set = (patch: Partial<DraftStay>) => dispatch({ type: 'stay', patch });
  const nights = s.check_in && s.check_out ? dayjs(s.check_out).diff(dayjs(s.check_in), 'day') : null;
  return (
    <Row gutter={16}>
      <Col xs={24} md={6}>
        <Field path="hotel_stay.room_no" label="房间号" id="stay-room">
          <Input
            id="stay-room"
            value={s.room_no}
            maxLength={20}
            onChange={(e) => set({ room_no: e.target.value.trim() })}
          />
        </Field>
      </Col>
      <Col xs={24} md={6}>
        <Field path="hotel_stay.guest_name" label="入住人" id="stay-guest">
          <Input
            id="stay-guest"
            value={s.guest_name}
            maxLength={50}
            onChange={(e) => set({ guest_name: e.target.value })}
          />
        </Field>
      </Col>
      <Col xs={24} md={6}>
        <Field path="hotel_stay.check_in" label="入住日期" id="stay-in">
          <DatePicker
            id="stay-in"
            style={{ width: '100%' }}
            value={s.check_in ? dayjs(s.check_in) : null}
            onChange={(d) => set({ check_in: d ? d.format(D) : '' })}
          />
        </Field>
      </Col>
      <Col xs={24} md={6}>
        <Field
          path="hotel_stay.check_out"
          label="离店日期"
          id="stay-out"
          extra={nights !== null && nights >= 0 ? `共 ${nights} 晚` : undefined}
        >
          <DatePicker
            id="stay-out"
            style={{ width: '100%' }}
            value={s.check_out ? dayjs(s.check_out) : null}
            onChange={(d) => set({ check_out: d ? d.format(D) : '' })}
          />
        </Field>
      </Col>
    </Row>
  );
}

export const HotelStayBlock = memo(HotelStayBlockImpl, sameDraftParts(['stay']));
