import { PlusOutlined } from '@ant-design/icons';
import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { MSG } from '@kaipiao/shared/validation/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Input, Modal, Row, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { codesQuery, createCounter, disableCode } from '../api/scan.ts';
import { OrderCodes } from './order-codes.tsx';
import { QrCard } from './qr-card.tsx';
import { ScanSettingsForm } from './settings-form.tsx';

export function SwitchStoreNotice({ path }: { path: string }) {
  const navigate = useNavigate();
  return (
    <Alert
      type="info"
      showIcon
      message={`请先切换到具体${TERMS.store}`}
      description={MSG.SUMMARY_GUIDE}
      action={
        <Button
          type="primary"
          onClick={() => navigate(`/user/switch-store?redirect=${encodeURIComponent(path)}`)}
        >
          切换{TERMS.store}
        </Button>
      }
    />
  );
}

function StaticCodes({ storeId, sellerName }: { storeId: number; sellerName: string }) {
  const queryClient = useQueryClient();
  const codes = useQuery(codesQuery(storeId, 'static', 1, 30));
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: scopedKey('scan', 'codes') });

  return (
    <Card
      variant="borderless"
      title={`${TERMS.store}码 / 收银台码（静态码）`}
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          新增收银台码
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        静态码可打印成桌牌、贴在收银台，长期有效。顾客扫码填写抬头后，申请进入开票审核，由店员补全商品和
        {TERMS.amount}后开票。
      </Typography.Paragraph>
      {codes.isLoading ? (
        <Skeleton active />
      ) : (
        <Row gutter={[16, 24]}>
          {(codes.data?.list ?? []).map((c) => (
            <Col key={c.id} xs={24} sm={12} md={8} xl={6}>
              <QrCard
                code={c}
                sellerName={sellerName}
                extra={
                  c.kind === 'counter' && c.status === 'active' ? (
                    <Button
                      type="link"
                      size="small"
                      danger
                      onClick={() =>
                        Modal.confirm({
                          title: '停用收银台码',
                          content: `停用后顾客扫描“${c.name}”的二维码将无法申请开票，确定停用吗？`,
                          onOk: async () => {
                            await disableCode(c.id);
                            toastSuccess('已停用');
                            refresh();
                          },
                        })
                      }
                    >
                      停用
                    </Button>
                  ) : null
                }
              />
            </Col>
          ))}
        </Row>
      )}
      <Modal
        title="新增收银台码"
        open={adding}
        onCancel={() => setAdding(false)}
        okButtonProps={{ disabled: !name.trim() }}
        onOk={async () => {
          await createCounter(name.trim());
          toastSuccess('收银台码已生成');
          setAdding(false);
          setName('');
          refresh();
        }}
        destroyOnHidden
      >
        <Input
          placeholder="收银台名称，如：1号收银台"
          maxLength={30}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </Modal>
    </Card>
  );
}

/** spec §2 /invoice/qrcode (and the hotel variant) 扫码开票: settings, static codes, order codes. */
export function QrcodePage({ hotel, path }: { hotel: boolean; path: string }) {
  const store = useSessionStore((s) => s.store);
  const business = useSessionStore((s) => s.business);
  if (!store || store.client_store_id === SUMMARY_STORE_ID) {
    return (
      <Card variant="borderless">
        <SwitchStoreNotice path={path} />
      </Card>
    );
  }
  const storeId = store.client_store_id;
  const sellerName = business?.name ?? '';
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless" title={`扫码开票设置 · ${store.name}`}>
        <ScanSettingsForm key={storeId} storeId={storeId} />
      </Card>
      <StaticCodes storeId={storeId} sellerName={sellerName} />
      <OrderCodes storeId={storeId} sellerName={sellerName} hotel={hotel} />
    </Space>
  );
}
