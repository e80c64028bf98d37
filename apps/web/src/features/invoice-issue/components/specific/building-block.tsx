import { Col, Input, Radio, Row } from 'antd';
import type { Dispatch } from 'react';
import type { DraftAction } from '../../utils/draft.ts';
import type { Draft, DraftBuilding } from '../../utils/types.ts';
import { Field } from '../field.tsx';

// 03 建筑服务 (domain.md §4.1): one item line; 发生地, 项目名称, 跨地市 and its 报验编号 (required iff Y).

export function BuildingBlock({ draft, dispatch }: { draft: Draft; dispatch: Dispatch<DraftAction> }) {
  const b = draft.building;
  const set = (patch: Partial<DraftBuilding>) => dispatch({ type: 'building', patch });
  const cross = b.cross_city === 'Y';
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Field path="building_service.place" label="建筑服务发生地" id="bs-place" required>
          <Input
            id="bs-place"
            value={b.place}
            maxLength={120}
            placeholder="省-市-区，如 浙江省-杭州市-西湖区"
            onChange={(e) => set({ place: e.target.value.trim() })}
          />
        </Field>
      </Col>
      <Col xs={24} md={12}>
        <Field path="building_service.detail_address" label="详细地址" id="bs-address">
          <Input
            id="bs-address"
            value={b.detail_address}
            maxLength={300}
            onChange={(e) => set({ detail_address: e.target.value })}
          />
        </Field>
      </Col>
      <Col xs={24} md={12}>
        <Field path="building_service.project_name" label="建筑项目名称" id="bs-project" required>
          <Input
            id="bs-project"
            value={b.project_name}
            maxLength={80}
            onChange={(e) => set({ project_name: e.target.value })}
          />
        </Field>
      </Col>
      <Col xs={24} md={12}>
        <Field path="building_service.land_vat_project_no" label="土地增值税项目编号" id="bs-land">
          <Input
            id="bs-land"
            value={b.land_vat_project_no}
            maxLength={16}
            placeholder="房地产项目填写"
            onChange={(e) => set({ land_vat_project_no: e.target.value.trim() })}
          />
        </Field>
      </Col>
      <Col xs={24} md={12}>
        <Field path="building_service.cross_city" label="跨地（市）标志" required>
          <Radio.Group
            aria-label="跨地（市）标志"
            value={b.cross_city}
            onChange={(e) =>
              set({
                cross_city: e.target.value,
                cross_region_no: e.target.value === 'Y' ? b.cross_region_no : '',
              })
            }
            options={[
              { value: 'N', label: '否' },
              { value: 'Y', label: '是' },
            ]}
          />
        </Field>
      </Col>
      <Col xs={24} md={12}>
        <Field
          path="building_service.cross_region_no"
          label="跨区域涉税事项报验管理编号"
          id="bs-cross-no"
          required={cross}
        >
          <Input
            id="bs-cross-no"
            value={b.cross_region_no}
            disabled={!cross}
            maxLength={50}
            placeholder={cross ? '跨地（市）时必填' : '非跨地（市）无需填写'}
            onChange={(e) => set({ cross_region_no: e.target.value.trim() })}
          />
        </Field>
      </Col>
    </Row>
  );
}
