import { TERMS } from '@kaipiao/shared/glossary/terms';
import { MSG } from '@kaipiao/shared/validation/messages';
import { Card, ErrorBlock, List, NavBar } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useSessionStore } from '../../../stores/session-store.ts';

/** /m-home/index: the business and store in use; the mobile features come in a later issue. */
export default function MobileHome() {
  const business = useSessionStore((s) => s.business);
  const store = useSessionStore((s) => s.store);
  const navigate = useNavigate();
  return (
    <>
      <NavBar backIcon={false}>开票台</NavBar>
      <List header="当前企业">
        <List.Item description={business?.tax_code} onClick={() => navigate('/user/switch-store')}>
          {business?.name ?? '请选择企业'}
        </List.Item>
        <List.Item extra={store?.name ?? `请选择${TERMS.store}`}>{TERMS.store}</List.Item>
      </List>
      <Card style={{ margin: 12 }}>
        <ErrorBlock status="empty" title={MSG.UNDER_CONSTRUCTION} description="移动端开票功能即将上线" />
      </Card>
    </>
  );
}
