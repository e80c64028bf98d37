import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Col, type ColProps, Form, Row, Space } from 'antd';
import { type ReactElement, useState } from 'react';

/**
 * A search form's fields in a responsive grid, followed by 重置, 查询 and 展开/收起 (the invoice
 * library, 红字信息表): folded, only the first `shown` fields stay. The fields need keys.
 */
export function FoldingFields({
  fields,
  span,
  shown,
}: {
  fields: ReactElement[];
  span: ColProps;
  shown: number;
}) {
  const [folded, setFolded] = useState(false);
  return (
    <Row gutter={24}>
      {fields.map((field, i) => (
        // not the hidden attribute: antd's column style shows the element anyway
        <Col key={field.key} {...span} style={folded && i >= shown ? { display: 'none' } : undefined}>
          {field}
        </Col>
      ))}
      <Col flex="auto" style={{ textAlign: 'right' }}>
        <Form.Item>
          <Space>
            <Button htmlType="reset">重置</Button>
            <Button type="primary" htmlType="submit">
              查询
            </Button>
            <Button
              type="link"
              onClick={() => setFolded((f) => !f)}
              aria-expanded={!folded}
              icon={folded ? <DownOutlined /> : <UpOutlined />}
              iconPosition="end"
            >
              {folded ? '展开' : '收起'}
            </Button>
          </Space>
        </Form.Item>
      </Col>
    </Row>
  );
}
