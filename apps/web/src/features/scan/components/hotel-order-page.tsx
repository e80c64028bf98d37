import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { Card, Space, Typography } from 'antd';
import { useSessionStore } from '../../../stores/session-store.ts';
import { OrderCodes } from './order-codes.tsx';
import { SwitchStoreNotice } from './qrcode-page.tsx';

/** spec §2 hidden /hotel/invoice/order 订单开票: a hotel order (room, stay, guest, amount) as a QR the guest scans. */
export function HotelOrderPage() {
  const store = useSessionStore((s) => s.store);
  const business = useSessionStore((s) => s.business);
  if (!store || store.client_store_id === SUMMARY_STORE_ID) {
    return (
      <Card variant="borderless">
        <SwitchStoreNotice path="/hotel/invoice/order" />
      </Card>
    );
  }
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless">
        <Typography.Text type="secondary">
          为住客的订单生成开票码：填写房号、住客、入住离店日期和消费项目，住客扫码填写抬头即可申请发票；
          {TERMS.store}设置为“提交即开票”时自动开具，否则进入开票审核。
        </Typography.Text>
      </Card>
      <OrderCodes
        storeId={store.client_store_id}
        sellerName={business?.name ?? ''}
        hotel
        title="酒店订单开票码"
      />
    </Space>
  );
}
