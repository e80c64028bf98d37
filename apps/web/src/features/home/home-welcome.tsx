import { ShopOutlined } from '@ant-design/icons';
import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { MSG } from '@kaipiao/shared/validation/messages';
import { Alert, Card, Col, Descriptions, Row, Typography } from 'antd';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { UnderConstruction } from '../../components/under-construction.tsx';
import { useSessionStore } from '../../stores/session-store.ts';

function greeting(hour: number) {
  if (hour < 12) return '上午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

/** /home/index for now: who and where the clerk is working; invoicing stats come later. */
export function HomeWelcome() {
  const user = useSessionStore((s) => s.user);
  const business = useSessionStore((s) => s.business);
  const store = useSessionStore((s) => s.store);
  const summary = store?.client_store_id === SUMMARY_STORE_ID;

  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card variant="borderless">
          <Typography.Title level={4} style={{ marginTop: 0 }}>
            {greeting(dayjs().hour())}，{user?.nickname || user?.account || ''}
          </Typography.Title>
          <Descriptions column={{ xs: 1, md: 3 }} size="small">
            <Descriptions.Item label="当前企业">{business?.name ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="纳税人识别号">{business?.tax_code ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="当前门店">
              <Link to="/user/switch-store">
                <ShopOutlined /> {store?.name ?? '请选择门店'}
              </Link>
            </Descriptions.Item>
          </Descriptions>
          {summary && <Alert type="info" showIcon message={MSG.SUMMARY_GUIDE} style={{ marginTop: 12 }} />}
        </Card>
      </Col>
      <Col span={24}>
        <Card variant="borderless" title="开票统计">
          <UnderConstruction />
        </Card>
      </Col>
    </Row>
  );
}
