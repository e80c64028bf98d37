import { Card, Col, DatePicker, Input, Radio, Row } from 'antd';
import dayjs from 'dayjs';
import type { Dispatch } from 'react';
import type { DraftAction } from '../../utils/draft.ts';
import type { Draft, DraftRent } from '../../utils/types.ts';
import { CellError, Field, useFirstError } from '../field.tsx';

// 06 不动产经营租赁服务 (domain.md §4.3): one property block per item line, same province for all;
// the line's 数量 is the rented area and its 单位 the area unit.

const D = 'YYYY-MM-DD';

export function RentBlock({ draft, dispatch }: { draft: Draft; dispatch: Dispatch<DraftAction> }) {
  const items = draft.lines.map((l, i) => ({ l, i })).filter(({ l }) => l.line_kind !== 1);
  const listError = useFirstError(['real_static_rent']);
  return (
    <>
      {draft.rents.map((r, k) => {
        const item = items[k];
        const title = item
          ? `第${item.i + 1}行 ${item.l.short_name ? `*${item.l.short_name}*` : ''}${item.l.name || '（未填写项目）'}`
          : '';
        const set = (patch: Partial<DraftRent>) => dispatch({ type: 'updateRent', index: k, patch });
        const at = `real_static_rent.${k}`;
        const id = (f: string) => `rent-${k}-${f}`;
        return (
          <Card
            key={item?.l.key ?? k}
            size="small"
            title={`不动产信息 · ${title}`}
            style={{ marginBottom: 12 }}
          >
            <Row gutter={16}>
              <Col xs={24} md={6}>
                <Field path={`${at}.province`} label="省份" id={id('province')} required>
                  <Input
                    id={id('province')}
                    value={r.province}
                    maxLength={20}
                    placeholder="如 浙江省 / 上海市"
                    onChange={(e) => set({ province: e.target.value.trim() })}
                  />
                </Field>
              </Col>
              <Col xs={24} md={6}>
                <Field path={`${at}.city`} label="城市" id={id('city')}>
                  <Input
                    id={id('city')}
                    value={r.city}
                    maxLength={20}
                    placeholder="如 杭州市"
                    onChange={(e) => set({ city: e.target.value.trim() })}
                  />
                </Field>
              </Col>
              <Col xs={24} md={12}>
                <Field path={`${at}.detail_address`} label="详细地址" id={id('address')} required>
                  <Input
                    id={id('address')}
                    value={r.detail_address}
                    maxLength={80}
                    placeholder="须含街、路、村、乡、镇、道、巷、号之一"
                    onChange={(e) => set({ detail_address: e.target.value })}
                  />
                </Field>
              </Col>
              <Col xs={24} md={8}>
                <Field path={`${at}.lease_period`} label="租赁期起止" id={id('lease')} required>
                  <DatePicker.RangePicker
                    id={id('lease')}
                    style={{ width: '100%' }}
                    value={r.lease_start && r.lease_end ? [dayjs(r.lease_start), dayjs(r.lease_end)] : null}
                    onChange={(v) =>
                      set({ lease_start: v?.[0]?.format(D) ?? '', lease_end: v?.[1]?.format(D) ?? '' })
                    }
                  />
                </Field>
              </Col>
              <Col xs={24} md={4}>
                <Field path={`${at}.cross_city`} label="跨地（市）" required>
                  <Radio.Group
                    aria-label={`跨地（市）标志 第${k + 1}处`}
                    value={r.cross_city}
                    onChange={(e) => set({ cross_city: e.target.value })}
                    options={[
                      { value: 'N', label: '否' },
                      { value: 'Y', label: '是' },
                    ]}
                  />
                </Field>
              </Col>
              <Col xs={24} md={6}>
                <Field path={`${at}.certificate_no`} label="产权证书/不动产权证号" id={id('cert')} required>
                  <Input
                    id={id('cert')}
                    value={r.certificate_no}
                    maxLength={40}
                    placeholder="没有可填“无”"
                    onChange={(e) => set({ certificate_no: e.target.value.trim() })}
                  />
                </Field>
              </Col>
              <Col xs={24} md={6}>
                <Field path={`${at}.plate_no`} label="车牌号" id={id('plate')}>
                  <Input
                    id={id('plate')}
                    value={r.plate_no}
                    maxLength={80}
                    placeholder="停车服务填写，多个用逗号分隔"
                    onChange={(e) => set({ plate_no: e.target.value.trim() })}
                  />
                </Field>
              </Col>
            </Row>
            <AreaUnitError at={at} />
          </Card>
        );
      })}
      <CellError message={listError} />
    </>
  );
}

function AreaUnitError({ at }: { at: string }) {
  return <CellError message={useFirstError([`${at}.area_unit`])} />;
}
