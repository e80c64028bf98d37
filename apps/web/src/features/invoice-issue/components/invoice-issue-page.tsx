import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { MSG } from '@kaipiao/shared/validation/messages';
import { Button, Card, Result } from 'antd';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useSessionStore } from '../../../stores/session-store.ts';
import { draftKey } from '../utils/draft-storage.ts';
import { IssueForm } from './issue-form.tsx';

// The page behind /invoice/online and /hotel/invoice/online: the form for the selected store, or —
// on the all-stores summary view (-1) — the prompt to pick a store first (spec §2).

export function InvoiceIssuePage({ hotel = false }: { hotel?: boolean }) {
  const navigate = useNavigate();
  const business = useSessionStore((s) => s.business);
  const store = useSessionStore((s) => s.store);
  const user = useSessionStore((s) => s.user);
  const seller = useMemo(
    () => ({ name: business?.name ?? '', tax_code: business?.tax_code ?? '' }),
    [business?.name, business?.tax_code],
  );

  if (!business || !store || store.client_store_id === SUMMARY_STORE_ID) {
    return (
      <Card variant="borderless">
        <Result
          status="info"
          title={`请先切换到具体${TERMS.store}`}
          subTitle={MSG.SUMMARY_GUIDE}
          extra={
            <Button
              type="primary"
              onClick={() =>
                navigate(
                  `/user/switch-store?redirect=${encodeURIComponent(hotel ? '/hotel/invoice/online' : '/invoice/online')}`,
                )
              }
            >
              切换{TERMS.store}
            </Button>
          }
        />
      </Card>
    );
  }

  const storageKey = draftKey({
    variant: hotel ? 'hotel' : 'general',
    userId: user?.user_id ?? 0,
    clientId: business.client_id,
    storeId: store.client_store_id,
  });
  return (
    <IssueForm
      key={storageKey}
      hotel={hotel}
      storeId={store.client_store_id}
      storageKey={storageKey}
      seller={seller}
      drawer={user?.nickname ?? ''}
      libraryPath={hotel ? '/hotel/query/invoice' : '/query/invoice'}
    />
  );
}
